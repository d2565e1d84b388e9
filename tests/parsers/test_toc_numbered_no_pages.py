"""A contents printed as numbered titles without page numbers (an HTML manual's generated contents printed to PDF:
"1 Preface" over "1.1 Introduction"): read under its contents heading, rows running into the page's margins included,
levels from the numbers, each title placed on the first page after the one before it that heads it with its number
(a section title two chapters share, "Introduction", is told apart by its number). A contents heading over a numbered
list of steps (no number below the chapters) is no contents."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The tool reads its input files and writes the results next to them; options change the defaults. " * 5

TREE = [(1, "1 Getting Started"), (2, "1.1 Introduction"), (2, "1.2 Installing"), (1, "2 Usage"),
        (2, "2.1 Introduction"), (2, "2.2 Options"), (1, "3 Reference"), (2, "3.1 Commands"), (2, "3.2 Files")]
STEPS = ["1 Unpack the archive", "2 Run the installer", "3 Open the settings", "4 Choose a folder", "5 Save them",
         "6 Restart the tool", "7 Check the log"]
ON_FIRST = 6  # contents rows on the first page; the rest run into the second page's top margin


def _document(path: Path, rows: list[str]) -> Path:
    doc = pymupdf.open()
    first = doc.new_page(width=W, height=H)
    first.insert_text((72, 140), "Table of Contents", fontname="hebo", fontsize=20)
    for i, title in enumerate(rows[:ON_FIRST]):
        first.insert_text((72 + 24 * title.split()[0].count("."), 200 + 14 * i), title, fontsize=9)
    second = doc.new_page(width=W, height=H)
    second.insert_text((250, 30), "Tool Manual", fontsize=9)  # the running head
    for i, title in enumerate(rows[ON_FIRST:]):
        second.insert_text((72 + 24 * title.split()[0].count("."), 50 + 14 * i), title, fontsize=9)
    for n, (level, title) in enumerate(TREE):
        page = doc.new_page(width=W, height=H)
        # Every page names the introduction in passing: only the numbered heading tells which one is where.
        page.insert_textbox(pymupdf.Rect(72, 60, 520, 120), f"Read the introduction first. {PROSE}", fontsize=11)
        page.insert_text((72, 160), title, fontname="hebo", fontsize=20 if level == 1 else 14)
        page.insert_textbox(pymupdf.Rect(72, 180, 520, 700), PROSE, fontsize=11)
        page.insert_text((300, 810), str(n + 1), fontsize=9)
    doc.save(path)
    return path


def test_a_numbered_contents_without_page_numbers_is_read(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "n.pdf", [t for _, t in TREE])) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (level, title, i + 3) for i, (level, title) in enumerate(TREE)]


def test_a_contents_heading_over_numbered_steps_is_no_contents(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "s.pdf", STEPS)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source != "toc"
