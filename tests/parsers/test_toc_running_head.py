"""A contents listing over several pages whose continuation pages repeat "CONTENTS" as a running head
(LaTeX's book and report classes, dblatex) is one listing, not a new one on each page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

CHAPTERS = ["Definitions and overview", "Getting and installing", "Compatibility issues", "Software available",
            "The archives", "Package management basics"]


def _contents_page(doc: pymupdf.Document, head: str, rows: list[tuple[str, str, int]]) -> None:
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 70), head, fontname="hebo", fontsize=16 if head == "Contents" else 9)
    for i, (number, title, printed) in enumerate(rows):
        y = 110 + 18 * i
        x = 72 if "." not in number else 90
        page.insert_text((x, y), f"{number}  {title}", fontname="helv", fontsize=10)
        page.insert_text((400, y), ". " * 30, fontname="helv", fontsize=10)
        width = pymupdf.get_text_length(str(printed), fontname="helv", fontsize=10)
        page.insert_text((523 - width, y), str(printed), fontname="helv", fontsize=10)


def _book(path: Path) -> Path:
    """Title page, three contents pages (the 2nd and 3rd headed "CONTENTS"), then chapters of 4 pages each;
    printed page 1 is the first chapter's first page."""
    rows = []
    for c, title in enumerate(CHAPTERS, start=1):
        first = 1 + 4 * (c - 1)
        rows.append((str(c), title, first))
        rows += [(f"{c}.{s}", f"Section {s} of chapter {c} explained", first + s) for s in range(1, 4)]
    doc = pymupdf.open()
    doc.new_page(width=595, height=842).insert_text((72, 200), "The Frequently Asked Questions", fontsize=24)
    _contents_page(doc, "Contents", rows[:8])
    _contents_page(doc, "CONTENTS", rows[8:16])
    _contents_page(doc, "CONTENTS", rows[16:])
    printed = 0
    for c, title in enumerate(CHAPTERS, start=1):
        for s in range(4):
            printed += 1
            page = doc.new_page(width=595, height=842)
            head = f"{c}  {title}" if s == 0 else f"{c}.{s}  Section {s} of chapter {c} explained"
            page.insert_text((72, 100), head, fontname="hebo", fontsize=16 if s == 0 else 12)
            page.insert_textbox(pymupdf.Rect(72, 130, 523, 760), "Body text of the section goes on. " * 30,
                                fontname="helv", fontsize=10)
            page.insert_text((290, 800), str(printed), fontname="helv", fontsize=9)
    doc.save(path)
    doc.close()
    return path


def test_contents_running_head_does_not_split_the_listing(tmp_path: Path) -> None:
    pdf_path = _book(tmp_path / "faq.pdf")
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, llm_hook=lambda p: ([], {"reason": "no model"}))
    assert result.source == "toc"
    titles = [e.title for e in result.entries]
    # every chapter and section of all three contents pages, not only the longest page's
    assert sum(1 for t in titles if t.split()[0].isdigit() and "." not in t.split()[0]) == len(CHAPTERS)
    assert len([t for t in titles if "Section" in t]) == 3 * len(CHAPTERS)
    first = next(e for e in result.entries if e.title.endswith(CHAPTERS[0]))
    last = next(e for e in result.entries if e.title.endswith(CHAPTERS[-1]))
    assert (first.page, last.page) == (5, 5 + 4 * (len(CHAPTERS) - 1))
