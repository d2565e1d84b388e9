"""The headings fallback on a title repeated as a label and set once as a head, on real PDFs built with PyMuPDF: an
API reference names the class each function applies to in a bold label at the body's size under every entry
("Applicability:" / "Plot"), and heads the class's own page with the same name set large."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "This function applies to the classes named below and to every class derived from them in the library."
FUNCTIONS = ["astAddCurve", "astBorder", "astBoundingBox", "astClip", "astCurve", "astGenCurve", "astGrid"]
CLASSES = ["Plot", "Region", "Mapping"]


def _reference(path: Path) -> Path:
    """One page a function (its name at 14 pt bold, its description, an "Applicability:" label over the names of the
    classes it applies to, bold at 10 pt), then one page a class, its name at 14 pt bold."""
    doc = pymupdf.open()
    for n, name in enumerate(FUNCTIONS):
        page = doc.new_page(width=612, height=792)
        page.insert_text((260, 120), name, fontname="hebo", fontsize=14)
        page.insert_text((79, 170), "Description:", fontname="hebo", fontsize=10)
        page.insert_textbox(pymupdf.Rect(106, 178, 540, 260), PROSE * 2, fontname="helv", fontsize=10)
        page.insert_text((79, 290), "Applicability:", fontname="hebo", fontsize=10)
        y = 310
        for cls in (CLASSES[n % 3], CLASSES[(n + 1) % 3]):
            page.insert_text((82, y), cls, fontname="hebo", fontsize=10)
            page.insert_text((106, y + 14), PROSE, fontname="helv", fontsize=10)
            y += 40
    for cls in CLASSES:
        page = doc.new_page(width=612, height=792)
        page.insert_text((270, 120), cls, fontname="hebo", fontsize=14)
        page.insert_text((79, 170), "Description:", fontname="hebo", fontsize=10)
        page.insert_textbox(pymupdf.Rect(106, 178, 540, 300), PROSE * 3, fontname="helv", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_name_repeated_as_a_label_heads_its_own_page_set_large(tmp_path: Path) -> None:
    with PdfSource(_reference(tmp_path / "reference.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    found = outline_headings(detect_headings(layouts))
    classes = [(h.title, h.page) for h in found if h.title in CLASSES]
    # The large heads of the class pages, not the labels at the body's size under the functions.
    assert classes == [(cls, len(FUNCTIONS) + 1 + k) for k, cls in enumerate(CLASSES)]
    assert [h.title for h in found if h.size > 12][:len(FUNCTIONS)] == FUNCTIONS


def _report(path: Path) -> Path:
    """A report whose title page, inner title page and back cover each set its division's name in bold display type a
    few tenths of a point apart (14.3, 14.0, 13.9 pt, in two fonts), the first in the chapters' style (14.3 pt bold)."""
    doc = pymupdf.open()
    division = "Mathematics and Computer Science Division"
    for size, font in ((14.3, "hebo"), (14.0, "hebo")):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 280), "Solver Toolkit Users Manual", fontname="hebo", fontsize=20.7)
        page.insert_text((72, 425), division, fontname=font, fontsize=size)
    for n, chapter in enumerate(["Introduction", "Vectors", "Matrices", "Solvers", "Profiling"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), f"{n} {chapter}", fontname="hebo", fontsize=14.3)
        page.insert_textbox(pymupdf.Rect(72, 130, 540, 400), PROSE * 4, fontname="helv", fontsize=10)
    page = doc.new_page(width=612, height=792)
    page.insert_text((99, 127), division, fontname="tibo", fontsize=13.9)
    page.insert_textbox(pymupdf.Rect(99, 150, 540, 260), PROSE, fontname="helv", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_title_repeated_in_display_sizes_a_point_apart_is_no_head(tmp_path: Path) -> None:
    # Set three times in one display style drawn in two fonts, the name is repeated, not a label under a head: none of
    # its instances is set apart from the others.
    with PdfSource(_report(tmp_path / "report.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    titles = [h.title for h in outline_headings(detect_headings(layouts))]
    assert "Mathematics and Computer Science Division" not in titles
    assert [t for t in titles if t[0].isdigit()] == ["1 Introduction", "2 Vectors", "3 Matrices", "4 Solvers", "5 Profiling"]
