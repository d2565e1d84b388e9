"""A contents older than its body: sections grew after it was printed, so each entry is found a page or two further
from its listed page than the one before it (esnacc's: 3.12 listed two pages before its heading, 3.13 three). Each
entry found near its listed page sets the offset for the entries after it; a title the contents lists twice (the C
and the C++ library both have a "Buffer management" section), which the piecewise search never trusts, is then
still found. The expected pages come from the construction below."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The routines of this part are described here, with their arguments and results, in some detail. " * 12
# (level, title, printed page, physical page): the introduction as listed (printed 1 = physical 2), then the C library
# drifting one page more at each section, the C++ library keeping the last drift.
ROWS = [
    (1, "Getting started", 1, 2), (2, "Obtaining the sources", 1, 2), (2, "Building on Unix", 2, 3),
    (2, "Building on Windows", 3, 4), (2, "Running the compiler", 4, 5), (2, "Known problems", 5, 6),
    (2, "Reporting problems", 6, 7),
    (1, "The C runtime", 7, 8), (2, "Tag encoding", 7, 8), (2, "Length fields", 9, 11),
    (2, "Buffer management", 11, 14), (2, "Error management", 13, 17),
    (1, "The C++ classes", 15, 19), (2, "Tag encoding", 15, 19), (2, "Length fields", 16, 20),
    (2, "Buffer management", 17, 21), (2, "Error management", 18, 22),
]
PAGES = 23


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=20)
    y = 120.0
    for level, title, printed, _ in ROWS:
        x = 72 if level == 1 else 90
        page.insert_text((x, y), title, fontname="hebo" if level == 1 else "helv", fontsize=11)
        dots = "." * int((480 - x - pymupdf.get_text_length(title, "helv", 11)) / 3.1)
        page.insert_text((x + pymupdf.get_text_length(title, "helv", 11) + 6, y), dots, fontname="helv", fontsize=11)
        page.insert_text((520 - pymupdf.get_text_length(str(printed), "helv", 11), y), str(printed), fontname="helv",
                         fontsize=11)
        y += 20
    heads: dict[int, list[tuple[int, str]]] = {}
    for level, title, _, physical in ROWS:
        heads.setdefault(physical, []).append((level, title))
    for n in range(2, PAGES + 1):
        body = doc.new_page(width=612, height=792)
        y = 90.0
        for level, title in heads.get(n, []):
            body.insert_text((72, y), title, fontname="hebo", fontsize=18 if level == 1 else 14)
            y += 30
        body.insert_textbox(pymupdf.Rect(72, y, 540, 720), PROSE, fontname="helv", fontsize=10)
    doc.save(path)
    return path


def test_a_contents_that_drifts_from_its_body_is_followed_entry_by_entry(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "drift.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [(title, physical) for _, title, _, physical in ROWS]
