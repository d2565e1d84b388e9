"""A contents that prints an appendix by its letter alone ("B VP3" before "B.1 VP3 Compatibility", LaTeX's and
Texinfo's contents, Theora's specification) names it by the word its page heads it with: "Appendix B VP3", not a title
opening with a stray "B". The next entry's "B.1" and the page's "Appendix B" heading are the evidence: an entry that
only opens with a capital and a space ("A Tour of the Tools"), or a letter whose page has no such heading, keeps its
title as printed."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.offsets import map_entries
from parsers.pdf import PdfSource
from parsers.toc import find_toc

ROWS = [("1 Introduction", 1), ("1.1 Scope", 1), ("2 Decoding", 2), ("2.1 Headers", 2), ("A Tour of the Tools", 3),
        ("A Ogg Encapsulation", 4), ("A.1 Overview", 4), ("B VP3", 5), ("B.1 Compatibility", 5), ("C Colophon", 6)]
PROSE = "The decoder reads the packets of the stream in the order this section describes."


def _book(path: Path, appendix_heads: bool = True) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=16)
    for k, (title, number) in enumerate(ROWS):
        page.insert_text((72, 120 + 16 * k), title, fontsize=10)
        page.insert_text((530, 120 + 16 * k), str(number), fontsize=10)
    body = {1: ["Chapter 1", "Introduction", "1.1 Scope"], 2: ["Chapter 2", "Decoding", "2.1 Headers"],
            3: ["A Tour of the Tools"], 4: ["Appendix A", "Ogg Encapsulation", "A.1 Overview"],
            5: ["Appendix B", "VP3", "B.1 Compatibility"], 6: ["Appendix C", "Colophon"]}
    for n in range(1, 7):
        page = doc.new_page(width=612, height=792)
        lines = body[n] if appendix_heads else [ln for ln in body[n] if not ln.startswith("Appendix")]
        for k, line in enumerate(lines):
            page.insert_text((72, 90 + 30 * k), line, fontsize=14 if k < 2 else 11)
        page.insert_text((72, 90 + 30 * len(lines)), PROSE, fontsize=9)
        page.insert_text((300, 760), str(n), fontsize=10)
    doc.save(path)
    return path


def _titles(path: Path) -> list[str]:
    src = PdfSource(str(path))
    toc = find_toc(src.page_count, src.text, src.layout)
    assert [e.title for e in toc.entries] == [t for t, _ in ROWS]
    map_entries(toc.entries, [src.text(n) for n in range(1, src.page_count + 1)], src.labels(), toc.pages)
    assert [e.physical for e in toc.entries] == [p + 1 for _, p in ROWS]
    return [e.title for e in toc.entries]


def test_a_lettered_appendix_headed_appendix_on_its_page_is_named_by_that_word(tmp_path: Path) -> None:
    titles = _titles(_book(tmp_path / "spec.pdf"))
    assert "Appendix A Ogg Encapsulation" in titles and "Appendix B VP3" in titles
    assert "A Tour of the Tools" in titles  # no "A.1" after it: a title, not a letter
    assert "C Colophon" in titles  # no "C.1" after it: the letter's page heading alone is not enough


def test_without_the_page_heading_the_letter_stays_as_printed(tmp_path: Path) -> None:
    titles = _titles(_book(tmp_path / "spec.pdf", appendix_heads=False))
    assert "A Ogg Encapsulation" in titles and "B VP3" in titles
