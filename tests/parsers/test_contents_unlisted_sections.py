"""A contents that lists a preface by its title alone while the body heads the preface's sections "1 Audience",
"2 History" at the size of the preface's own title (DocBook's dblatex): they become the preface's children. A numbered
list set in body type is no section (nor under a title set in body type), and a licence whose clauses run "0. Definitions.", "1. Source Code." at heading
size is left alone."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "This manual describes the program, how to install it and how to use it on your own data sets. " * 4
LISTED = [("Preface", 2), ("1 Setup", 5), ("1.1 Install", 5), ("2 Usage", 6), ("Licence", 7), ("Printing", 9)]
# physical page -> (text, size) lines set on it, top to bottom
BODY = {
    2: [("Preface", 18), ("1 Audience", 18)],
    3: [("2 History", 18)],
    4: [("1 Open the box", 11), ("2 Read the leaflet", 11), ("3 Audience notes", 18)],
    5: [("1 Setup", 18), ("1.1 Install", 14)],
    6: [("2 Usage", 18)],
    7: [("Licence", 18), ("0. Definitions.", 18)],
    8: [("1. Source Code.", 18), ("2. Basic Permissions.", 18)],
    # A title set in body type over a numbered list in body type: no sections.
    9: [("Printing", 11), ("1 Open the printer dialog", 11), ("2 Choose a printer", 11)],
}


def _document(path: Path) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (title, page) in enumerate(LISTED):
        y = 150 + 18 * i
        toc.insert_text((96 if title[:3].count(".") else 72, y), title, fontsize=11)
        toc.insert_text((500, y), str(page), fontsize=11)
    for n in range(2, 10):
        page = doc.new_page(width=W, height=H)
        y = 80
        for text, size in BODY[n]:
            page.insert_text((72, y), text, fontname="hebo" if size > 11 else "helv", fontsize=size)
            page.insert_textbox(pymupdf.Rect(72, y + 15, 520, y + 140), PROSE, fontsize=11)
            y += 160
        page.insert_text((300, 800), str(n), fontsize=10)
    doc.save(path)
    return path


def test_a_prefaces_numbered_sections_are_its_children(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "u.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (1, "Preface", 2), (2, "1 Audience", 2), (2, "2 History", 3), (2, "3 Audience notes", 4), (1, "1 Setup", 5),
        (2, "1.1 Install", 5), (1, "2 Usage", 6), (1, "Licence", 7), (1, "Printing", 9)]
