"""A list of its own on the page after the contents (LaTeX: the end of an unnumbered preface, then a bold "Examples"
and its numbered rows, "1. First Example 29", under the same "CONTENTS 5" running head the contents pages carry)
is no part of the contents: its rows come below prose and their page numbers start over, below the last one the
contents reached. Read as rows, they became sections placed past the book's end."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.toc import find_toc

PROSE = [
    "Many hands and minds have contributed to this program, in developing it as a research program, and in",
    "tuning it by others. We have enjoyed writing this book and we hope that you will enjoy reading it as well;",
    "we hope you will contribute your carefully polished and documented programs to the libraries at your site.",
]


def _dots(title: str, x0: float) -> str:
    width = pymupdf.get_text_length(title + " ", fontsize=10)
    return title + " " + ". " * int((440 - x0 - width) / pymupdf.get_text_length(". ", fontsize=10))


def _book(path: Path, prose: bool = True) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=16)
    y = 120.0
    for ch in range(1, 8):
        page.insert_text((72, y), f"{ch} Chapter number {ch}", fontname="hebo", fontsize=10)
        page.insert_text((530, y), str(6 * ch), fontname="hebo", fontsize=10)
        y += 18
        for sec in range(1, 4):
            page.insert_text((87, y), _dots(f"{ch}.{sec} Section {sec} of chapter {ch}", 87), fontsize=10)
            page.insert_text((530, y), str(6 * ch + sec), fontsize=10)
            y += 14
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 44), "CONTENTS 2", fontsize=10)
    y = 72.0
    if prose:
        for line in PROSE:
            page.insert_text((72, y), line, fontsize=10)
            y += 12
    page.insert_text((72, y + 20), "Examples", fontname="hebo", fontsize=10)
    y += 50
    rows = [("First Example", 9), ("Quitting", 10), ("End of Entry Characters", 11), ("Line Labels", 11),
            ("Labeling an Equation", 12), ("Evaluation Toggle", 13), ("Basic Use", 13), ("Expand Option", 14)]
    for i, (title, number) in enumerate(rows):  # two columns, each with its page numbers at its right edge
        x, row_y = (72, y + 12 * i) if i < 4 else (311, y + 12 * (i - 4))
        page.insert_text((x, row_y), f"{i + 1}. {title}", fontsize=10)
        page.insert_text((x + 154, row_y), str(number), fontsize=10)
    for n in range(50):
        body = doc.new_page(width=612, height=792)
        body.insert_text((300, 760), str(n + 1), fontsize=10)
    doc.save(path)
    return path


def test_a_list_below_prose_whose_numbers_start_over_is_not_read_into_the_contents(tmp_path: Path) -> None:
    src = PdfSource(str(_book(tmp_path / "book.pdf")))
    toc = find_toc(src.page_count, src.text, src.layout)
    titles = [e.title for e in toc.entries]
    assert len(titles) == 7 * 4
    assert not any("Example" in t or "Quitting" in t for t in titles)
    assert toc.entries[-1].title == "7.3 Section 3 of chapter 7"
    assert toc.pages == [1]  # the page the preface ends on is the body's
