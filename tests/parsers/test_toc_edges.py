"""Contents lines at the edges of what the reader accepted: running heads, bold chapter lines, glued numbers."""

from __future__ import annotations

from pathlib import Path

from parsers.layout import Line, PageLayout
from parsers.pdf import PdfSource
from parsers.ranges import Entry
from parsers.structure import split_long_leaves
from parsers.toc import credible_entries, parse_toc_line, read_page_entries
from tests.pdfs import text_pdf


def _line(text: str, x0: float, y0: float, x1: float, size: float = 10.9, bold: bool = False) -> Line:
    return Line(text, x0, y0, x1, y0 + size, size, bold, "NimbusRomNo9L")


def _contents_page(first: Line) -> PageLayout:
    lines = [first]
    for i in range(12):
        lines.append(_line(f"5.{i + 1} Section number {i + 1} . . . . . . . . . . . . . {39 + 2 * i}", 93, 110 + 14 * i, 557.8))
    lines.append(_line("Index 1105", 94, 300, 551.2, bold=True))  # a bold chapter line without leaders
    return PageLayout(number=4, width=595, height=842, lines=lines)


def test_small_running_head_just_below_the_margin_band_is_not_an_entry() -> None:
    # Its folio sits in the page-number column, so the line reads like an entry "GAP — A Tutorial ... 4".
    page = _contents_page(_line("GAP — A Tutorial 4", 263, 74.3, 557.8, size=8.0))
    titles = [r.parsed.title for r in credible_entries(read_page_entries(page))]
    assert "GAP — A Tutorial" not in titles
    assert titles[0] == "5.1 Section number 1"


def test_bold_chapter_line_a_few_points_short_of_the_number_column_is_an_entry() -> None:
    page = _contents_page(_line("5 Groups and Homomorphisms 39", 76, 90, 557.8, bold=True))
    raws = credible_entries(read_page_entries(page))
    index = [r for r in raws if r.parsed.title == "Index"]
    assert index and index[0].parsed.page is not None and index[0].parsed.page.value == 1105


def test_section_number_glued_to_its_title_is_split() -> None:
    assert parse_toc_line("18.10tie . . . . . . . . . 581").title == "18.10 tie"
    assert parse_toc_line("3D graphics . . . . . . 12").title == "3D graphics"  # not a section number


def test_back_of_book_index_is_not_split_into_page_groups(tmp_path: Path) -> None:
    path = text_pdf(tmp_path / "book.pdf", [f"Page {n}\nSome text on page {n}." for n in range(1, 61)])
    entries = [Entry(1, "1 Introduction", 1), Entry(1, "2 Reference", 3), Entry(1, "Concept Index", 30)]
    with PdfSource(path) as pdf:
        out, info = split_long_leaves(entries, pdf, max_pages=5, by_headings=False)
    kids_of_index = [e for e in out if e.page >= 30 and e.title != "Concept Index"]
    assert kids_of_index == [] and info["index_kept"] == 1
    assert any(e.kind == "page_group" and 3 <= e.page < 30 for e in out)  # other long leaves still are
