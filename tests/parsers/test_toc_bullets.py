"""A contents printed as a bulleted list of titles without page numbers (a web page's contents printed to PDF): read
under its "Table of Contents" heading, levels from the bullets' indents, each title placed on the first page after
the one before it that sets the title as a line of its own. A title that reads as a roman number ("X Resources") is
no numbering: it takes its siblings' level."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The canvas shows the figure being drawn; objects are picked with the mouse and edited in place. " * 5

TREE = [(1, "Introduction"), (2, "Starting the editor"), (2, "Display Windows"), (1, "Main Menus"), (2, "File menu"),
        (2, "X Resources"), (1, "Drawing Objects"), (2, "Circles and Ellipses"), (1, "Credits")]


def _document(path: Path, listing: bool = True) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 140), "Table of Contents", fontname="hebo", fontsize=20)
    if listing:
        for i, (level, title) in enumerate(TREE):
            toc.insert_text((100 if level == 1 else 133, 200 + 14 * i), f"\u2022 {title}", fontsize=11)
    else:
        toc.insert_textbox(pymupdf.Rect(72, 180, 520, 700), PROSE, fontsize=11)
    for level, title in TREE:
        page = doc.new_page(width=W, height=H)
        # Every page mentions the next section in passing: placement wants the title as a line of its own.
        page.insert_textbox(pymupdf.Rect(72, 60, 520, 120), f"See also the introduction and main menus. {PROSE}",
                            fontsize=11)
        page.insert_text((72, 160), title, fontname="hebo", fontsize=20 if level == 1 else 14)
        page.insert_textbox(pymupdf.Rect(72, 180, 520, 700), PROSE, fontsize=11)
    doc.save(path)
    return path


def test_a_bulleted_contents_without_page_numbers_is_read(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "b.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert result.decisions["toc"]["bulleted"] is True
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (level, title, i + 2) for i, (level, title) in enumerate(TREE)]


def test_a_contents_heading_over_prose_is_no_bulleted_contents(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "p.pdf", listing=False)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source != "toc"
