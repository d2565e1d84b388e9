"""A contents that numbers the file's pages while the pages print folios that start after the unnumbered title and
contents pages (a word processor's contents counting them): the titles stand on the pages the contents gives, not on
the pages that print those numbers, and a title mentioned on the page printing its number must not draw the entry
there (an unnumbered title: no numbered heading nearby to correct it). A contents whose numbers are the folios keeps the folios' offset."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The tool reads its input files, checks them and writes a report for every one of them to the output folder. " * 3
TITLES = ["Overview", "Installing the tools", "Running the program", "Reading the output", "Known problems",
          "Getting help"]
FIRST_BODY = 3  # physical page of the first chapter: a title page and the contents come before it


def _document(path: Path, listed_as_file_pages: bool) -> Path:
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 300), "The Tool Manual", fontname="hebo", fontsize=24)
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, title in enumerate(TITLES):
        physical = FIRST_BODY + i
        number = physical if listed_as_file_pages else physical - FIRST_BODY + 1
        y = 150 + 18 * i
        toc.insert_text((72, y), f"{title} " + "." * 50, fontsize=11)
        toc.insert_text((500, y), str(number), fontsize=11)
    for i, title in enumerate(TITLES):
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 90), title, fontname="hebo", fontsize=18)
        text = PROSE
        if i == 4:  # the page printing folio 5 names the chapter the contents lists at 5
            text = "As shown in Running the program, the report names every file it read. " + PROSE
        page.insert_textbox(pymupdf.Rect(72, 110, 520, 400), text, fontsize=11)
        page.insert_text((300, 800), str(i + 1), fontsize=10)  # the folio: 1 on the first chapter's page
    doc.save(path)
    return path


def test_a_contents_numbering_the_files_pages_overrules_the_folios(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "f.pdf", listed_as_file_pages=True)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [
        (t, FIRST_BODY + i) for i, t in enumerate(TITLES)]
    assert result.decisions["toc"]["folios_not_listed"] is True


def test_a_contents_numbering_the_folios_keeps_them(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "f.pdf", listed_as_file_pages=False)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [
        (t, FIRST_BODY + i) for i, t in enumerate(TITLES)]
    assert "folios_not_listed" not in result.decisions["toc"]
