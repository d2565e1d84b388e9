"""A contents that lists only its chapters, unnumbered, while the body heads their sections in a style one step below
the chapters' (DocBook's with a one-level contents): the sections become the chapters' children. A chapter whose
span holds a head at its own level that the contents does not list gets none, and when the body does not head the
listed entries the contents is kept as it is."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = ("The program reads its settings at start-up and keeps them for the session; each of them can be changed "
         "from the preferences window, which applies the new value at once. ") * 3
LISTED = [("Introduction", 2), ("Getting started", 3), ("Handling mail", 5), ("Address book", 7)]
# physical page -> (text, style) lines set on it, top to bottom; "chapter" 16 pt bold, "section" 13 pt bold
BODY = {
    2: [("Introduction", "chapter"), ("What the program is", "section"), ("What it is not", "section")],
    3: [("Getting started", "chapter"), ("The first run", "section")],
    4: [("Getting mail", "section"), ("Writing mail", "section")],
    5: [("Handling mail", "chapter"), ("Mail folders", "section")],
    6: [("Filtering", "section"), ("Searching", "section")],
    7: [("Address book", "chapter"), ("Basic management", "section")],
    8: [("Exporting addresses", "section")],
}


def _document(path: Path, chapter_size: float = 16) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (title, page) in enumerate(LISTED):
        y = 150 + 18 * i
        toc.insert_text((72, y), title + " " + "." * 60, fontsize=10)
        toc.insert_text((500, y), str(page), fontsize=10)
    for n in range(2, 9):
        page = doc.new_page(width=W, height=H)
        y = 80
        for text, style in BODY[n]:
            size = chapter_size if style == "chapter" else 13
            page.insert_text((72, y), text, fontname="hebo" if size > 10 else "helv", fontsize=size)
            page.insert_textbox(pymupdf.Rect(72, y + 15, 520, y + 140), PROSE, fontsize=10)
            y += 160
        page.insert_text((300, 800), str(n), fontsize=10)
    doc.save(path)
    return path


def test_a_one_level_contents_gets_the_sections_its_body_heads(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "c.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (1, "Introduction", 2), (2, "What the program is", 2), (2, "What it is not", 2),
        (1, "Getting started", 3), (2, "The first run", 3), (2, "Getting mail", 4), (2, "Writing mail", 4),
        (1, "Handling mail", 5), (2, "Mail folders", 5), (2, "Filtering", 6), (2, "Searching", 6),
        (1, "Address book", 7), (2, "Basic management", 7), (2, "Exporting addresses", 8)]


def test_no_sections_when_the_body_does_not_head_the_listed_entries(tmp_path: Path) -> None:
    # The chapters' titles set in body type: the headings reader's outline does not agree with the contents.
    with PdfSource(_document(tmp_path / "c.pdf", chapter_size=10)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [(1, t, p) for t, p in LISTED]
