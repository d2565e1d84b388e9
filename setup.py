"""The compiled part of pagetree: the HTML reader's walk (parsers/html_walk.pyx), built against lxml's C API; a
PDF page's visual lines from PyMuPDF's "dict" (parsers/layout_lines.pyx); and a page's line fragments read straight
from MuPDF's structured text (parsers/stext_walk.pyx), built against the MuPDF headers and library the PyMuPDF
wheel ships for extensions (``pymupdf/mupdf-devel/include``, ``pymupdf/libmupdf.so.*``).

Everything else is in pyproject.toml. The extensions are optional: when they cannot be built (no C compiler, no
MuPDF headers in the PyMuPDF installed for the build) the install goes on and parsers/html_doc.py and
parsers/pdf.py use their Python code, which gives the same output.
"""

import glob
import os

import lxml
from Cython.Build import cythonize
from setuptools import Extension, setup


def _mupdf_walk() -> list[Extension]:
    """parsers.stext_walk, when the PyMuPDF of the build environment ships MuPDF's headers and shared library.

    It links to ``libmupdf.so.<version>`` by that name (its soname): at run time the library is the one PyMuPDF
    has loaded already (parsers/pdf.py imports pymupdf first), or is found next to the installed package
    (``$ORIGIN/../pymupdf``). parsers/pdf.py uses the walk only when the MuPDF release running is the one
    compiled against (``stext_walk.BUILT_WITH_MUPDF``)."""
    try:
        import pymupdf
    except ImportError:
        return []
    where = os.path.dirname(pymupdf.__file__)
    include = os.path.join(where, "mupdf-devel", "include")
    libs = sorted(glob.glob(os.path.join(where, "libmupdf.so.*")))
    if not os.path.isfile(os.path.join(include, "mupdf", "fitz.h")) or not libs:
        return []
    return [Extension("parsers.stext_walk", ["parsers/stext_walk.pyx"], include_dirs=[include],
                      library_dirs=[where], extra_link_args=[f"-l:{os.path.basename(libs[0])}"],
                      runtime_library_dirs=["$ORIGIN/../pymupdf"], extra_compile_args=["-ffp-contract=off"],
                      optional=True)]


setup(ext_modules=cythonize(
    [Extension("parsers.html_walk", ["parsers/html_walk.pyx"], include_dirs=lxml.get_include(), optional=True),
     # No fused multiply-add: the word boxes' arithmetic must round as Python's does, step by step.
     Extension("parsers.layout_lines", ["parsers/layout_lines.pyx"], optional=True,
               extra_compile_args=["-ffp-contract=off"])] + _mupdf_walk(),
    compiler_directives={"language_level": "3"}, quiet=True))
