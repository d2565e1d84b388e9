"""A contents set ragged right, each page number a space after its title (no leaders, no number column), with a
section's subsections run into one paragraph under it ("Proteins 5 • Nucleic Acids 7 • Saccharides 9")."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

# (indent, size, text as printed); the body page of each printed page number follows the contents.
ROWS = [
    (72, 14, "1 Generalities 1"),
    (90, 11, "1.1 On Chemical Formulae 1"),
    (90, 11, "1.2 The Data Format 2"),
    (72, 14, "2 Basics in Polymer Chemistry 3"),
    (90, 11, "2.1 Polymers Everywhere 3"),
    (90, 11, "2.2 Various Biopolymer Structures 4"),
    (110, 10, "Proteins 4 \u2022 Nucleic Acids 5 \u2022 The cross-"),
    (110, 10, "linkers 6"),
    (90, 11, "2.3 To Sum Up 7"),
    (72, 14, "3 Data Customizations 8"),
]
HEADS = {1: ["1 Generalities", "1.1 On Chemical Formulae"], 2: ["1.2 The Data Format"],
         3: ["2 Basics in Polymer Chemistry", "2.1 Polymers Everywhere"], 4: ["2.2 Various Biopolymer Structures",
         "2.2.1 Proteins"], 5: ["2.2.2 Nucleic Acids"], 6: ["2.2.3 The cross-linkers"], 7: ["2.3 To Sum Up"],
         8: ["3 Data Customizations"]}


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "Contents", fontname="helv", fontsize=22)
    y = 130.0
    for x, size, text in ROWS:
        page.insert_text((x, y), text, fontname="helv", fontsize=size)
        y += 2 * size if size > 10 else 14
    for n in range(1, 9):
        body = doc.new_page(width=612, height=792)
        y = 100.0
        for head in HEADS[n]:
            body.insert_text((72, y), head, fontname="hebo", fontsize=13)
            body.insert_textbox(pymupdf.Rect(72, y + 15, 540, y + 200), "Text of the section, in prose. " * 25,
                                fontname="helv", fontsize=10)
            y += 230
        body.insert_text((300, 760), str(n), fontname="helv", fontsize=9)
    doc.save(path)
    return path


def test_a_ragged_contents_is_read_and_its_run_in_subsections_are_entries(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "r.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (1, "1 Generalities", 2), (2, "1.1 On Chemical Formulae", 2), (2, "1.2 The Data Format", 3),
        (1, "2 Basics in Polymer Chemistry", 4), (2, "2.1 Polymers Everywhere", 4),
        (2, "2.2 Various Biopolymer Structures", 5), (3, "Proteins", 5), (3, "Nucleic Acids", 6),
        (3, "The cross-linkers", 7), (2, "2.3 To Sum Up", 8), (1, "3 Data Customizations", 9)]
