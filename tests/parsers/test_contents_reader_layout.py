"""Where a contents listing starts and how its wrapped titles join, on layouts the reader met in real manuals.

A LaTeX article-like class sets the contents under the title block and the abstract, so its first rows are at the foot
of page 1 and the listing goes on overleaf; and some fonts give a line a box of their x-height only, so the ordinary
gap to a wrapped title's second line looked like the space between two entries.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.layout import Line, PageLayout
from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import find_toc, read_page_entries
from tests.pdfs import contents_book

W, H = 612, 792
PROSE = "The package typesets critical editions with numbered lines and notes keyed to them, as described below. "
FIRST_ROWS = [("1 Introduction", "1"), ("1.1 Aim of the package", "1"), ("1.2 History", "2")]
NEXT_ROWS = [("2 Installation", "3"), ("2.1 Requirements", "3"), ("2.2 Building from source", "4"), ("3 Usage", "5"),
             ("3.1 Options", "5"), ("3.2 Examples", "6"), ("4 Reference", "7")]


def _rows(page: pymupdf.Page, rows: list[tuple[str, str]], top: float) -> None:
    for i, (title, num) in enumerate(rows):
        y = top + 16 * i
        page.insert_text((72, y), title, fontsize=11)
        page.insert_text((320, y), " ." * 45, fontsize=11)
        page.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)


def _article(path: Path) -> Path:
    """Page 1: title, author, a long abstract, then "Contents" and its first rows; page 2 the rest of the listing;
    then one page per printed page 1..7, each with its folio and the heads the contents lists for it."""
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((200, 90), "reledit", fontname="hebo", fontsize=20)
    page.insert_text((200, 120), "Typeset scholarly editions", fontsize=12)
    page.insert_text((250, 145), "A. N. Author", fontsize=11)
    page.insert_text((280, 175), "Abstract", fontname="hebo", fontsize=11)
    page.insert_textbox(pymupdf.Rect(90, 185, 522, 560), PROSE * 9, fontsize=10)
    page.insert_text((72, 600), "Contents", fontname="hebo", fontsize=14)
    _rows(page, FIRST_ROWS, 630)
    _rows(doc.new_page(width=W, height=H), NEXT_ROWS, 90)
    heads: dict[int, list[str]] = {}
    for title, num in FIRST_ROWS + NEXT_ROWS:
        heads.setdefault(int(num), []).append(title)
    for printed in range(1, 8):
        p = doc.new_page(width=W, height=H)
        y = 90.0
        for head in heads.get(printed, []):
            p.insert_text((72, y), head, fontname="hebo", fontsize=14)
            p.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 150), PROSE * 3, fontsize=10)
            y += 170
        if not heads.get(printed):
            p.insert_textbox(pymupdf.Rect(72, 90, 540, 700), PROSE * 12, fontsize=10)
        p.insert_text((W / 2, H - 40), str(printed), fontsize=9)
    doc.save(path)
    return path


def test_a_contents_begun_under_the_abstract_keeps_its_first_rows(tmp_path: Path) -> None:
    with PdfSource(_article(tmp_path / "a.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert result.decisions["toc"]["pages"] == [1, 2]
    # printed page n is physical page n + 2 (the title page and the listing's second page come first)
    assert [(e.title, e.page) for e in result.entries] == [(t, int(n) + 2) for t, n in FIRST_ROWS + NEXT_ROWS]
    assert [e.level for e in result.entries] == [1, 2, 2, 1, 2, 2, 1, 2, 2, 1]


def test_a_wrapped_title_joins_when_its_lines_have_x_height_boxes() -> None:
    # Lines as MuPDF gives them for such a font: 10-pt text in boxes 4.6 pt high, baselines 12 pt apart; the
    # title's second line is indented under it and ends in the page number.
    lines = [Line("II.11 Prepare the parallel texts . . . . . . . 90", 185.6, 436.5, 524.3, 441.1, size=10.0),
             Line("II.12 Booleans provided by other optional packages which are required in any", 185.6, 450.0,
                  498.9, 454.6, size=10.0),
             Line("case . . . . . . . . . . . . . . . . . . . . . . . . . . . 90", 208.5, 462.0, 524.3, 466.5,
                  size=10.0),
             Line("III Sectioning commands 91", 170.6, 481.3, 524.3, 490.7, size=10.0)]
    page = PageLayout(6, 612, 792, lines=lines)
    got = [(r.parsed.title, r.parsed.page.value if r.parsed.page else None) for r in read_page_entries(page)]
    assert got == [("II.11 Prepare the parallel texts", 90),
                   ("II.12 Booleans provided by other optional packages which are required in any case", 90),
                   ("III Sectioning commands", 91)]


def test_a_chapter_s_own_listing_deep_in_the_book_is_not_the_contents(tmp_path: Path) -> None:
    # The same listing under prose on page 6, a chapter's own contents in a book that prints none up front: only a
    # document's first pages open with a title block and an abstract.
    doc = pymupdf.open()
    for n in range(1, 9):
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 90), f"{n} Chapter {n}", fontname="hebo", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 110, 540, 560), PROSE * 8, fontsize=10)
        if n == 6:
            page.insert_text((72, 600), "Contents", fontname="hebo", fontsize=14)
            _rows(page, FIRST_ROWS, 630)
        page.insert_text((W / 2, H - 40), str(n), fontsize=9)
    doc.save(tmp_path / "c.pdf")
    with PdfSource(tmp_path / "c.pdf") as pdf:
        assert find_toc(pdf.page_count, pdf.text, pdf.layout).entries == []


def test_a_chapter_number_glued_to_its_title_is_split_off_when_it_is_the_next_chapter(tmp_path: Path) -> None:
    # "11Index": the number's box overflowed into the title's and the text layer lost the space between them.
    rows = [("1 Basics", "1"), ("1.1 Setup", "1"), ("2 Usage", "2"), ("3Index", "3"), ("7Zip archives", "4")]
    with PdfSource(contents_book(tmp_path / "g.pdf", rows, [["!1 Basics", "!1.1 Setup"], ["!2 Usage"], ["!Index"],
                                                              ["!7Zip archives"]])) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert [(e.title, e.level) for e in toc.entries] == [
        ("1 Basics", 1), ("1.1 Setup", 2), ("2 Usage", 1), ("3 Index", 1), ("7Zip archives", 1)]


def test_a_section_number_ending_in_a_dot_glued_to_its_title_is_split_off(tmp_path: Path) -> None:
    # babel's Spanish numbers sections "3.14." and an overflowing number box loses the space: "3.14.LinkedList".
    rows = [("1. Basics", "1"), ("1.1. Setup", "1"), ("1.2.LinkedList", "2"), ("1.2.1.Requirements", "2"),
            ("2. Usage", "3"), ("3.Index", "4")]
    with PdfSource(contents_book(tmp_path / "d.pdf", rows, [["!1. Basics", "!1.1. Setup"],
                                                              ["!1.2. LinkedList", "!1.2.1. Requirements"],
                                                              ["!2. Usage"], ["!3. Index"]])) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert [(e.numbering.label if e.numbering else None, e.level) for e in toc.entries] == [
        ("1", 1), ("1.1", 2), ("1.2", 2), ("1.2.1", 3), ("2", 1), ("3", 1)]
    assert [e.numbering.rest for e in toc.entries] == ["Basics", "Setup", "LinkedList", "Requirements", "Usage", "Index"]
