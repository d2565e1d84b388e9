"""The compiled part of pagetree: the HTML reader's walk (parsers/html_walk.pyx), built against lxml's C API.

Everything else is in pyproject.toml. The extension is optional: when it cannot be built (no C compiler) the
install goes on and parsers/html_doc.py uses its Python walk, which gives the same output.
"""

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup

setup(ext_modules=cythonize(
    [Extension("parsers.html_walk", ["parsers/html_walk.pyx"], include_dirs=lxml.get_include(), optional=True)],
    compiler_directives={"language_level": "3"}, quiet=True))
