"""The compiled part of pagetree: the HTML reader's walk (parsers/html_walk.pyx), built against lxml's C API, and a
PDF page's visual lines from PyMuPDF's "dict" (parsers/layout_lines.pyx).

Everything else is in pyproject.toml. The extensions are optional: when they cannot be built (no C compiler) the
install goes on and parsers/html_doc.py and parsers/pdf.py use their Python code, which gives the same output.
"""

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize(
    [Extension("parsers.html_walk", ["parsers/html_walk.pyx"], include_dirs=lxml.get_include(), optional=True),
     # No fused multiply-add: the word boxes' arithmetic must round as Python's does, step by step.
     Extension("parsers.layout_lines", ["parsers/layout_lines.pyx"], optional=True,
               extra_compile_args=["-ffp-contract=off"])],
    compiler_directives={"language_level": "3"}, quiet=True))
