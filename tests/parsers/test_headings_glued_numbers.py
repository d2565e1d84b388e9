"""The headings fallback on section numbers run into their titles, on real PDFs built with PyMuPDF: a word processor
sets the number and the title apart with a tab, which the text layer keeps as no space ("3.1.3Sample streaming
setup"); the same sections recur under each chapter at the top of a page."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "The example opens the device, configures its channels and streams samples into a buffer of its own."
SECTIONS = ["Opening a device", "Device configuration", "Sample streaming setup", "Receiving samples"]


def _guide(path: Path) -> Path:
    """Three chapters (22 pt bold), each with the same four numbered sections (16 pt bold), the third opening a page
    at its top; every number run into its title."""
    doc = pymupdf.open()
    for n, chapter in enumerate(["Example 1: basic receive", "Example 2: single receive", "Example 3: dual receive"],
                                start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((71, 90), f"{n} {chapter}", fontname="tibo", fontsize=22)
        y = 140.0
        for m, section in enumerate(SECTIONS, start=1):
            if m == 3:
                page = doc.new_page(width=595, height=842)
                y = 90.0
            page.insert_text((71, y), f"{n}.{m}{section}", fontname="tibo", fontsize=16)
            y += 30
            for _ in range(6):
                page.insert_text((89, y), PROSE, fontname="tiro", fontsize=12)
                y += 16
            y += 20
    doc.save(path)
    doc.close()
    return path


def test_a_number_run_into_its_title_is_read_as_the_sections_number(tmp_path: Path) -> None:
    with PdfSource(_guide(tmp_path / "guide.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    titles = [h.title for h in outline_headings(detect_headings(layouts))]
    # Each chapter's third section too, though it opens its page at one height in all three chapters (no running head:
    # a numbered section).
    for n in (1, 2, 3):
        assert [t for t in titles if t.startswith(f"{n}.")] == [f"{n}.{m} {s}" for m, s in enumerate(SECTIONS, start=1)]
