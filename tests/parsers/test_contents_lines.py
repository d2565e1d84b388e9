"""One contents line read into a title and a page number (parsers.toc.parse_toc_line)."""

from __future__ import annotations

from parsers.toc import parse_toc_line


def test_page_before_the_leaders_is_the_titles_last_word() -> None:
    # zsh's "2.5 The Zsh Web Page": the "Page" column header is only dropped where no leader follows it.
    line = parse_toc_line("2.5 The Zsh Web Page. . . . . . . . . . . . . 2")
    assert line is not None and line.title == "2.5 The Zsh Web Page" and line.page is not None and line.page.value == 2
    assert parse_toc_line("Item 7. Management's discussion Page").title == "Item 7. Management's discussion"


def test_page_before_the_lines_own_number_is_the_titles_last_word() -> None:
    # Doxygen's "1 Main Page 1" without leaders (toulbar2's reference manual): the column header run into a line
    # leaves it without a number of its own, so a "Page" followed by the line's number is the title's.
    line = parse_toc_line("1 Main Page 1")
    assert line is not None and line.title == "1 Main Page" and line.page is not None and line.page.value == 1
    assert parse_toc_line("PART I Page").title == "PART I"  # type: ignore[union-attr]
