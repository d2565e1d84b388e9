"""A chapter whose title is longer than the key titles are searched by (``title_key`` cuts it) and which its opening
page sets in capitals over two lines: that page sets the title as a line of its own, so the running foot of the
chapter's next page ("4 Chapter 3. Canberra Distances and ...", which reads like the numbered heading) must not draw
the entry there (seen on mlpy B3, where the contents' page number was right and the entry went a page late).
The expected pages come from the construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The measure compares two ranked lists and returns a distance between zero and one for the caller. " * 4
LONG = "Canberra Distances and Stability Indicator of Ranked Lists"
LISTED = [("1 Getting started", 1), ("2 Basic use", 2), (f"3 {LONG}", 3), ("3.1 Canberra distance", 3),
          ("4 Other measures", 5)]
FIRST_BODY = 3  # physical page of folio 1


def build(path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((150, 300), "The Measures Guide", fontname="hebo", fontsize=24)
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (title, page) in enumerate(LISTED):
        y = 150 + 18 * i
        toc.insert_text((72, y), title + " " + "." * 20, fontsize=10)
        toc.insert_text((520, y), str(page), fontsize=10)
    for folio in range(1, 6):
        page = doc.new_page(width=W, height=H)
        y = 120
        if folio == 3:  # the chapter's opening page: its title in capitals, wrapped over two lines
            page.insert_text((72, 100), "CHAPTER THREE", fontname="hebo", fontsize=10)
            page.insert_text((72, 140), LONG.upper().rsplit(" ", 1)[0], fontname="hebo", fontsize=14)
            page.insert_text((72, 160), LONG.upper().rsplit(" ", 1)[1], fontname="hebo", fontsize=14)
            page.insert_text((72, 200), "3.1 Canberra distance", fontname="hebo", fontsize=12)
            y = 210
        else:
            title = next((t for t, p in LISTED if p == folio and "." not in t[:3]), None)
            if title is not None:
                page.insert_text((72, 100), title, fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, y, 520, y + 200), PROSE, fontsize=10)
        if folio == 4:  # the chapter's running foot, beside the folio
            page.insert_text((72, 800), "4", fontsize=9)
            page.insert_text((300, 800), f"Chapter 3. {LONG}", fontsize=9)
        else:
            page.insert_text((520, 800), str(folio), fontsize=9)
    doc.save(path)


def test_a_long_title_set_over_two_lines_is_headed_on_its_listed_page(tmp_path: Path) -> None:
    path = tmp_path / "long.pdf"
    build(path)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    pages = {e.title: e.page for e in result.entries}
    assert pages[f"3 {LONG}"] == FIRST_BODY + 2
    assert pages["4 Other measures"] == FIRST_BODY + 4
