"""DocBook's contents prints a chapter by its number and a full stop ("2. Before you begin"), while the chapter's page
heads it with the word that says what the number is, on the title's line ("Chapter 2. Before you begin"): the
author's outline names it so, and the entry takes the page's words. A LaTeX chapter, "Chapter 2" on a line of its
own above the title, leaves the entry as listed. The expected titles come from the construction below."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "This chapter explains the subject at some length, for readers new to it and for the others. " * 12
ROWS = [("1. Introduction", 1), ("What this manual covers", 1), ("2. Before you begin", 3), ("Planning", 3),
        ("3. Installing the system with the graphical installer", 5), ("A. Revision history", 7)]


def _book(path: Path, heads: dict[int, list[str]]) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Table of Contents", fontname="hebo", fontsize=20)
    y = 120.0
    for title, printed in ROWS:
        x = 90 if title[0].isalpha() and title[1] != "." else 72
        width = pymupdf.get_text_length(title, "helv", 11)
        page.insert_text((x, y), title + " " + "." * int((470 - x - width) / 3.1), fontname="helv", fontsize=11)
        page.insert_text((520 - pymupdf.get_text_length(str(printed), "helv", 11), y), str(printed), fontname="helv",
                         fontsize=11)
        y += 20
    for n in range(1, 9):
        body = doc.new_page(width=612, height=792)
        y = 90.0
        for line in heads.get(n, []):
            body.insert_text((72, y), line, fontname="hebo", fontsize=16)
            y += 26
        body.insert_textbox(pymupdf.Rect(72, y + 10, 540, 700), PROSE, fontname="helv", fontsize=10)
        body.insert_text((300, 760), str(n), fontname="helv", fontsize=9)
    doc.save(path)
    return path


def _titles(path: Path) -> list[str]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    return [e.title for e in result.entries]


def test_a_chapter_takes_the_word_its_page_heads_it_with(tmp_path: Path) -> None:
    heads = {1: ["Chapter 1. Introduction", "What this manual covers"], 3: ["Chapter 2. Before you begin", "Planning"],
             5: ["Chapter 3. Installing the system with the", "graphical installer"], 7: ["Appendix A. Revision history"]}
    assert _titles(_book(tmp_path / "docbook.pdf", heads)) == [
        "Chapter 1. Introduction", "What this manual covers", "Chapter 2. Before you begin", "Planning",
        "Chapter 3. Installing the system with the graphical installer", "Appendix A. Revision history"]


def test_a_chapter_number_on_a_line_of_its_own_leaves_the_entry_as_listed(tmp_path: Path) -> None:
    heads = {1: ["Chapter 1", "Introduction", "What this manual covers"], 3: ["Chapter 2", "Before you begin",
             "Planning"], 5: ["Chapter 3", "Installing the system with the graphical installer"],
             7: ["Appendix A", "Revision history"]}
    assert _titles(_book(tmp_path / "latex.pdf", heads)) == [title for title, _ in ROWS]
