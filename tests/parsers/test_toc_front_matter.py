"""A contents that lists the front matter before it ("Preface v") and itself ("Contents vii"): those entries stay on
the roman-numbered pages they name, as the author's outline has them, instead of moving to the first body page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.numbering import int_to_roman
from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 612, 792
PROSE = ("The quick survey of the method follows in plain words, with enough text on every page to read as a body "
         "and to hold the titles the contents lists, so that each entry can be verified where it points.")


def _folio(page: pymupdf.Page, text: str) -> None:
    page.insert_text((W / 2, H - 40), text, fontsize=9)


def _book(path: Path) -> Path:
    """Title page (no folio), preface on iii-iv, contents on v, chapters on arabic pages 1-8 (physical 5-12)."""
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 200), "A Small Handbook", fontname="hebo", fontsize=24)
    for k in range(2):  # preface: iii, iv
        page = doc.new_page(width=W, height=H)
        if k == 0:
            page.insert_text((72, 90), "Preface", fontname="hebo", fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 700), PROSE * 3, fontsize=11)
        _folio(page, int_to_roman(3 + k).lower())
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 90), "Contents", fontname="hebo", fontsize=18)
    chapters = ["Getting Started", "Daily Operation", "Maintenance Schedule", "Safety Rules"]
    rows = [("Preface", "iii"), ("Contents", "v")] + [(f"{i + 1} {t}", str(1 + 2 * i)) for i, t in enumerate(chapters)]
    for i, (title, num) in enumerate(rows):
        y = 130 + 18 * i
        toc.insert_text((72, y), title, fontsize=11)
        toc.insert_text((300, y), " ." * 50, fontsize=11)
        toc.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
    _folio(toc, "v")
    for i, t in enumerate(chapters):
        for k in range(2):
            page = doc.new_page(width=W, height=H)
            if k == 0:
                page.insert_text((72, 90), f"{i + 1} {t}", fontname="hebo", fontsize=18)
            page.insert_textbox(pymupdf.Rect(72, 120, 540, 700), PROSE * 3, fontsize=11)
            _folio(page, str(1 + 2 * i + k))
    doc.save(path)
    return path


def test_front_matter_and_the_contents_itself_keep_their_roman_pages(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "b.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    got = [(e.title, e.page) for e in result.entries]
    assert got == [("Preface", 2), ("Contents", 4), ("1 Getting Started", 5), ("2 Daily Operation", 7),
                   ("3 Maintenance Schedule", 9), ("4 Safety Rules", 11)]
