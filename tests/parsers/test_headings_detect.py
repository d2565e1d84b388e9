"""Headings from font statistics (parsers.headings) and the headings fallback of the chain."""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from parsers.headings import detect_headings
from parsers.pdf import PdfSource
from parsers.structure import recover_structure

WORDS = "the pump controller keeps pressure within range while the motor speed adapts to demand".split()


def _doc(path: Path) -> list[tuple[int, str, int]]:
    """Pages with a running header, 18 pt chapters, 13 pt sections and 10 pt body; returns (level, title, page)."""
    rng = random.Random(5)
    plan = [(1, "Introduction", [(2, "Scope of this guide"), (2, "Conventions")]),
            (1, "Installation", [(2, "Mounting"), (2, "Electrical connections")]),
            (1, "Operation", [(2, "Start-up"), (2, "Shutdown")])]
    doc = pymupdf.open()
    want = []
    for _, chapter, sections in plan:
        page = doc.new_page()
        page.insert_text((72, 40), "AquaFlow Handbook   Revision 3", fontsize=8)
        page.insert_text((72, 100), chapter, fontname="hebo", fontsize=18)
        want.append((1, chapter, doc.page_count))
        y = 130
        for title, in [(s[1],) for s in sections]:
            page.insert_text((72, y), title, fontname="hebo", fontsize=13)
            want.append((2, title, doc.page_count))
            y += 22
            for _ in range(6):
                page.insert_text((72, y), " ".join(rng.choice(WORDS) for _ in range(14)), fontsize=10)
                y += 13
            y += 16
        page.insert_text((300, 760), str(doc.page_count), fontsize=9)
    doc.save(path)
    return want


def test_headings_levels_and_running_header_excluded(tmp_path: Path) -> None:
    want = _doc(tmp_path / "h.pdf")
    with PdfSource(tmp_path / "h.pdf") as pdf:
        heads = detect_headings([pdf.layout(n) for n in range(1, pdf.page_count + 1)])
    assert [(h.level, h.title, h.page) for h in heads] == want


def test_chain_falls_back_to_headings_without_model_calls(tmp_path: Path) -> None:
    want = _doc(tmp_path / "h.pdf")
    calls = []

    def hook(pdf):  # the LLM seam must not be reached when headings give a structure
        calls.append(1)
        return [], {}

    with PdfSource(tmp_path / "h.pdf") as pdf:
        result = recover_structure(pdf, llm_hook=hook, max_leaf_pages=10)
    assert result.source == "headings"
    assert [(e.level, e.title, e.page) for e in result.entries] == want
    assert calls == []


def test_llm_hook_is_called_only_when_nothing_else_works(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_text((72, 100), "plain body text without any structure at all", fontsize=10)
    doc.save(tmp_path / "p.pdf")
    from parsers.ranges import Entry

    def hook(pdf):
        return [Entry(1, "Found by a model", 2)], {"calls": 1}

    with PdfSource(tmp_path / "p.pdf") as pdf:
        result = recover_structure(pdf, llm_hook=hook, max_leaf_pages=10)
        plain = recover_structure(pdf, max_leaf_pages=10)
    assert result.source == "llm" and result.entries == [Entry(1, "Found by a model", 2)]
    assert plain.source == "pages" and plain.entries == []


def test_filing_note_headings_top_of_page_wrapped_and_fragments(tmp_path: Path) -> None:
    """Notes to financial statements: 12 pt bold "Note N" heads, one at the very top of a page, one wrapped in
    a narrow column (second line lower-case), one short numbered head directly above a subheading; a table
    column head ending in "/" is not a heading."""
    rng = random.Random(7)
    doc = pymupdf.open()

    def body(page: pymupdf.Page, y: float, lines: int = 8) -> None:
        for _ in range(lines):
            page.insert_text((72, y), " ".join(rng.choice(WORDS) for _ in range(12)), fontsize=10)
            y += 13

    p1 = doc.new_page()
    p1.insert_text((72, 45), "Note 2 - Fair value measurement", fontname="hebo", fontsize=12)  # inside the top band
    body(p1, 80)
    p1.insert_text((72, 300), "Note 3 - Off-balance sheet lending-related", fontname="hebo", fontsize=12)
    p1.insert_text((72, 314), "financial instruments and guarantees", fontname="hebo", fontsize=12)
    body(p1, 340)
    p2 = doc.new_page()
    p2.insert_text((72, 100), "Note 4. Acquisitions", fontname="hebo", fontsize=12)
    p2.insert_text((72, 114), "Spectrum License Transactions", fontname="hebo", fontsize=12)
    body(p2, 140)
    p2.insert_text((300, 300), "Increase /", fontname="hebo", fontsize=12)
    body(p2, 320)
    doc.save(tmp_path / "notes.pdf")
    with PdfSource(tmp_path / "notes.pdf") as pdf:
        heads = detect_headings([pdf.layout(n) for n in (1, 2)], strong_only=False)
    assert [(h.title, h.page) for h in heads] == [
        ("Note 2 - Fair value measurement", 1),
        ("Note 3 - Off-balance sheet lending-related financial instruments and guarantees", 1),
        ("Note 4. Acquisitions", 2), ("Spectrum License Transactions", 2)]


def test_a_body_size_reported_with_jitter_is_one_size() -> None:
    # The body is 10 pt, reported as 9.9 / 10.0 / 10.1; a 9-pt abstract is set uniformly and outweighs each of
    # those bins alone. Body lines must not read as "set larger than the body".
    from parsers.headings import body_size
    from parsers.layout import Line, PageLayout

    sentence = "the paragraph goes on with ordinary words of the body text"
    lines = [Line(sentence, 72, 100 + 12 * i, 500, 110 + 12 * i, 9.0) for i in range(10)]
    lines += [Line(sentence, 72, 300 + 12 * i, 500, 310 + 12 * i, (9.9, 10.0, 10.1)[i % 3]) for i in range(24)]
    lines.append(Line("2 Usage", 72, 620, 200, 634, 12.0, True))
    lay = PageLayout(1, 612, 792, lines=lines)
    assert body_size([lay]) == 10.0
    assert [h.title for h in detect_headings([lay])] == ["2 Usage"]
