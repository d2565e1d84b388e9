"""The headings fallback on a generated book of examples (Prawn's manual): every page headed at its very top, in the
header band, by a chapter title or the example's source file ("basic_concepts/creation.rb"), which the outline names
by the file ("Creation"); large type further down a page is an example's output, not a head."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "This example shows how the document is built and where its origin lies on the page for every box. " * 3
CODE = ["pdf = Prawn::Document.new", "pdf.text 'Hello World'", "pdf.render_file 'hello.pdf'"]
BOOK = {"Basic concepts": ["creation", "origin", "other_cursor_helpers", "adding_pages"],
        "Graphics": ["lines_and_curves", "polygons", "fill_and_stroke"],
        "Text": ["free_flowing_text", "font_size", "inline_formatting"]}


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    for chapter, files in BOOK.items():
        page = doc.new_page(width=612, height=936)
        page.insert_text((66, 55), chapter, fontname="helv", fontsize=24)
        page.insert_textbox(pymupdf.Rect(66, 110, 546, 300), PROSE, fontname="tiro", fontsize=11)
        for k, name in enumerate(files):
            page = doc.new_page(width=612, height=936)
            page.insert_text((66, 55), f"{chapter.split()[-1].lower()}/{name}.rb", fontname="helv", fontsize=18)
            page.insert_textbox(pymupdf.Rect(66, 110, 546, 300), PROSE, fontname="tiro", fontsize=11)
            for i, line in enumerate(CODE):
                page.insert_text((76, 330 + 12 * i), line, fontname="cour", fontsize=9.5)
            if k == 1:  # the example's output: text set large, as the example asks
                page.insert_text((66, 450), "Yeah, something bigger", fontname="tiro", fontsize=30)
                page.insert_text((66, 520), "Even bigger", fontname="tiro", fontsize=40)
    doc.save(path)
    doc.close()
    return path


def test_a_book_headed_at_the_top_of_its_pages_is_outlined_by_those_heads(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "manual.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    expected: list[tuple[str, int]] = []
    page = 1
    for chapter, files in BOOK.items():
        expected.append((chapter, page))
        for name in files:
            page += 1
            words = name.replace("_", " ")
            expected.append((words[:1].upper() + words[1:], page))
        page += 1
    assert [(e.title, e.page) for e in result.entries] == expected
