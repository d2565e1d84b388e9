"""The headings fallback on a numbered manual's front and back matter, on real PDFs built with PyMuPDF: an unnumbered
head opening its page, set between the chapters' size and the sections' ("About this Manual")."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "The subnet manager initializes the fabric and sweeps it again whenever a port changes its state."


def _outline(pdf: Path) -> list:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return outline_headings(detect_headings(layouts))


def _numbered_manual(path: Path, matter_opens_page: bool = True) -> Path:
    """A manual with 24 pt numbered chapters and 14 pt numbered sections, each page under a running head of two lines
    (the title, the folio under it); an unnumbered 18 pt bold "About this Manual" before the chapters and "Revision
    History" after them, each opening its page (or set under a paragraph of text)."""
    doc = pymupdf.open()

    def page_with_head() -> pymupdf.Page:
        page = doc.new_page(width=612, height=792)
        page.insert_text((64, 40), "Subnet Manager User's Manual", fontname="helv", fontsize=7)
        page.insert_text((534, 50), str(doc.page_count), fontname="helv", fontsize=7)
        return page

    def matter(title: str) -> None:
        page = page_with_head()
        y = 80
        if not matter_opens_page:
            for _ in range(3):
                page.insert_text((64, y), PROSE, fontname="helv", fontsize=10)
                y += 14
            y += 20
        page.insert_text((64, y), title, fontname="hebo", fontsize=18)
        y += 40
        for _ in range(8):
            page.insert_text((64, y), PROSE, fontname="helv", fontsize=10)
            y += 14

    matter("About this Manual")
    for n, (chapter, sections) in enumerate([("Overview", ["Key Concepts", "Dependencies"]),
                                             ("Installation", ["Prerequisites", "Installing"]),
                                             ("Usage", ["Options", "Signals"])], start=1):
        page = page_with_head()
        page.insert_text((64, 90), f"{n} {chapter}", fontname="hebo", fontsize=24)
        y = 140
        for m, section in enumerate(sections, start=1):
            page.insert_text((64, y), f"{n}.{m} {section}", fontname="hebo", fontsize=14)
            y += 26
            for _ in range(8):
                page.insert_text((64, y), PROSE, fontname="helv", fontsize=10)
                y += 14
            y += 12
    matter("Revision History")
    doc.save(path)
    doc.close()
    return path


def test_unnumbered_matter_opening_a_page_between_chapters_and_sections_size_is_kept(tmp_path: Path) -> None:
    titles = [h.title for h in _outline(_numbered_manual(tmp_path / "matter.pdf"))]
    assert titles[0] == "About this Manual" and titles[-1] == "Revision History"
    assert "1 Overview" in titles and "3.2 Signals" in titles


def test_such_a_head_under_text_is_still_left_out(tmp_path: Path) -> None:
    # Set under a paragraph, an unnumbered head smaller than the chapters is a starred section or a label.
    titles = [h.title for h in _outline(_numbered_manual(tmp_path / "inline.pdf", matter_opens_page=False))]
    assert "About this Manual" not in titles and "Revision History" not in titles
