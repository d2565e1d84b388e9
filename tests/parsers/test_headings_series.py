"""Headings fallback on documents without a printed contents: manual pages bound one after the other, a figure's
labels in styles of their own, the title page's author with a footnote mark."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import sized_lines_pdf

PROSE = "The driver reads the page description and writes the printer's stream to standard output. " * 3
BODY = [("The controller keeps the pressure within range while the motor speed adapts to the demand.", 10.0)] * 8
SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "FILES", "SEE ALSO", "AUTHOR"]


def _entries(path: Path | str) -> list[tuple[int, str, int]]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    return [(e.level, e.title, e.page) for e in result.entries]


def _man_pages(path: Path, names: list[str]) -> Path:
    """groff's man output: per page "name(1) General Commands Manual name(1)" on top, the same sections in 10.9-pt
    bold under every page, 10-pt text; each manual page takes two sheets."""
    doc = pymupdf.open()
    for n in range(1, 4):  # a guide before the pages, with a head of its own repeated in every chapter
        page = doc.new_page(width=595, height=842)
        for y, head in ((100, f"{n} Chapter number {n}"), (300, "Example")):
            page.insert_text((72, y), head, fontname="tibo", fontsize=14 if y == 100 else 10.9)
            page.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 150), PROSE, fontname="tiro", fontsize=10)
    for name in names:
        for sheet, heads in enumerate((SECTIONS[:4], SECTIONS[4:])):
            page = doc.new_page(width=595, height=842)
            page.insert_text((72, 48), f"{name}(1) General Commands Manual {name}(1)", fontname="tiro", fontsize=10)
            y = 100.0
            for head in heads:
                page.insert_text((72, y), head, fontname="tibo", fontsize=10.9)
                box = pymupdf.Rect(108, y + 4, 540, y + 60)
                page.insert_textbox(box, PROSE, fontname="tiro", fontsize=10)
                y += 90
            page.insert_text((72, 790), f"{name} 0.0 2021 {sheet + 1}", fontname="tiro", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_manual_pages_bound_together_get_their_names_and_sections(tmp_path: Path) -> None:
    names = ["arm2hpdl", "ddstdecode", "foo2lava", "foo2zjs"]
    got = _entries(_man_pages(tmp_path / "man.pdf", names))
    want = [(f"{n} Chapter number {n}", n) for n in range(1, 4)]
    for i, name in enumerate(names):
        want.append((f"{name}(1)", 2 * i + 4))
        want += [(head, 2 * i + 4 + (k >= 4)) for k, head in enumerate(SECTIONS)]
    assert [(t, p) for _, t, p in got] == want
    levels = {t: lv for lv, t, _ in got}
    assert {levels[f"{name}(1)"] for name in names} == {1} and min(levels[h] for h in SECTIONS) > 1


def test_a_label_repeated_on_many_pages_is_still_not_a_section(tmp_path: Path) -> None:
    # "Example" over every code sample recurs alone, in no series with other heads: a label.
    pages = [[(f"{n} Chapter number {n}", 14.0)] + BODY[:3] + [("Example", 12.0)] + BODY[:3] for n in range(1, 7)]
    got = _entries(sized_lines_pdf(tmp_path / "e.pdf", pages))
    assert [t for _, t, _ in got] == [f"{n} Chapter number {n}" for n in range(1, 7)]


def test_a_figures_labels_in_styles_no_other_page_uses_are_not_sections(tmp_path: Path) -> None:
    pages = [[(f"{n} Chapter number {n}", 14.0)] + BODY for n in range(1, 6)]
    # A diagram drawn with its own text: "User A" at 30 pt over one box, "Globally configured" at 20 pt over another.
    gap = ("", 20.0)  # room above a large line (sized_lines_pdf spaces each line by its own size)
    pages[3] += [gap, ("User A Specifically", 30.0)] + BODY[:1] + [gap, ("Globally configured", 20.0)] + BODY[:2]
    got = _entries(sized_lines_pdf(tmp_path / "f.pdf", pages))
    assert [t for _, t, _ in got] == [f"{n} Chapter number {n}" for n in range(1, 6)]
    # Two such labels in one style on one page ("RGB TEXT", "CMYK TEXT") as well: and no Part above the chapters.
    pages[3] = [("4 Chapter number 4", 14.0)] + BODY + [gap, ("RGB TEXT", 21.0)] + BODY[:1] + [gap, ("CMYK TEXT", 21.0)]
    got = _entries(sized_lines_pdf(tmp_path / "g.pdf", pages))
    assert got == [(1, f"{n} Chapter number {n}", n) for n in range(1, 6)]


def test_the_title_pages_author_with_a_footnote_mark_is_not_a_section(tmp_path: Path) -> None:
    # "J. Wiersma†" (here "*", which the base-14 font has) reads as a head numbered "J.", and the diagrams later reuse its style.
    first = [("Examples for the Package", 20.0), ("J. Wiersma*", 14.0), ("Introduction", 14.0)] + BODY
    chapters = ["Installation", "Daily operation", "Maintenance", "Safety rules", "Troubleshooting"]
    pages = [first] + [[(title, 14.0)] + BODY for title in chapters]
    got = _entries(sized_lines_pdf(tmp_path / "a.pdf", pages))
    assert [t for _, t, _ in got] == ["Introduction"] + chapters


def test_reference_entries_named_in_their_name_section_get_that_name(tmp_path: Path) -> None:
    # DocBook's reference entries through FOP: no header line; each entry's name is only on the first line under
    # its "Name" head ("def-type \u2014 ..."), and the boilerplate heads recur under every entry.
    names = ["def-type", "def-constant", "def-struct", "deref-array"]
    assert [(t, p) for _, t, p in _entries(_reference_entries(tmp_path / "ref.pdf", names))] == [("1 Declarations", 1)] + [
        (n, i + 2) for i, n in enumerate(names)]


def test_manual_pages_in_a_book_are_headed_by_their_lower_case_names(tmp_path: Path) -> None:
    # A LaTeX guide's chapter of manual pages: "alimask - calculate ..." set larger than the text, lower-case as
    # commands are, then Synopsis, Description, Options under every page. "sequence(s)" is prose, not a call.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "1 Manual pages for the programs", fontname="tibo", fontsize=20.7)
    names = ["alimask - add a column mask to an alignment", "hmmscan - search sequence(s) against a database",
             "hmmstat - print statistics for a profile file", "phmmer - search protein sequence(s)"]
    for name in names:
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), name, fontname="tiro", fontsize=12)
        y = 150.0
        for head in ["Synopsis", "Description", "Options"]:
            page.insert_text((72, y), head, fontname="tiro", fontsize=10.9)
            page.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 100), PROSE, fontname="tiro", fontsize=10)
            y += 140
    path = tmp_path / "guide.pdf"
    doc.save(path)
    doc.close()
    assert [(t, p) for _, t, p in _entries(path)] == [("1 Manual pages for the programs", 1)] + [
        (n, i + 2) for i, n in enumerate(names)]


def test_reference_entries_headed_by_their_names_keep_their_sections(tmp_path: Path) -> None:
    # DocBook's reference entries through dblatex: each entry's name is set as a head of its own over its "Name"
    # section, two entries to a page, the recurring sections ("Name", "Synopsis", "Description", and "Since" under
    # some) in the numbered sections' style. Its outline lists the entries and their sections.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 90.0
    for head, size in (("1. Description", 17.2), ("2. Functions", 17.2), ("2.1. Initialization", 14.3),
                       ("2.2. Patterns", 14.3), ("2.3. Character sets", 14.3)):
        page.insert_text((72, y), head, fontname="hebo", fontsize=size)
        page.insert_textbox(pymupdf.Rect(72, y + 10, 540, y + 110), PROSE, fontname="tiro", fontsize=10)
        y += 130
    names = ["XyInit", "XyFini", "XyPatternCreate", "XyPatternDestroy", "XyCharSetNew", "XyCharSetFree"]
    expected: list[tuple[str, int]] = [("1. Description", 1), ("2. Functions", 1), ("2.1. Initialization", 1),
                                       ("2.2. Patterns", 1), ("2.3. Character sets", 1)]
    for i, name in enumerate(names):
        if i % 2 == 0:
            page = doc.new_page(width=612, height=792)
            y = 72.0
        page.insert_text((72, y), name, fontname="hebo", fontsize=17.2)
        expected.append((name, doc.page_count))
        sections = ["Name", "Synopsis", "Description"] + (["Since"] if i % 3 == 0 else [])
        y += 40
        for head in sections:
            page.insert_text((120, y), head, fontname="hebo", fontsize=14.3)
            text = f"{name} - does one thing to the pattern" if head == "Name" else "The call returns at once."
            page.insert_text((120, y + 20), text, fontname="tiro", fontsize=10)
            expected.append((head, doc.page_count))
            y += 40
        y += 20
    path = tmp_path / "refentries.pdf"
    doc.save(path)
    doc.close()
    assert [(t, p) for _, t, p in _entries(path)] == expected


def test_reference_entries_keep_their_names_when_one_entry_sets_a_note_twice(tmp_path: Path) -> None:
    # The same entries, many of them; an admonition "Note" is set in the heads' style under a few entries, twice
    # under one: that entry's cycle names a title twice, the series of sections still stands. A global variable's
    # name between asterisks ("*default-database*") is a name, not a stray symbol.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "1 Declarations", fontname="hebo", fontsize=20)
    page.insert_textbox(pymupdf.Rect(72, 120, 540, 400), PROSE, fontname="tiro", fontsize=10)
    names = [f"def-thing-{n}" for n in range(1, 25)]
    names[2] = "*default-database*"
    for k, name in enumerate(names):
        page = doc.new_page(width=612, height=792)
        y = 80.0
        heads = ["Name", "Syntax", "Description", "Examples"]
        if k in (4, 9, 14):
            heads = heads[:3] + ["Note"] + (["Note"] if k == 4 else []) + heads[3:]
        for head in heads:
            page.insert_text((72, y), head, fontname="hebo", fontsize=17.3)
            first = f"{name} - Defines a foreign thing." if head == "Name" else PROSE[:150]
            page.insert_textbox(pymupdf.Rect(120, y + 10, 540, y + 90), first, fontname="tiro", fontsize=10)
            y += 110
    path = tmp_path / "ref.pdf"
    doc.save(path)
    doc.close()
    got = [(t, p) for _, t, p in _entries(path)]
    assert [(t, p) for t, p in got if t not in ("Note",)] == [("1 Declarations", 1)] + [
        (n, i + 2) for i, n in enumerate(names)]


def test_a_constants_name_between_plus_signs_names_its_entry(tmp_path: Path) -> None:
    # Lisp names its constants between plus signs ("+null-cstring-pointer+"), as its global variables between
    # asterisks: the entry's name, not a line opening with a stray symbol.
    names = ["def-type", "+null-cstring-pointer+", "def-struct", "deref-array"]
    assert [(t, p) for _, t, p in _entries(_reference_entries(tmp_path / "ref.pdf", names))] == [("1 Declarations", 1)] + [
        (n, i + 2) for i, n in enumerate(names)]


def _reference_entries(path: Path, names: list[str]) -> Path:
    """DocBook's reference entries through FOP: a chapter head, then one page per entry whose name is only on the
    first line under its "Name" head ("def-type - ..."); the boilerplate heads recur under every entry."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "1 Declarations", fontname="hebo", fontsize=20)
    page.insert_textbox(pymupdf.Rect(72, 120, 540, 400), PROSE, fontname="tiro", fontsize=10)
    for name in names:
        page = doc.new_page(width=612, height=792)
        y = 90.0
        for head in ["Name", "Syntax", "Description", "Examples"]:
            page.insert_text((72, y), head, fontname="hebo", fontsize=17.3)
            first = f"{name} - Defines a foreign thing." if head == "Name" else PROSE
            page.insert_textbox(pymupdf.Rect(120, y + 10, 540, y + 100), first, fontname="tiro", fontsize=10)
            y += 130
    doc.save(path)
    doc.close()
    return path
