"""A contents link whose destination lies above every line of its page, its running head too, on a page that does
not print the title while the next page does: the anchor was set before a page break that the heading followed
(dblatex's reference entries, each opening a new page; libraw1394's contents links 'raw1394_iso_xmit_write' to the
page before its heading, while the contents prints the heading's page and the outline goes there). The entry goes to
the next page. A destination above a page that prints the title stays, and so does one above a blank page (a chapter
opening on a right-hand page, the blank page before it listed and linked: Sphinx's), and so does one above a chapter's
opening page that heads it with a longer title, the contents' short title only in the next page's running head
(derivations'). The expected pages come from the construction below."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The function takes a handle and returns zero on success, or minus one on failure with errno set. " * 12
# (title, printed page = physical page - 1, physical page of its heading, link target page)
ROWS = [("Introduction", 1, 2, 2), ("Data structures", 2, 3, 3), ("raw_open_handle", 3, 4, 3),
        ("raw_close_handle", 4, 5, 5), ("raw_read_block", 5, 6, 5), ("raw_write_block", 6, 7, 7),
        ("Compatibility notes", 7, 8, 8), ("Fourier and Laplace", 9, 10, 10)]
BLANK, OPENS = 8, 9  # the blank page listed and linked, and the page "Compatibility notes" is headed on
# A chapter opening whose heading is longer than its contents title, the short title in the next page's running head.
LONG_HEAD, RUNNING = "Fourier applications and the Laplace transform", "CHAPTER 9. FOURIER AND LAPLACE"


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    doc.new_page(width=612, height=792)  # the contents, filled in once the body's pages exist
    heads = {physical: title for title, _, physical, _ in ROWS}
    heads[OPENS] = heads.pop(BLANK)
    for n in range(2, 13):
        body = doc.new_page(width=612, height=792)
        if n == BLANK:
            body.insert_text((300, 760), str(n - 1), fontname="helv", fontsize=9)
            continue
        body.insert_text((72, 50), RUNNING if n == 11 else "Function Reference", fontname="helv", fontsize=9)
        y = 90.0
        if n in heads:
            body.insert_text((72, y), LONG_HEAD if n == 10 else heads[n], fontname="hebo", fontsize=16)
            y += 30
        body.insert_textbox(pymupdf.Rect(72, y, 540, 720), PROSE, fontname="helv", fontsize=10)
        body.insert_text((300, 760), str(n - 1), fontname="helv", fontsize=9)
    page = doc[0]
    page.insert_text((72, 80), "Table of Contents", fontname="hebo", fontsize=20)
    y = 120.0
    for title, printed, _, target in ROWS:
        width = pymupdf.get_text_length(title, "helv", 11)
        page.insert_text((72, y), title + " " + "." * int((400 - width) / 3.1), fontname="helv", fontsize=11)
        page.insert_text((520 - pymupdf.get_text_length(str(printed), "helv", 11), y), str(printed), fontname="helv",
                         fontsize=11)
        page.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 10, 530, y + 3), "page": target - 1,
                          "to": pymupdf.Point(72, 30)})  # 30 pt from the top: above the running head
        y += 20
    doc.save(path)
    return path


def test_a_link_above_a_page_without_the_title_goes_to_the_next_page(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "links.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [(title, physical) for title, _, physical, _ in ROWS]
