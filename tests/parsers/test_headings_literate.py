"""The headings fallback on literate programs: a CWEB program's named code chunks, where each is defined, are units
with a title of their own (its outline lists them); real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

SANS = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"  # has the angle brackets and the identity sign
PROSE = "We look forward in the input stream and return the character code given by the two digits. " * 4


def _program(path: Path, chapters: list[tuple[str, list[str]]]) -> Path:
    """One page per numbered chapter (14 pt bold), then per chunk line a paragraph of 10 pt prose, the chunk line
    in 10 pt and a line of code."""
    doc = pymupdf.open()
    for n, (title, chunks) in enumerate(chapters, start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), f"{n} {title}", fontname="hebo", fontsize=14)
        y = 110
        for chunk in chunks:
            page.insert_textbox(pymupdf.Rect(72, y, 523, y + 60), PROSE, fontname="helv", fontsize=10)
            page.insert_text((72, y + 76), chunk, fontname="dejavu", fontfile=SANS, fontsize=10)
            page.insert_text((82, y + 90), "ch = read_decode_character();", fontname="cour", fontsize=10)
            y += 110
    doc.save(path)
    doc.close()
    return path


def _titles(pdf: Path) -> list[tuple[str, int]]:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return [(h.title, h.level) for h in outline_headings(detect_headings(layouts))]


def test_cweb_chunk_definitions_are_heads_below_their_section(tmp_path: Path) -> None:
    pdf = _program(tmp_path / "cweb.pdf", [
        ("Encoding", ["\u27e8Initialise Rule 1 characters 15 \u27e9\u2261", "\u27e8Initialise Rule 2 characters 16 \u27e9\u2261",
                      "\u27e8Initialise Rule 3 characters 17 \u27e9\u2261", "\u27e8Initialise Rule 4 characters 18 \u27e9\u2261"]),
        ("Decoding", ["\u27e8Decode equal sign escape 29 \u27e9\u2261", "\u27e8Initialise Rule 1 characters 15 \u27e9 +\u2261"]),
    ])
    # Chunks sharing their first word, four to a page, are not a reference listing; a continuation ("+=") is no head.
    assert _titles(pdf) == [
        ("1 Encoding", 1), ("Initialise Rule 1 characters", 2), ("Initialise Rule 2 characters", 2),
        ("Initialise Rule 3 characters", 2), ("Initialise Rule 4 characters", 2),
        ("2 Decoding", 1), ("Decode equal sign escape", 2),
    ]


def test_noweb_chunks_and_a_lone_definition_are_not_heads(tmp_path: Path) -> None:
    noweb = _program(tmp_path / "noweb.pdf", [
        ("Encoding", ["\u27e8read the input 3a\u27e9\u2261", "\u27e8write the output 3b\u27e9\u2261", "\u27e8main 4a\u27e9\u2261"]),
        ("Decoding", ["\u27e8decode 5a\u27e9\u2261"]),
    ])
    assert _titles(noweb) == [("1 Encoding", 1), ("2 Decoding", 1)]
    lone = _program(tmp_path / "lone.pdf", [("Encoding", ["\u27e8Emit encoded character 20 \u27e9\u2261"]), ("Decoding", [])])
    assert _titles(lone) == [("1 Encoding", 1), ("2 Decoding", 1)]
