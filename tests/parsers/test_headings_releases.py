"""The headings fallback on a change log's releases, on real PDFs built with PyMuPDF: a release's head is its version
and its date ("2.7 (2022-12-03)"), with no word in it; its version is no section number."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "The converter reads a ledger file and writes the same transactions in the other syntax, line by line."
RELEASES = ["2.2 (2020-05-30)", "2.1 (2020-04-06)", "2.0 (2020-02-22)", "1.8 (2019-06-12)", "1.7 (2019-04-22)",
            "1.6 (2019-03-25)"]


def _manual(path: Path, bold_releases: bool = True) -> Path:
    """Chapters in 14 pt bold with sections in 12 pt bold, then a chapter of releases, two to a page, each a
    12 pt bold head (or the version and date as a line of the 10 pt text) over bullet items in 10 pt."""
    doc = pymupdf.open()
    chapters = [("Installation", ["Debian", "Docker"]), ("Usage", ["Input options", "Other options"])]
    for chapter, sections in chapters:
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), chapter, fontname="hebo", fontsize=14)
        y = 130
        for section in sections:
            page.insert_text((72, y), section, fontname="hebo", fontsize=12)
            y += 24
            for _ in range(6):
                page.insert_text((72, y), PROSE, fontname="helv", fontsize=10)
                y += 14
            y += 10
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "Releases", fontname="hebo", fontsize=14)
    y = 130
    for n, release in enumerate(RELEASES):
        if n and n % 2 == 0:
            page = doc.new_page(width=612, height=792)
            y = 90
        page.insert_text((72, y), release, fontname="hebo" if bold_releases else "helv",
                         fontsize=12 if bold_releases else 10)
        y += 24
        for i in range(5):
            page.insert_text((84, y), f"\u2022 Fix parsing of amounts with a decimal comma in mode {i}",
                             fontname="helv", fontsize=10)
            y += 14
        page.insert_text((72, y), PROSE, fontname="helv", fontsize=10)
        y += 30
    doc.save(path)
    doc.close()
    return path


def _outline(pdf: Path) -> list:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return outline_headings(detect_headings(layouts))


def test_a_release_headed_by_its_version_and_date_is_a_section(tmp_path: Path) -> None:
    heads = _outline(_manual(tmp_path / "releases.pdf"))
    assert [h.title for h in heads] == ["Installation", "Debian", "Docker", "Usage", "Input options", "Other options",
                                        "Releases"] + RELEASES
    by_title = {h.title: h for h in heads}
    # The version is not a section number ("2.2" under no chapter 2): placed by its style, as "Debian" is.
    assert all(by_title[r].numbering is None for r in RELEASES)
    assert {by_title[r].level for r in RELEASES} == {by_title["Debian"].level} == {2}


def test_a_version_and_date_set_as_the_text_is_no_head(tmp_path: Path) -> None:
    heads = _outline(_manual(tmp_path / "plain.pdf", bold_releases=False))
    assert [h.title for h in heads] == ["Installation", "Debian", "Docker", "Usage", "Input options", "Other options",
                                        "Releases"]
