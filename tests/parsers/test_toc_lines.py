"""The TOC line parser (parsers.toc.parse_toc_line), including property-based cases."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from parsers.numbering import PageNumber, int_to_roman, roman_to_int
from parsers.toc import _NUMBERED_WORDS, is_heading, parse_toc_line

# Words that number what follows ("Part ii", "Teil iv") are not titles ending before a roman page number.
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=10).filter(
    lambda w: w not in _NUMBERED_WORDS | {"page", "pages"})
LEADER = st.sampled_from([" ", "  ", " . . . . . . ", "..........", " \u2026 ", " ........ "])


@given(st.lists(WORD, min_size=1, max_size=6), LEADER, st.integers(min_value=1, max_value=9999), st.booleans())
def test_title_leader_number(words: list[str], leader: str, page: int, roman: bool) -> None:
    title = " ".join(words).capitalize()
    token = int_to_roman(page % 300 + 1) if roman else str(page)
    parsed = parse_toc_line(f"{title}{leader}{token}")
    assert parsed is not None
    assert parsed.title == title
    assert parsed.page is not None and parsed.page.value == (page % 300 + 1 if roman else page)
    assert parsed.leader == ("." in leader or "\u2026" in leader)


# A trailing word that is a roman numeral ("Preface xiv", but also "Aaa ccl") is read as a page candidate by
# design; the page's right edge decides later (read_page_entries). So the last word here is not one.
@given(st.lists(WORD, min_size=1, max_size=6).filter(lambda ws: roman_to_int(ws[-1]) is None))
def test_line_without_number_keeps_its_title(words: list[str]) -> None:
    title = " ".join(words).capitalize()
    parsed = parse_toc_line(title)
    assert parsed is not None and parsed.page is None and parsed.title == title


def test_trailing_roman_word_is_a_page_candidate() -> None:
    parsed = parse_toc_line("Aaa ccl")  # found by hypothesis: "ccl" is 250
    assert parsed is not None and parsed.title == "Aaa" and parsed.page is not None and parsed.page.value == 250


@pytest.mark.parametrize(
    "line, title, page",
    [
        ("1.2 Scope . . . . . . . . 17", "1.2 Scope", 17),
        ("Commercial Support. . . . . . 9", "Commercial Support", 9),
        ("Preface ... xiv", "Preface", 14),
        ("Item 7A. Quantitative Disclosures 45", "Item 7A. Quantitative Disclosures", 45),
        ("PART II", "PART II", None),  # a numbered part, not page ii
        ("Appendix IV", "Appendix IV", None),
        ("Part I \u2013 Financial information Page", "Part I \u2013 Financial information", None),
    ],
)
def test_examples(line: str, title: str, page: int | None) -> None:
    parsed = parse_toc_line(line)
    assert parsed is not None and parsed.title == title
    assert (parsed.page.value if parsed.page else None) == page


@pytest.mark.parametrize("line", ["2019    17    43", "17", "....... 12", ""])
def test_numeric_rows_are_not_entries(line: str) -> None:
    assert parse_toc_line(line) is None


@pytest.mark.parametrize("text", ["Contents", "TABLE OF CONTENTS", "Table of Content", "Inhaltsverzeichnis",
                                  "Table des matières", "Índice", "Index of Sections", "Short Contents",
                                  "Sumário", "Sumario"])
def test_contents_headings(text: str) -> None:
    assert is_heading(text)


@pytest.mark.parametrize("text", ["List of Figures", "Index", "Contents of the box are fragile"])
def test_not_contents_headings(text: str) -> None:
    assert not is_heading(text)


def test_a_section_number_glued_to_a_command_name_is_split_off() -> None:
    # A generated contents sets the number in a fixed box; "24.104" overflows it and meets "\addindex".
    line = parse_toc_line("24.104\\addindex (text) 199")
    assert line is not None and line.title == "24.104 \\addindex (text)" and line.page == PageNumber(199, "arabic")
    assert parse_toc_line("2.5(a) Cases 7").title == "2.5(a) Cases"  # type: ignore[union-attr]
