"""Contents links that point one page early, as DocBook through Jade and TeX sets them (libraw1394's manual shows the
kind): the anchor lands before a page break, so the link and the listed number both name the page before the heading.
The expected pages come from the construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 612, 792
PROSE = "The library keeps one handle for each open connection and reports errors through return codes. " * 4

# (title in the contents, printed page listed and linked, body page that sets the heading, 1-based physical)
ROWS = [
    ("1 Overview", 1, 2),
    ("2 Ports", 2, 4),  # its page 3 mentions ports in prose; the heading opens page 4
    ("3 Handlers", 4, 5),
    ("raw_get_errcode", 5, 7),  # a reference entry: page 6 does not print its name, page 7 opens with it
    ("raw_set_port", 7, 8),
    ("Index", 8, 10),  # linked to the blank page 9 before it, as LaTeX sets a chapter on a right-hand page
]
BLANK = 9
# Where each entry belongs: its heading, except the index, which stays on the blank page its link names (the
# author's outline puts it there too).
EXPECTED = [(title, BLANK if title == "Index" else body) for title, _, body in ROWS]


def build(path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(10):
        doc.new_page(width=W, height=H)
    toc = doc[0]
    toc.insert_text((72, 80), "Contents", fontname="hebo", fontsize=18)
    for i, (title, printed, _) in enumerate(ROWS):
        y = 120 + 18 * i
        toc.insert_text((72, y), title, fontname="helv", fontsize=11)
        toc.insert_text((300, y), " ." * 50, fontsize=11)
        num = str(printed)
        toc.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
        toc.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 10, 520, y + 3), "page": printed})
    heads = {body: title for title, _, body in ROWS}
    for n in range(2, 11):
        page = doc[n - 1]
        if n == BLANK:
            page.insert_text((W / 2, H - 40), str(n - 1), fontsize=9)
            continue
        y = 90.0
        if n in heads:
            page.insert_text((72, y), heads[n], fontname="hebo", fontsize=14)
            y += 30
        text = PROSE + (" Several ports may be open at once." if n == 3 else "")
        page.insert_textbox(pymupdf.Rect(72, y, W - 72, y + 300), text, fontname="helv", fontsize=10)
        page.insert_text((W / 2, H - 40), str(n - 1), fontsize=9)
    doc.save(path)


def test_a_link_one_page_before_its_heading_follows_the_heading(tmp_path: Path) -> None:
    path = tmp_path / "early.pdf"
    build(path)
    result = recover_structure(PdfSource(path), max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == EXPECTED
