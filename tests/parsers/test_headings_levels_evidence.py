"""Headings fallback on manuals without a printed contents: a head's level and its keeping from the document's own
evidence, its label, its type and its place, not its number alone: a chapter's title under its label ("CHAPTER" /
"ONE" over "START HERE:"), a reference whose entries each open a page under a lower-case name ("db close"), and
a list's or a question's count ("A) Only to the log file:", "Q. Why?") set smaller than the numbered sections."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The pipeline reads each input file once and writes one output file for every job it runs in parallel."


def _entries(path: Path) -> list[tuple[int, str, int]]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    return [(e.level, e.title, e.page) for e in result.entries]


def _text(page: pymupdf.Page, y: float, lines: int = 4) -> float:
    for _ in range(lines):
        page.insert_text((72, y), PROSE, fontname="tiro", fontsize=10)
        y += 12
    return y + 16


def _sphinx(path: Path) -> Path:
    """A Sphinx manual: each chapter opens a page under its label ("CHAPTER" / "ONE") with a title in capitals
    ending in a colon, as its author wrote it; sections "1.1", subsections "1.1.1" set smaller; under one
    subsection a bold list at the body's size lettered "A)", "B)", "C)"."""
    doc = pymupdf.open()
    for c, (word, title) in enumerate([("ONE", "START HERE:"), ("TWO", "OVERVIEW:"), ("THREE", "REFERENCE:")], 1):
        for s in (1, 2):
            page = doc.new_page(width=612, height=792)
            y = 100.0
            if s == 1:
                page.insert_text((480, 93), "CHAPTER", fontname="hebo", fontsize=10)
                page.insert_text((490, 113), word, fontname="hebo", fontsize=14.3)
                page.insert_text((430, 168), title, fontname="hebo", fontsize=14.3)
                y = 232.0
            page.insert_text((72, y), f"{c}.{s} Section {c}.{s} of the guide", fontname="hebo", fontsize=14.3)
            y = _text(page, y + 30)
            for k in (1, 2):
                page.insert_text((72, y), f"{c}.{s}.{k} Subsection {k} on its own", fontname="hebo", fontsize=12)
                y = _text(page, y + 24)
                if (c, s, k) == (1, 2, 1):
                    for item in ("A) Only to the log file", "B) Only to the display", "C) To both at once"):
                        page.insert_text((72, y), item, fontname="hebo", fontsize=10)
                        y = _text(page, y + 18, 2)
            page.insert_text((520, 750), str(len(doc)), fontname="hebo", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_a_title_under_its_chapters_label_is_a_chapter_whatever_it_ends_in(tmp_path: Path) -> None:
    got = _entries(_sphinx(tmp_path / "sphinx.pdf"))
    chapters = [(lv, t, p) for lv, t, p in got if lv == 1]
    # A colon ends a lead-in ("The options are:"), but not the title a chapter's label stands over.
    assert chapters == [(1, "START HERE:", 1), (1, "OVERVIEW:", 3), (1, "REFERENCE:", 5)], got
    assert (2, "1.1 Section 1.1 of the guide", 1) in got and (3, "1.1.1 Subsection 1 on its own", 1) in got


def test_a_count_set_smaller_than_the_sections_is_placed_under_them(tmp_path: Path) -> None:
    path = _sphinx(tmp_path / "sphinx.pdf")
    with PdfSource(path) as pdf:
        layouts = [pdf.layout(n) for n in range(1, pdf.page_count + 1)]
        heads = outline_headings(detect_headings(layouts))
    levels = {h.title: h.level for h in heads}
    # "A)" numbers a list at the body's size in a document whose "1.2.1" heads are set at 12 pt: it stands under
    # "1.2.1", not above the chapters (where its number alone would put it, taking the sections after it along).
    assert levels["A) Only to the log file"] == levels["1.2.1 Subsection 1 on its own"] + 1, levels
    assert levels["1.2.2 Subsection 2 on its own"] == 3 and levels["2.1 Section 2.1 of the guide"] == 2, levels


def _reference(path: Path) -> Path:
    """A reference manual: a chapter, an overview section, then one page per command, each opened under the
    running head by the command's name in the sections' type, in lower case ("db close"), as DocBook's reference
    pages set them."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 99), "Chapter 1. Database Commands", fontname="hebo", fontsize=18)
    _text(page, 140)
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 72), "Library Version 11.2 Database Commands", fontname="tiit", fontsize=9)
    page.insert_text((50, 99), "Command Overview", fontname="hebo", fontsize=14.4)
    _text(page, 140)
    names = ["db close", "db count", "db cursor", "db del", "db get", "db put", "db stat", "db sync"]
    for name in names:
        page = doc.new_page(width=612, height=792)
        page.insert_text((50, 72), "Library Version 11.2 Database Commands", fontname="tiit", fontsize=9)
        page.insert_text((50, 99), name, fontname="hebo", fontsize=14.4)
        page.insert_text((140, 123), f"{name} [-flags]", fontname="cour", fontsize=10)
        _text(page, 157, 6)
    page = doc.new_page(width=612, height=792)
    page.insert_text((50, 99), "Appendix A. Further Reading", fontname="hebo", fontsize=14.4)
    _text(page, 140)
    doc.save(path)
    doc.close()
    return path


def test_lower_case_names_opening_page_after_page_at_one_height_are_the_references_entries(tmp_path: Path) -> None:
    got = [t for _, t, _ in _entries(_reference(tmp_path / "reference.pdf"))]
    # A larger line opening lower-case reads as a paragraph going on, unless the document sets three heads of its
    # style otherwise; here two are, and the names open their pages, one to a page, at one height.
    for name in ("db close", "db count", "db cursor", "db put", "db sync"):
        assert name in got, got


def _docbook(path: Path) -> Path:
    """A DocBook guide: chapters labelled "Chapter N.", sections numbered with a trailing dot ("2.1.", "2.1.1."),
    then a licence printed as an appendix, its clauses numbered from 0 again ("0. PREAMBLE", "1. APPLICABILITY")."""
    doc = pymupdf.open()
    for c in (1, 2, 3):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), f"Chapter {c}. Topic {c}", fontname="hebo", fontsize=20)
        y = _text(page, 140)
        for s in (1, 2):
            page.insert_text((72, y), f"{c}.{s}. Section {s} of topic {c}", fontname="hebo", fontsize=14)
            y = _text(page, y + 24)
            page.insert_text((72, y), f"{c}.{s}.1. A detail of section {s}", fontname="hebo", fontsize=12)
            y = _text(page, y + 20, 3)
    for sheet in range(2):
        page = doc.new_page(width=612, height=792)
        y = 100.0
        if sheet == 0:
            page.insert_text((72, y), "Appendix A. GNU Free Documentation License", fontname="hebo", fontsize=20)
            y = _text(page, 140, 2)
        for n in range(3 * sheet, 3 * sheet + 3):
            page.insert_text((72, y), f"{n}. CLAUSE NUMBER {n}", fontname="hebo", fontsize=14)
            y = _text(page, y + 22, 5)
    doc.save(path)
    doc.close()
    return path


def test_a_licences_clauses_after_a_dotted_numbering_are_its_list_not_chapters(tmp_path: Path) -> None:
    got = [t for _, t, _ in _entries(_docbook(tmp_path / "docbook.pdf"))]
    # The document numbers its sections "2.1." (a trailing dot, as the clauses do) and labels its chapters: the
    # clauses counting from 0 again after its last section are the licence's list.
    assert "Appendix A. GNU Free Documentation License" in got and "3.2. Section 2 of topic 3" in got, got
    assert not any(t.startswith(("0. CLAUSE", "1. CLAUSE", "4. CLAUSE")) for t in got), got


def _attributes(path: Path) -> Path:
    """A reference of attributes, one to a page: each name centred in bold ("Adaptive"), right under it in its
    style what the attribute is ("Should the area adapt to changes in the coordinate system?"), then the text."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Attribute Descriptions", fontname="hebo", fontsize=20)
    _text(page, 140)
    entries = [("Adaptive", "Should the area adapt to changes in the coordinate system?"),
               ("AlignOffset", "Align frames using the offset coordinate system?"),
               ("Closed", "Should the boundary be considered to be inside the region?"),
               ("Digits", "Number of digits of precision to use when formatting values"),
               ("Epoch", "The epoch of the observation that the coordinates refer to"),
               ("Controller", "(Principal Accounting Officer of the Company)")]
    for name, what in entries:
        page = doc.new_page(width=612, height=792)
        for text, y in ((name, 121), (what, 139)):
            width = pymupdf.get_text_length(text, fontname="tibo", fontsize=14.3)
            page.insert_text(((612 - width) / 2, y), text, fontname="tibo", fontsize=14.3)
        _text(page, 190, 8)
    doc.save(path)
    doc.close()
    return path


def test_a_one_word_name_over_a_longer_line_in_its_style_is_the_whole_head(tmp_path: Path) -> None:
    got = [t for _, t, _ in _entries(_attributes(tmp_path / "attributes.pdf"))]
    # "Should" would have fitted beside "Adaptive": the line under it is no second line of the head but what the
    # attribute is, as the outline names the entry by the attribute alone.
    # A line opening with a bracket goes on with the head ("Controller" over "(Principal Accounting Officer ...)").
    assert got[-6:] == ["Adaptive", "AlignOffset", "Closed", "Digits", "Epoch",
                        "Controller (Principal Accounting Officer of the Company)"], got
