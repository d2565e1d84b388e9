"""A contents link to the page just before its heading (hyperref's anchor set before a page break; LinuxCNC's manuals
and 4ti2's show the kind) is the author's mapping, which the outline shares: the page printing the listed number does
not override it. The expected pages come from the construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 612, 792
PROSE = "The library keeps one handle for each open connection and reports errors through return codes. " * 4
# (title, printed page listed, 1-based physical page the heading is set on, page the link names)
ROWS = [("1 Overview", 1, 2, 2), ("2 Homing", 3, 4, 3), ("3 Handlers", 4, 5, 5), ("4 Tasks", 5, 6, 6)]


def build(path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(7):
        doc.new_page(width=W, height=H)
    toc = doc[0]
    toc.insert_text((72, 80), "Contents", fontname="hebo", fontsize=18)
    for i, (title, printed, _, link) in enumerate(ROWS):
        y = 120 + 18 * i
        toc.insert_text((72, y), title, fontname="helv", fontsize=11)
        toc.insert_text((300, y), " ." * 50, fontsize=11)
        num = str(printed)
        toc.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
        toc.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 10, 520, y + 3), "page": link - 1})
    heads = {body: title for title, _, body, _ in ROWS}
    for n in range(2, 8):
        page = doc[n - 1]
        y = 90.0
        if n in heads:
            page.insert_text((72, y), heads[n], fontname="hebo", fontsize=14)
            y += 30
        page.insert_textbox(pymupdf.Rect(72, y, W - 72, y + 300), PROSE, fontname="helv", fontsize=10)
        page.insert_text((W / 2, H - 40), str(n - 1), fontsize=9)
    doc.save(path)


def test_a_link_to_the_page_before_its_heading_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "anchors.pdf"
    build(path)
    result = recover_structure(PdfSource(path), max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [(title, link) for title, _, _, link in ROWS]
