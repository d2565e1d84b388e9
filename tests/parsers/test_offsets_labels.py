"""Printed folios become page labels when a PDF has no /PageLabels."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.offsets import printed_labels
from parsers.pipeline import index_document


def _texts() -> list[str]:
    """Cover, three roman front-matter pages, eight arabic pages; page 6 opens a chapter without a folio."""
    texts = ["A Manual\nby Someone"]
    texts += [f"Preface\nSome words of the preface.\n{r}" for r in ("i", "ii", "iii")]
    for n in range(1, 9):
        texts.append("Chapter 2\nA chapter opening page." if n == 2 else f"{n}\nManual\nBody text of page {n}.")
    return texts


def test_folios_become_labels_and_gaps_in_one_sequence_are_filled() -> None:
    labels = printed_labels([None] * 12, _texts())
    assert labels == [None, "i", "ii", "iii", "1", "2", "3", "4", "5", "6", "7", "8"]


def test_page_labels_of_the_pdf_win() -> None:
    own = ["a", "b"] + [str(n) for n in range(1, 11)]
    assert printed_labels(own, _texts()) == own


def test_a_number_without_neighbours_in_its_sequence_is_no_label() -> None:
    texts = ["Title", "Results for 2019\nRevenue grew.", "Nothing here", "Edition 3\nText"]
    assert printed_labels([None] * 4, texts) == [None] * 4


def test_indexed_pages_carry_their_printed_folio(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for text in _texts():
        page = doc.new_page()
        for i, line in enumerate(text.split("\n")):
            page.insert_text((72, 72 + 16 * i), line, fontsize=10)
    path = tmp_path / "folios.pdf"
    doc.save(path)
    pages = index_document(path, "folios").pages
    assert [p.label for p in pages] == [None, "i", "ii", "iii", "1", "2", "3", "4", "5", "6", "7", "8"]
