"""Lines set large that are not sections: a figure's labels drawn twice on a page, the title page's date."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.headings import DATE_LINE
from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import sized_lines_pdf

BODY = [("The controller keeps the pressure within range while the motor speed adapts to the demand.", 10.0)] * 8


def _titles(path: str) -> list[str]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings"
    return [e.title for e in result.entries]


def test_a_label_set_twice_on_one_page_is_not_a_section(tmp_path: Path) -> None:
    pages = [[(f"{n} Chapter number {n}", 14.0)] + BODY for n in range(1, 6)]
    # Two copies of one diagram, each with its head row set larger than the text ("South West North East").
    pages[2] += [("South West North East", 14.0)] + BODY[:2] + [("South West North East", 14.0)] + BODY[:2]
    path = sized_lines_pdf(tmp_path / "f.pdf", pages)
    assert _titles(path) == [f"{n} Chapter number {n}" for n in range(1, 6)]


def test_the_title_page_date_is_not_a_section_even_in_a_style_headings_use(tmp_path: Path) -> None:
    pages = [[("A Small Manual of Pumps", 20.0), ("29 January 2020 (v0.5)", 14.0), ("Introduction", 14.0)] + BODY]
    chapters = ["Installation", "Daily operation", "Maintenance", "Safety rules", "Troubleshooting"]
    pages += [[(title, 14.0)] + BODY for title in chapters]
    path = sized_lines_pdf(tmp_path / "t.pdf", pages)
    assert _titles(path) == ["Introduction"] + chapters


@pytest.mark.parametrize("text, date", [("29 January 2020 (v0.5)", True), ("Dec 17, 2022", True), ("2022-12-17", True),
                                        ("March 2021", True), ("May the force be with you", False),
                                        ("January 2020 Release Notes", False), ("2 Installation", False)])
def test_what_reads_as_a_date(text: str, date: bool) -> None:
    assert bool(DATE_LINE.match(text)) is date


def test_the_document_title_set_again_above_the_text_is_not_a_section(tmp_path: Path) -> None:
    # A cover page, then the title again over the abstract (LaTeX's \maketitle), then numbered sections.
    pages = [[("A Manual of Pumps", 10.0)] + BODY, [("A Manual of Pumps", 17.2)] + BODY]
    chapters = [f"{n} {t}" for n, t in enumerate(["Installation", "Daily operation", "Maintenance", "Safety rules",
                                                  "Troubleshooting"], 1)]
    pages += [[(title, 14.3)] + BODY for title in chapters]
    path = sized_lines_pdf(tmp_path / "m.pdf", pages)
    assert _titles(path) == chapters
