"""Headings fallback on manuals without a printed contents, each head weighed against how the document sets its
other heads: bold run-in heads set like the document's whole-line heads (CWEB), display letters of a Texinfo index,
a contents printed at the back, the title set again there, code lines set bold."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The encoder reads the input stream one byte at a time and writes quoted characters to the output."


def _entries(path: Path) -> list[tuple[int, str, int]]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    return [(e.level, e.title, e.page) for e in result.entries]


def _paragraph(page: pymupdf.Page, y: float, number: int, title: str | None, lines: int = 3) -> float:
    """A numbered paragraph as CWEB sets it: "N." (and the title, bold, for a starred one), roman text running on."""
    head = f"{number}. {title}." if title else f"{number}."
    page.insert_text((72, y), head, fontname="tibo", fontsize=10)
    width = pymupdf.get_text_length(head, fontname="tibo", fontsize=10) + 10  # a quad after it, as TeX sets one
    page.insert_text((72 + width, y), PROSE[:60], fontname="tiro", fontsize=10)
    for _ in range(lines - 1):
        y += 12
        page.insert_text((72, y), PROSE, fontname="tiro", fontsize=10)
    return y + 27  # space above the next paragraph


def _literate(path: Path, list_items: bool = False) -> Path:
    """A literate program: numbered paragraphs 1-12, the starred ones' bold titles either alone on their line (the
    paragraph opens with code) or run in ("2. Program global context. Let's ..."); a bold code line; the program's
    name on the title page and again over a contents printed at the back; code lines set bold."""
    doc = pymupdf.open()
    starred = {1: "Introduction", 2: "Program global context", 5: "Encoding", 8: "Decoding", 11: "Main program"}
    alone = {1, 5, 11}
    number = 1
    for sheet in range(4):
        page = doc.new_page(width=595, height=842)
        y = 90.0
        if sheet == 0:
            page.insert_text((260, 60), "QPRINT", fontname="cour", fontsize=14.3)
        while number <= 3 * (sheet + 1):
            title = starred.get(number)
            if number in alone:
                page.insert_text((72, y), f"{number}. {title}.", fontname="tibo", fontsize=10)
                code = {1: "#define TRUE 1", 5: "#define LINELEN 72", 11: "#ifdef HAVE_GETOPT"}[number]
                page.insert_text((72, y + 27), code, fontname="tibo", fontsize=10)
                y += 54
                title = None
                for _ in range(3):
                    page.insert_text((72, y), PROSE, fontname="tiro", fontsize=10)
                    y += 12
                y += 15
            else:
                y = _paragraph(page, y, number, title)
            number += 1
        if list_items and sheet == 2:
            for n, item in enumerate(["Install", "Configure"], start=1):  # a bold numbered list: its count restarts
                y = _paragraph(page, y, n, item, lines=1)
    page = doc.new_page(width=595, height=842)
    page.insert_text((260, 90), "QPRINT", fontname="tiro", fontsize=14.5)
    for i, title in enumerate(starred.values()):
        page.insert_text((72, 300 + 15 * i), f"{title} " + ". " * 30 + f" {i + 1}", fontname="tibo", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_bold_run_in_heads_set_like_the_documents_heads_are_sections(tmp_path: Path) -> None:
    got = _entries(_literate(tmp_path / "qprint.pdf", list_items=True))
    # The run-in heads (2., 8.) join the whole-line ones (1., 5., 11.); "1. Install." restarts the count: a list item.
    # Neither the program's name (title page, and again over the contents at the back) nor "#define TRUE 1" is one.
    assert [(t, p) for _, t, p in got] == [("1. Introduction.", 1), ("2. Program global context", 1),
                                           ("5. Encoding.", 2), ("8. Decoding", 3), ("11. Main program.", 4)]


def test_plain_numbered_paragraphs_stay_text(tmp_path: Path) -> None:
    # Without whole-line heads set bold and numbered the same way, a bold run-in lead is not taken as a section.
    doc = pymupdf.open()
    for n in range(1, 6):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), f"{n} Chapter number {n}", fontname="hebo", fontsize=16)
        _paragraph(page, 130, n, "Remark on the encoder")
    doc.save(tmp_path / "plain.pdf")
    doc.close()
    got = _entries(tmp_path / "plain.pdf")
    assert [t for _, t, _ in got] == [f"{n} Chapter number {n}" for n in range(1, 6)]


def _texinfo(path: Path, letter_size: float) -> Path:
    """Chapters, then a two-column index whose letter groups are set at ``letter_size`` over 9-pt entries with
    leaders; then the contents, printed at the back as Texinfo's @contents at the end puts it."""
    doc = pymupdf.open()
    for n, title in enumerate(["Introduction", "Installation", "Usage"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((90, 96), f"{n} {title}", fontname="hebo", fontsize=17.2)
        y = 130
        for k in range(1, 4):
            page.insert_text((90, y), f"{n}.{k} Part {k} of {title.lower()}", fontname="hebo", fontsize=14.3)
            y += 24
            for _ in range(6):
                page.insert_text((90, y), PROSE, fontname="tiro", fontsize=10.9)
                y += 13.2
            y += 10
    page = doc.new_page(width=612, height=792)
    page.insert_text((90, 96), "Concept Index", fontname="hebo", fontsize=17.2)
    for col, x, letters in ((0, 90, "ABCD"), (1, 315, "EFGH")):
        y = 140.0
        for letter in letters:
            page.insert_text((x, y), letter, fontname="hebo", fontsize=letter_size)
            y += letter_size + 6
            for word in ("alpha", "beta", "gamma"):
                page.insert_text((x, y), f"{letter.lower()}{word} " + ". " * 25 + " 2", fontname="tiro", fontsize=9)
                y += 11
            y += 8
    page = doc.new_page(width=612, height=792)
    page.insert_text((90, 96), "Table of Contents", fontname="hebo", fontsize=17.2)
    y = 140.0
    for n, title in enumerate(["Introduction", "Installation", "Usage"], start=1):
        page.insert_text((90, y), f"{n} {title} " + ". " * 30 + f" {n}", fontname="hebo", fontsize=14.3)
        y += 30
        for k in range(1, 4):
            page.insert_text((105, y), f"{n}.{k} Part {k} of {title.lower()} " + ". " * 30 + f" {n}",
                             fontname="tiro", fontsize=10.9)
            y += 24
        y += 10
    doc.save(path)
    doc.close()
    return path


def test_display_letters_of_an_index_are_not_its_children(tmp_path: Path) -> None:
    got = _entries(_texinfo(tmp_path / "texinfo.pdf", 14.3))
    titles = [t for _, t, _ in got]
    assert "Concept Index" in titles and not {"A", "B", "E"} & set(titles)
    # The contents at the back gives no run-in heads: every numbered section is on its chapter's page.
    assert [p for _, t, p in got if t[:1].isdigit()] == [1] * 4 + [2] * 4 + [3] * 4, got


def test_index_letters_set_like_the_entries_stay_its_children(tmp_path: Path) -> None:
    got = _entries(_texinfo(tmp_path / "ltxdoc.pdf", 9))
    assert [t for _, t, _ in got if len(t) == 1] == list("ABCDEFGH")


def test_contents_lines_with_leaders_are_not_run_in_heads(tmp_path: Path) -> None:
    with PdfSource(_texinfo(tmp_path / "texinfo.pdf", 14.3)) as pdf:
        layouts = [pdf.layout(n) for n in range(1, pdf.page_count + 1)]
    heads = outline_headings(detect_headings(layouts))
    # Nor is the contents heading itself, printed after the index (test_headings_contents_lines.py).
    assert [h.title for h in heads if h.page == 5] == []


def test_a_lists_count_is_not_the_documents_numbering(tmp_path: Path) -> None:
    # Unnumbered chapters (20 pt) and sections (17 pt); a FAQ whose questions are numbered 1, 2, 3 in each of its
    # lists (14 pt). Read as chapters, those numbers made every larger head a Part, chapters and sections alike.
    doc = pymupdf.open()
    chapters = [("Introduction", ["Starting xfig", "Display Windows"]), ("Drawing Objects", ["Circles", "Ellipses"]),
                ("Editing Objects", ["Selecting Objects", "Edit Panel"]), ("FAQ", ["General", "Compiling"])]
    for chapter, sections in chapters:
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontname="hebo", fontsize=20)
        y = 140.0
        for section in sections:
            page.insert_text((72, y), section, fontname="hebo", fontsize=17)
            y += 30
            for n in range(1, 4) if chapter == "FAQ" else ():
                page.insert_text((72, y), f"{n}. Why does question {n} of {section.lower()} come up?",
                                 fontname="hebo", fontsize=14)
                y += 24
                page.insert_textbox(pymupdf.Rect(72, y, 540, y + 40), PROSE, fontname="tiro", fontsize=11)
                y += 40
            page.insert_textbox(pymupdf.Rect(72, y, 540, y + 60), PROSE, fontname="tiro", fontsize=11)
            y += 70
    doc.save(tmp_path / "faq.pdf")
    doc.close()
    levels = {t: lv for lv, t, _ in _entries(tmp_path / "faq.pdf")}
    assert {levels[c] for c, _ in chapters} == {1}
    assert {levels[s] for _, ss in chapters for s in ss} == {2}
    assert levels["1. Why does question 1 of general come up?"] == 3
