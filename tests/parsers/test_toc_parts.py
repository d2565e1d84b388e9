"""Levels from evidence: Parts above chapters in a printed contents and in a tree of detected headings."""

from __future__ import annotations

from parsers.headings import Heading, assign_heading_levels
from parsers.numbering import PageNumber, parse_numbering
from parsers.toc import TocEntry, assign_levels


def _entry(title: str, x0: float, size: float, bold: bool, page: int = 1) -> TocEntry:
    return TocEntry(title=title, page=PageNumber(page, "arabic"), level=1, numbering=parse_numbering(title), toc_page=3,
                    x0=x0, size=size, bold=bold)


def _levels(entries: list[TocEntry]) -> list[tuple[int, str]]:
    assign_levels(entries)
    return [(e.level, e.title) for e in entries]


def test_named_parts_sit_above_numbered_chapters() -> None:
    entries = [_entry("Part I Tutorials", 72, 12, True), _entry("1 Getting started", 72, 10, True),
               _entry("1.1 A first picture", 90, 10, False), _entry("Part II Reference", 72, 12, True),
               _entry("2 Paths", 72, 10, True), _entry("2.1 Lines", 90, 10, False)]
    assert [lv for lv, _ in _levels(entries)] == [1, 2, 3, 1, 2, 3]


def test_roman_parts_count_only_as_a_sequence_from_one() -> None:
    entries = [_entry("I Gnuplot", 72, 12, True), _entry("1 Copyright", 72, 10, True), _entry("1.1 Terms", 90, 10, False),
               _entry("II Plotting styles", 72, 12, True), _entry("2 Boxes", 72, 10, True)]
    assert [lv for lv, _ in _levels(entries)] == [1, 2, 3, 1, 2]


def test_one_title_that_reads_as_a_roman_number_does_not_shift_every_level() -> None:
    # "X Window System" is chapter 3's title set without its number, not Part X: the chapters stay at level 1.
    entries = [_entry("1 Introduction", 72, 10, True), _entry("1.1 Scope", 90, 10, False), _entry("2 Installing", 72, 10, True),
               _entry("X Window System", 72, 10, True), _entry("3.1 Display managers", 90, 10, False)]
    assert _levels(entries) == [(1, "1 Introduction"), (2, "1.1 Scope"), (1, "2 Installing"), (1, "X Window System"),
                                (2, "3.1 Display managers")]


def test_unnumbered_parts_set_larger_than_the_chapters() -> None:
    entries = [_entry("About", 72, 14.3, True), _entry("1. About this manual", 72, 12, True),
               _entry("User", 72, 14.3, True), _entry("2. Installation", 72, 12, True), _entry("2.1 Requirements", 90, 10, False),
               _entry("3. The basics", 72, 12, True), _entry("Index", 72, 12, True)]
    assert _levels(entries) == [(1, "About"), (2, "1. About this manual"), (1, "User"), (2, "2. Installation"),
                                (3, "2.1 Requirements"), (2, "3. The basics"), (2, "Index")]


def test_parts_in_a_tree_of_detected_headings() -> None:
    heads = [Heading(p, t, size, True, 100, numbering=parse_numbering(t)) for p, t, size in [
        (1, "I Tutorials", 24.8), (2, "1 Getting started", 20.7), (2, "1.1 A picture", 14.3),
        (5, "II Reference", 24.8), (6, "2 Paths", 20.7), (7, "Further reading", 20.7)]]
    assign_heading_levels(heads)
    assert [h.level for h in heads] == [1, 2, 3, 1, 2, 2]


def test_appendix_letters_that_read_as_roman_numbers_do_not_hide_the_parts() -> None:
    # Doxygen's manual: Parts I-III, then appendices lettered A, B, C, D; "C" and "D" read as roman 100 and 500.
    entries = [_entry("I User Manual", 72, 10.8, True), _entry("1 Introduction", 72, 9, True),
               _entry("1.1 Scope", 72, 9, False), _entry("II Reference Manual", 72, 10.8, True),
               _entry("2 Features", 72, 9, True), _entry("Appendices", 72, 10.8, True),
               _entry("C Diagrams Example", 72, 9, True), _entry("D Define Example", 72, 9, True)]
    assert _levels(entries) == [(1, "I User Manual"), (2, "1 Introduction"), (3, "1.1 Scope"), (1, "II Reference Manual"),
                                (2, "2 Features"), (1, "Appendices"), (2, "C Diagrams Example"), (2, "D Define Example")]
