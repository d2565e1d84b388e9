"""A contents whose last row or two spill onto a page of their own (Sphinx's LaTeX: aunit-cb's "A GNU Free
Documentation License 41" and "Index 47" alone on the page after the listing) keeps them: such a page holds too few
rows to read as a contents page, yet every line on it is a row in the listing's number column, going on from the
listing's last number."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.toc import find_toc


def _dots(title: str, x0: float) -> str:
    width = pymupdf.get_text_length(title + " ", fontsize=10)
    return title + " " + ". " * int((440 - x0 - width) / pymupdf.get_text_length(". ", fontsize=10))


def _spilled_contents(path: Path, spill: list[tuple[str, int]], prose: bool = False) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=16)
    y = 120.0
    for ch in range(1, 8):
        page.insert_text((72, y), f"{ch} Chapter number {ch}", fontname="hebo", fontsize=10)
        page.insert_text((530, y), str(4 * ch + 1), fontname="hebo", fontsize=10)
        y += 18
        for sec in range(1, 4):
            page.insert_text((87, y), _dots(f"{ch}.{sec} Section {sec} of chapter {ch}", 87), fontsize=10)
            page.insert_text((530, y), str(4 * ch + sec), fontsize=10)
            y += 14
    page.insert_text((300, 760), "3", fontsize=10)
    page = doc.new_page(width=612, height=792)
    y = 80.0
    for title, number in spill:
        page.insert_text((72, y), title, fontname="hebo", fontsize=10)
        page.insert_text((530 if number < 10 else 525, y), str(number), fontname="hebo", fontsize=10)
        y += 22
    if prose:
        page.insert_text((72, y + 40), "This page goes on with the text of a chapter, a long sentence of prose.",
                         fontsize=10)
    page.insert_text((300, 760), "4", fontsize=10)
    for n in range(40):
        body = doc.new_page(width=612, height=792)
        body.insert_text((300, 760), str(n + 1), fontsize=10)
    doc.save(path)
    return path


def test_the_last_rows_on_a_page_of_their_own_stay_in_the_listing(tmp_path: Path) -> None:
    src = PdfSource(str(_spilled_contents(tmp_path / "spill.pdf", [("A GNU Free Documentation License", 31),
                                                                    ("Index", 37)])))
    toc = find_toc(src.page_count, src.text, src.layout)
    assert toc.pages == [1, 2]
    assert [(e.title, e.page.value) for e in toc.entries[-2:]] == [("A GNU Free Documentation License", 31),
                                                                   ("Index", 37)]
    assert len(toc.entries) == 7 * 4 + 2


def test_a_page_of_rows_going_back_is_not_the_listings_tail(tmp_path: Path) -> None:
    # Two rows whose numbers go back before the listing's last (a short list of figures, a change log) are not its rows.
    src = PdfSource(str(_spilled_contents(tmp_path / "back.pdf", [("Figure one", 6), ("Figure two", 9)])))
    toc = find_toc(src.page_count, src.text, src.layout)
    assert toc.pages == [1]
    assert len(toc.entries) == 7 * 4
