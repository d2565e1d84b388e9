"""A release notes chapter whose sections are titled by version and date alone ("2.7 (2022-12-03)") is read from
the contents: such a title has no letters, and a contents line without letters is otherwise a table row."""

from __future__ import annotations

from pathlib import Path

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import parse_toc_line
from tests.pdfs import contents_book

FILLER = "The converter now keeps the comments of the input file and handles the new syntax of the tool."


def test_a_version_and_date_is_a_title_and_a_numeric_row_is_not() -> None:
    line = parse_toc_line("2.7 (2022-12-03) . . . . . . . . . . 30")
    assert line is not None and line.title == "2.7 (2022-12-03)" and line.page is not None and line.page.value == 30
    assert parse_toc_line("1.10.2 [2019-01-30] 33").title == "1.10.2 [2019-01-30]"
    assert parse_toc_line("2022-12-03 1,234 5,678") is None  # a dated row of figures
    assert parse_toc_line("12 34 56 78") is None


def test_release_sections_titled_by_date_are_entries(tmp_path: Path) -> None:
    rows = [("1 Installing", "1"), ("2 Releases", "2"), ("2.1 (2022-12-03)", "2"), ("2.2 (2021-04-15)", "3"),
            ("2.3 (2020-11-03)", "4")]
    body = [["!1 Installing", FILLER], ["!2 Releases", FILLER, "!2.1 (2022-12-03)", FILLER],
            ["!2.2 (2021-04-15)", FILLER], ["!2.3 (2020-11-03)", FILLER]]
    pdf_path = contents_book(tmp_path / "releases.pdf", rows, body)
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf)
    got = [(e.title, e.page) for e in result.entries]
    assert result.source == "toc"
    assert got == [("1 Installing", 2), ("2 Releases", 3), ("2.1 (2022-12-03)", 3), ("2.2 (2021-04-15)", 4),
                   ("2.3 (2020-11-03)", 5)]
