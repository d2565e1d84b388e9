"""The headings fallback on a head ending in a colon: a lead-in line ("The options are:") is no section, but a head
set with a space before its colon, as French typography sets one ("Synthesizers\u00a0:"), is."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The synthesizer is controlled in MIDI and its parameters are sent by the analog inputs of the board. " * 4


def test_a_head_with_a_space_before_its_colon_is_a_section(tmp_path: Path) -> None:
    doc = pymupdf.open()
    heads = ["DEMO FILES\u00a0:", "Synthesizers\u00a0:", "Effects :", "Some small functions\u00a0:"]
    for head in heads:
        page = doc.new_page(width=595, height=842)
        page.insert_text((57, 100), head, fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(57, 115, 540, 260), PROSE, fontname="tiro", fontsize=12)
        page.insert_text((57, 300), "The options are:", fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(57, 315, 540, 460), PROSE, fontname="tiro", fontsize=12)
    path = tmp_path / "readme.pdf"
    doc.save(path)
    doc.close()
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    assert [(e.title, e.page) for e in result.entries] == [(" ".join(h.split()), i + 1) for i, h in enumerate(heads)]
