"""A contents printed two-sided, the way HTMLDOC prints one (FLTK's programming manual shows the kind).

Even pages set the text block 36 pt further left than odd ones; each continuation page repeats, first and without
a page number, the title of the chapter whose sections go on there; and every anchor of one name resolves to one
target, so a chapter's "Colors" links to the appendix's "Colors". The expected levels and pages come from the
construction below, never from the code under test.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import find_toc

W, H = 595, 792
FILLER = ("The toolkit draws every widget itself and keeps its own event loop, so programs behave the same way on "
          "each system it supports. ") * 3

# (chapter, [sections]); each section takes one body page, each chapter opens on a page of its own.
CHAPTERS = [
    ("1 - Introduction to the Toolkit", ["History of the Toolkit", "Features", "Licensing"]),
    ("2 - Common Widgets", ["Buttons", "Valuators", "Colors", "Callbacks", "Shortcuts"]),
    ("3 - Drawing Things", ["When Can You Draw Things?", "Drawing Functions", "Drawing Images"]),
    ("4 - Handling Events", ["The Event Model", "Mouse Events", "Keyboard Events", "Focus Events"]),
    ("A - Enumerations", ["Key Values", "Alignment Values", "Colors", "Cursors"]),
]
PER_CONTENTS_PAGE = 12


def _leader_line(page: pymupdf.Page, x0: float, right: float, y: float, title: str, number: int, bold: bool) -> None:
    font = "hebo" if bold else "helv"
    num = str(number)
    num_x = right - pymupdf.get_text_length(num, fontname="helv", fontsize=11)
    text = title
    while pymupdf.get_text_length(text + ".", fontname=font, fontsize=11) < num_x - x0 - 4:
        text += "."
    page.insert_text((x0, y), text, fontname=font, fontsize=11)
    page.insert_text((num_x, y), num, fontname="helv", fontsize=11)


def build(path: Path) -> dict[str, list[int]]:
    """Write the manual; returns each title's physical pages (0-based) in listing order."""
    rows: list[tuple[str, bool, int]] = []  # title, is chapter, printed page
    printed = 1
    for chapter, sections in CHAPTERS:
        rows.append((chapter, True, printed))
        printed += 1
        for s in sections:
            rows.append((s, False, printed))
            printed += 1
    chunks = [rows[i:i + PER_CONTENTS_PAGE] for i in range(0, len(rows), PER_CONTENTS_PAGE)]
    front = 1 + len(chunks)  # title page, contents pages
    doc = pymupdf.open()
    title = doc.new_page(width=W, height=H)
    title.insert_text((150, 300), "Toolkit Programming Manual", fontname="hebo", fontsize=24)
    contents = [doc.new_page(width=W, height=H).number for _ in chunks]
    physical: dict[str, list[int]] = {}
    for chapter, sections in CHAPTERS:
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 90), chapter, fontname="hebo", fontsize=20)
        page.insert_textbox(pymupdf.Rect(72, 120, W - 72, 400), FILLER, fontname="helv", fontsize=10)
        physical.setdefault(chapter, []).append(page.number)
        for s in sections:
            page = doc.new_page(width=W, height=H)
            page.insert_text((72, 90), s, fontname="hebo", fontsize=16)
            page.insert_textbox(pymupdf.Rect(72, 120, W - 72, 400), FILLER, fontname="helv", fontsize=10)
            physical.setdefault(s, []).append(page.number)
    for n in range(front, doc.page_count):
        page = doc[n]
        page.insert_text((W / 2, H - 40), str(page.number - front + 1), fontname="helv", fontsize=10)
    last_chapter = ""
    for k, (number, chunk) in enumerate(zip(contents, chunks)):
        page = doc[number]
        shift = 0 if k % 2 == 0 else -36  # even pages: the text block 36 pt to the left
        left, right = 72 + shift, W - 39 + shift
        page.insert_text((230 + shift, 35), "Toolkit Programming Manual", fontname="helv", fontsize=11)
        page.insert_text((235 + shift, 60), "Table of Contents", fontname="hebo", fontsize=19)
        y = 100.0
        if k and not chunk[0][1]:
            page.insert_text((left, y), last_chapter, fontname="hebo", fontsize=11)  # the chapter going on here
            y += 13
        for text, is_chapter, number in chunk:
            x = left if is_chapter else left + 36
            _leader_line(page, x, right, y, text, number, is_chapter)
            seen = physical[text]
            # One anchor per name: the last page titled so, for every line that names it.
            page.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(x, y - 10, right, y + 3),
                              "page": seen[-1]})
            if is_chapter:
                last_chapter = text
            y += 13
        page.insert_text((right - 8, H - 48), ("ii", "iii", "iv", "v")[k], fontname="helv", fontsize=10)
    doc.save(path)
    return physical


def test_sections_on_an_even_contents_page_keep_their_level(tmp_path: Path) -> None:
    path = tmp_path / "two-sided.pdf"
    build(path)
    pdf = PdfSource(path)
    toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    chapters = {c for c, _ in CHAPTERS}
    assert len({e.toc_page for e in toc.entries}) == 2
    levels = {(e.title in chapters, e.level) for e in toc.entries}
    assert levels == {(True, 1), (False, 2)}


def test_a_chapter_reprinted_atop_a_continuation_page_is_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "two-sided.pdf"
    build(path)
    pdf = PdfSource(path)
    toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    titles = [e.title for e in toc.entries]
    expected = [t for chapter, sections in CHAPTERS for t in [chapter, *sections]]
    assert titles == expected


def test_the_page_that_prints_the_number_and_the_title_beats_a_shared_anchor(tmp_path: Path) -> None:
    path = tmp_path / "two-sided.pdf"
    physical = build(path)
    result = recover_structure(PdfSource(path), max_leaf_pages=0)
    assert result.source == "toc"
    got = [(e.title, e.page) for e in result.entries]
    expected = [(t, pages.pop(0) + 1) for t, pages in
                ((t, list(physical[t])) for chapter, sections in CHAPTERS for t in [chapter, *sections])]
    # "Colors" is listed twice; each gets its own page, not both the appendix's.
    assert [p for t, p in got if t == "Colors"] == [p + 1 for p in physical["Colors"]]
    assert len(got) == len(expected)
