"""One contents line read into a title and a page number (parsers.toc.parse_toc_line)."""

from __future__ import annotations

from parsers.toc import parse_toc_line


def test_page_before_the_leaders_is_the_titles_last_word() -> None:
    # zsh's "2.5 The Zsh Web Page": the "Page" column header is only dropped where no leader follows it.
    line = parse_toc_line("2.5 The Zsh Web Page. . . . . . . . . . . . . 2")
    assert line is not None and line.title == "2.5 The Zsh Web Page" and line.page is not None and line.page.value == 2
    assert parse_toc_line("Item 7. Management's discussion Page").title == "Item 7. Management's discussion"
