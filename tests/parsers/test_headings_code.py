"""The headings fallback on code set in a fixed-pitch face that the PDF does not flag as fixed-pitch: URW's Courier
clone embedded as "NimbusMonL-Bold" (LaTeX's times package, as Sphinx and Doxygen manuals use it), its reference
entries (environment variables, option names) set bold at the body's size on lines of their own; real PDFs built
with PyMuPDF, the fonts renamed as such a PDF names them."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource
from tests.pdfs import rename_fonts

SANS_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"  # proportional: MuPDF flags no fixed pitch
PROSE = "The program reads its settings from the environment before it opens the input files it is given. " * 4
VARIABLES = ["GMX_MAXBACKUP", "GMX_NO_QUOTES", "GMX_SUPPRESS_DUMP", "GMX_TPI_DUMP", "GMX_VIEW_XVG", "GMX_LOG_BUFFER"]


def _reference(path: Path) -> Path:
    """Two numbered chapters (14 pt bold) with a section each (12 pt bold); under each section three variables set
    alone on their line in the renamed face at the body's 10 pt, each followed by its indented description."""
    doc = pymupdf.open()
    for c in (1, 2):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), f"{c} Chapter number {c}", fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, 105, 540, 165), PROSE, fontname="helv", fontsize=10)
        page.insert_text((72, 190), f"{c}.1 Environment variables", fontname="hebo", fontsize=12)
        y = 215
        for name in VARIABLES[3 * (c - 1):3 * c]:
            page.insert_text((72, y), name, fontname="nmon", fontfile=SANS_BOLD, fontsize=10)
            page.insert_textbox(pymupdf.Rect(90, y + 8, 540, y + 60), PROSE, fontname="helv", fontsize=10)
            y += 90
    rename_fonts(doc, "DejaVu", "/ABCDEF+NimbusMonL-Bold")
    doc.save(path)
    doc.close()
    return path


def test_urw_courier_by_name_sets_code_not_heads(tmp_path: Path) -> None:
    with PdfSource(_reference(tmp_path / "vars.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    names = [ln for lay in layouts for ln in lay.lines if ln.text.startswith("GMX_")]
    assert len(names) == 6 and all(ln.font == "NimbusMonL-Bold" and ln.bold and not ln.mono for ln in names)
    found = outline_headings(detect_headings(layouts))
    assert [(h.title, h.level) for h in found] == [
        ("1 Chapter number 1", 1), ("1.1 Environment variables", 2),
        ("2 Chapter number 2", 1), ("2.1 Environment variables", 2),
    ]


MEMBERS = ["Result Library::operator& ( Result x, Result y ) [inline]",
           "Generator point ( Representation r ) [related]",
           "Variable Library::Expression::iterator::variable ( ) const [inline]",
           "int library_string2option (const char * str) [Function]"]


def _api_reference(path: Path) -> Path:
    """Unnumbered chapters and sections (14 and 12 pt bold) over 10 pt prose; the sections document functions, each
    declaration set bold at the body's size on its own line (as Doxygen and Texinfo set them), then described; the
    last one has a head in that style that holds a parenthesis of prose ("Installation (Linux, BSD)")."""
    doc = pymupdf.open()
    for c, chapter in enumerate(["Results", "Generators", "Building"]):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, 105, 540, 165), PROSE, fontname="helv", fontsize=10)
        page.insert_text((72, 190), "Function Documentation" if c < 2 else "Platforms", fontname="hebo", fontsize=12)
        y = 215
        for member in MEMBERS if c < 2 else ["Installation (Linux, BSD)", "Installation (Windows)"]:
            page.insert_text((72, y), member, fontname="hebo", fontsize=10)
            page.insert_textbox(pymupdf.Rect(90, y + 14, 540, y + 70), PROSE, fontname="helv", fontsize=10)
            y += 90
    doc.save(path)
    doc.close()
    return path


def test_declarations_spaced_before_their_arguments_are_no_heads(tmp_path: Path) -> None:
    with PdfSource(_api_reference(tmp_path / "api.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    titles = [h.title for h in outline_headings(detect_headings(layouts))]
    assert titles == ["Results", "Function Documentation", "Generators", "Function Documentation", "Building",
                      "Platforms", "Installation (Linux, BSD)", "Installation (Windows)"]


FUNCTIONS = [("astActiveObjects", "Return pointers for all active Objects"), ("astAddCell", "Add a single cell to a map"),
             ("astAnnul", "Annul a pointer to an Object"), ("ast_begin", "Begin a new context")]


def _function_pages(path: Path, functions: list[tuple[str, str]] = FUNCTIONS) -> Path:
    """A page of prose, a chapter's page, then one page a function: its name (one word opening lower-case) centred at 14 pt bold, what
    it does set tight under it in that style, then its description at 10 pt."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_textbox(pymupdf.Rect(72, 90, 540, 300), PROSE, fontname="helv",
                                                       fontsize=10)
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "Function Descriptions", fontname="hebo", fontsize=18)
    page.insert_textbox(pymupdf.Rect(72, 110, 540, 300), PROSE, fontname="helv", fontsize=10)
    for name, does in functions:
        page = doc.new_page(width=612, height=792)
        page.insert_text((306 - 4 * len(name), 120), name, fontname="hebo", fontsize=14)
        page.insert_text((306 - 3.5 * len(does), 138), does, fontname="hebo", fontsize=14)
        page.insert_text((72, 180), "Description:", fontname="hebo", fontsize=10)
        page.insert_textbox(pymupdf.Rect(90, 186, 540, 300), PROSE, fontname="helv", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_functions_name_heads_its_page_and_what_it_does_is_no_head(tmp_path: Path) -> None:
    with PdfSource(_function_pages(tmp_path / "functions.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    found = outline_headings(detect_headings(layouts))
    assert [(h.title, h.page) for h in found if h.size > 12] == [("Function Descriptions", 2)] + [
        (name, k + 3) for k, (name, _) in enumerate(FUNCTIONS)]


FAMILIES = [("astGetCell", "Obtain the value of a cell"), ("astGet<X>", "Get an attribute value for an Object"),
            ("astGetFrame", "Obtain a pointer to a specified Frame"), ("astIsA<Class>", "Test membership of a class"),
            ("astMapGet0<X>", "Get a scalar value from a KeyMap")]


def test_a_function_familys_name_with_its_type_placeholder_heads_its_page(tmp_path: Path) -> None:
    # "astGet<X>": a family of functions, <X> standing for the type's letter; its name heads the page as any
    # function's does, what it does under it is no head.
    with PdfSource(_function_pages(tmp_path / "families.pdf", FAMILIES)) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    found = outline_headings(detect_headings(layouts))
    assert [(h.title, h.page) for h in found if h.size > 12] == [("Function Descriptions", 2)] + [
        (name, k + 3) for k, (name, _) in enumerate(FAMILIES)]


NAMES = [("FitsAxisOrder", "Frame title"), ("CmpFrame", "Compound Frame"), ("astChr2Double", "read a double value"),
         ("StdOfRest", "Standard of rest")]


def test_a_name_in_one_word_is_no_head_wrapped_over_the_line_under_it(tmp_path: Path) -> None:
    # A name in camel case or an identifier does not wrap: the short line under it in its style ("Compound Frame"),
    # or one opening lower-case ("read a double value"), says what the name is, and the head is the name alone.
    with PdfSource(_function_pages(tmp_path / "names.pdf", NAMES)) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    found = outline_headings(detect_headings(layouts))
    assert [(h.title, h.page) for h in found if h.size > 12] == [("Function Descriptions", 2)] + [
        (name, k + 3) for k, (name, _) in enumerate(NAMES)]
