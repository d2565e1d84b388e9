"""A contents whose own heading carries a section number ("1 Table of contents", ConTeXt's) and which lists itself as
its first entry ("1 Table of contents 2"): the heading is the contents' heading, not an entry without a page number
listed before it (seen on mplibapi, where it made the title twice). A heading without a number still works."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The library draws paths, fills them and writes the result to a file the caller names in advance. " * 4
LISTED = [("1 Table of contents", 2), ("2 Introduction", 3), ("2.1 Simple use", 3), ("3 Core functions", 4),
          ("3.1 Structures", 4), ("4 Path functions", 5), ("5 Backend functions", 6)]


def _document(path: Path, heading: str) -> Path:
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((200, 250), "The Library", fontname="helv", fontsize=40)
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((280, 73), "2", fontsize=12)
    toc.insert_text((71, 131), heading, fontsize=12)
    for i, (title, page) in enumerate(LISTED):
        y = 154 + 12 * i
        toc.insert_text((71, y), title, fontsize=10)
        toc.insert_text((520, y), str(page), fontsize=10)
    for n in range(3, 7):
        page = doc.new_page(width=W, height=H)
        page.insert_text((280, 73), str(n), fontsize=12)
        y = 110
        for title, listed in LISTED[1:]:
            if listed == n:
                page.insert_text((71, y), title, fontname="hebo", fontsize=14 if "." not in title else 12)
                page.insert_textbox(pymupdf.Rect(71, y + 10, 520, y + 150), PROSE, fontsize=10)
                y += 170
    doc.save(path)
    return path


def test_a_numbered_contents_heading_is_not_an_entry(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "n.pdf", "1 Table of contents")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == LISTED


def test_an_unnumbered_contents_heading_reads_the_same(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "n.pdf", "Table of contents")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == LISTED
