"""Contents entries whose page numbers carry a section's letter ("Bibliography A\u2013vii": an appendix numbered apart,
as a filing's "F-1"; BuildWithGBP's appendix) keep titles without that number, and are placed by their titles as
entries without a number are; a Part's roman number glued to its title ("VII.Anhang": the number's box overflowed)
is split from it. The expected pages come from the construction below."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import parse_toc_line

W, H = 612, 792
EDGE = 520  # the right edge of the page-number column
PROSE = "The package is built from its repository with the tools this chapter describes, step by step. " * 3
# (contents title, page token, physical page its heading is on)
ROWS = [("1 Introduction", "1", 2), ("2 Building the package", "3", 4), ("3 Uploading it", "5", 6),
        ("II.Anhang", "A-i", 8), ("Table of Figures", "A-ii", 9), ("Bibliography", "A-iii", 10),
        ("Index", "A-iv", 11)]
FOLIOS = ["1", "2", "3", "4", "5", "6", "A-i", "A-ii", "A-iii", "A-iv"]


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 80), "Contents", fontname="hebo", fontsize=18)
    for k, (title, token, _) in enumerate(ROWS):
        y = 120 + 30 * k  # a line apart: no entry is the wrapped tail of the one above
        toc.insert_text((72, y), title, fontname="hebo", fontsize=11)
        # A number wider than its box overflows it: "A-iii" ends right of the arabic numbers.
        right = EDGE + (9 if "-" in token else 0)
        toc.insert_text((right - pymupdf.get_text_length(token, fontname="hebo", fontsize=11), y), token,
                        fontname="hebo", fontsize=11)
    heads = {page: title for title, _, page in ROWS}
    heads[8] = "Part II. Anhang"
    for n, folio in enumerate(FOLIOS, start=2):
        page = doc.new_page(width=W, height=H)
        y = 90.0
        if n in heads:
            page.insert_text((72, y), heads[n], fontname="hebo", fontsize=16)
            y += 30
        page.insert_textbox(pymupdf.Rect(72, y, W - 72, y + 200), PROSE, fontname="helv", fontsize=10)
        page.insert_text((W / 2, H - 40), folio, fontsize=9)
    doc.save(path)
    return path


def test_entries_with_lettered_page_numbers_keep_their_titles_and_are_placed_by_them(tmp_path: Path) -> None:
    result = recover_structure(PdfSource(_book(tmp_path / "book.pdf")), max_leaf_pages=0)
    assert result.source == "toc"
    got = [(e.title, e.page) for e in result.entries]
    assert got == [("1 Introduction", 2), ("2 Building the package", 4), ("3 Uploading it", 6), ("II. Anhang", 8),
                   ("Table of Figures", 9), ("Bibliography", 10), ("Index", 11)]


def test_a_lettered_page_is_left_out_of_the_title_after_leaders_or_a_space_but_not_after_a_things_name() -> None:
    line = parse_toc_line("Consolidated Financial Statements . . . . . F-1")
    assert line is not None and line.title == "Consolidated Financial Statements" and line.page is None
    line = parse_toc_line("Index A\u2013xi")
    assert line is not None and line.title == "Index" and line.page is None
    for text in ("Exhibit A-1", "Registration statement on Form S-1", "Schedule B-2"):
        line = parse_toc_line(text)
        assert line is not None and line.title == text and line.page is None
    assert parse_toc_line("Appendix C . . . . . C-12").title == "Appendix C"  # type: ignore[union-attr]
    assert parse_toc_line("VII.Anhang 401").title == "VII. Anhang"  # type: ignore[union-attr]
    assert parse_toc_line("X.Org Server 12").title == "X.Org Server"  # type: ignore[union-attr]  # a name
