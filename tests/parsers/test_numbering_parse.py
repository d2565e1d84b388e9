"""Section numbering and printed page numbers (parsers.numbering)."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from parsers.numbering import int_to_roman, parse_numbering, parse_page_number, roman_to_int

TITLE = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=12).map(str.capitalize)


@given(st.integers(min_value=1, max_value=3999))
def test_roman_round_trip(n: int) -> None:
    assert roman_to_int(int_to_roman(n)) == n
    assert roman_to_int(int_to_roman(n).upper()) == n


@pytest.mark.parametrize("bad", ["", "iiii", "vv", "ic", "abc", "12"])
def test_malformed_roman_is_rejected(bad: str) -> None:
    assert roman_to_int(bad) is None


@given(st.lists(st.integers(min_value=1, max_value=99), min_size=1, max_size=5), TITLE, st.booleans())
def test_decimal_numbering_depth_and_rest(parts: list[int], title: str, dot: bool) -> None:
    label = ".".join(map(str, parts))
    n = parse_numbering(f"{label}{'.' if dot else ''} {title} words")
    assert n is not None
    assert (n.label, n.depth, n.kind, n.rest) == (label, len(parts), "decimal", f"{title} words")


@pytest.mark.parametrize(
    "text, label, depth, kind, rest",
    [
        ("Chapter 3 Getting started", "Chapter 3", 1, "chapter", "Getting started"),
        ("PART II", "PART II", 1, "part", ""),
        ("Appendix A: Tables", "Appendix A", 1, "appendix", "Tables"),
        ("Item 7A. Quantitative Disclosures", "Item 7A", 1, "item", "Quantitative Disclosures"),
        ("A.2 Wiring", "A.2", 2, "letter", "Wiring"),
        ("IV. Results", "IV", 1, "roman", "Results"),
        ("Section 4.2 Limits", "Section 4.2", 2, "section", "Limits"),
    ],
)
def test_named_numberings(text: str, label: str, depth: int, kind: str, rest: str) -> None:
    n = parse_numbering(text)
    assert n is not None and (n.label, n.depth, n.kind, n.rest) == (label, depth, kind, rest)


@pytest.mark.parametrize("text", ["Introduction", "2019 Annual report", "I want more", "A tutorial"])
def test_plain_titles_have_no_numbering(text: str) -> None:
    assert parse_numbering(text) is None


@given(st.integers(min_value=1, max_value=99999))
def test_arabic_page_numbers(n: int) -> None:
    p = parse_page_number(str(n))
    assert p is not None and (p.value, p.kind) == (n, "arabic")


@given(st.integers(min_value=1, max_value=400))
def test_roman_page_numbers(n: int) -> None:
    p = parse_page_number(int_to_roman(n))
    assert p is not None and (p.value, p.kind) == (n, "roman")


@pytest.mark.parametrize("bad", ["0", "page", "12a", "", "3.5"])
def test_not_page_numbers(bad: str) -> None:
    assert parse_page_number(bad) is None
