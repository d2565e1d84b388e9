"""The headings fallback on admonitions set as heads, on real PDFs built with PyMuPDF: a note's or a warning's title
("Note: The plot widget has gone", "Warning") in a head's type is no section; a section the word opens stays."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "The plot window lists every integration the user ran, one plot widget under the other, in their order."


def _guide(path: Path) -> Path:
    """Three chapters (18 pt bold), each with two sections (14 pt bold) of 11 pt text; admonitions titled in the
    sections' style inside them, indented."""
    doc = pymupdf.open()
    chapters = [("Plotting", ["Plot widgets", "Note on splitters"], "Note: The multi-graph plot widget has gone"),
                ("Integrations", ["Mass spectra", "Drift spectra"], "Warning"),
                ("Exporting", ["Images", "Data files"], "Tip: Locking the axes of all plots")]
    for chapter, sections, admonition in chapters:
        page = doc.new_page(width=612, height=792)
        page.insert_text((64, 90), chapter, fontname="hebo", fontsize=18)
        y = 130
        for k, section in enumerate(sections):
            page.insert_text((64, y), section, fontname="hebo", fontsize=14)
            y += 24
            for _ in range(5):
                page.insert_text((64, y), PROSE, fontname="helv", fontsize=11)
                y += 15
            y += 14
            if k == 0:
                page.insert_text((96, y), admonition, fontname="hebo", fontsize=14)
                y += 24
                for _ in range(3):
                    page.insert_text((96, y), PROSE[:80], fontname="helv", fontsize=11)
                    y += 15
                y += 14
    doc.save(path)
    doc.close()
    return path


def test_an_admonitions_title_is_no_section(tmp_path: Path) -> None:
    with PdfSource(_guide(tmp_path / "guide.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    assert [h.title for h in outline_headings(detect_headings(layouts))] == [
        "Plotting", "Plot widgets", "Note on splitters", "Integrations", "Mass spectra", "Drift spectra",
        "Exporting", "Images", "Data files"]
