"""The headings fallback's precision: which bold or large lines are sections, and which are not."""

from __future__ import annotations

from parsers.headings import detect_headings, outline_headings
from parsers.layout import Line, PageLayout

BODY = "The controller keeps the pressure within range while the motor speed adapts to the demand."


def _page(number: int, heads: list[tuple[str, float, bool]], font: str = "Sans", mono: set[str] = frozenset()) -> PageLayout:
    """A page of (text, size, bold) heads, each followed by four lines of 10 pt body text."""
    lines, y = [], 80.0
    for text, size, bold in heads:
        lines.append(Line(text, 72, y, 72 + 6 * len(text), y + size, size, bold, "Mono-Bold" if text in mono else font))
        y += size + 14
        for _ in range(4):
            lines.append(Line(BODY, 72, y, 520, y + 10, 10.0, False, "Serif"))
            y += 13
        y += 10
    return PageLayout(number=number, width=595, height=842, lines=lines)


def _titles(pages: list[PageLayout]) -> list[str]:
    return [h.title for h in outline_headings(detect_headings(pages))]


def test_numbered_headings_differing_only_in_digits_are_sections() -> None:
    pages = [_page(n, [(f"22.{n} Version 4.6.{9 - n}", 14.3, True)]) for n in range(1, 7)]
    assert _titles(pages) == [f"22.{n} Version 4.6.{9 - n}" for n in range(1, 7)]


def test_unnumbered_repeats_at_one_height_are_running_heads() -> None:
    pages = [_page(n, [(f"Release {n} notes", 14.3, True), (f"{n}.1 Section {n}", 12, True)]) for n in range(1, 7)]
    assert _titles(pages) == [f"{n}.1 Section {n}" for n in range(1, 7)]


def test_monospace_set_larger_than_the_body_is_a_heading_but_body_size_code_is_not() -> None:
    pages = [_page(1, [("4.1 control", 14.3, True), ("4.2 copyright", 14.3, True)], mono={"4.1 control", "4.2 copyright"}),
             _page(2, [("make install", 10.0, True)], mono={"make install"})]
    assert _titles(pages) == ["4.1 control", "4.2 copyright"]


def test_chapter_label_above_the_title_gives_the_title_its_number() -> None:
    page = PageLayout(number=3, width=595, height=842, lines=[
        Line("Chapter 3", 72, 100, 160, 120, 20, True, "Sans"),
        Line("Lists and Records", 72, 140, 300, 165, 24, True, "Sans"),
        Line(BODY, 72, 200, 520, 210, 10, False, "Serif"), Line(BODY, 72, 213, 520, 223, 10, False, "Serif")])
    assert [h.title for h in detect_headings([page])] == ["3 Lists and Records"]


def test_reference_entries_sharing_a_leading_word_are_not_sections() -> None:
    entries = [(f"Decoration {name}", 12, True) for name in ("zigzag", "saw", "bumps", "coil", "snake")]
    classes = [(f"{name} Class Reference", 12, True) for name in ("Graph", "Node", "Edge", "Tree")]
    pages = [_page(1, [("1 Decorations", 16, True)] + entries), _page(2, [("2 Classes", 16, True)] + classes)]
    assert _titles(pages) == ["1 Decorations", "2 Classes"] + [c[0] for c in classes]


def test_code_signatures_are_not_sections() -> None:
    pages = [_page(1, [("Built-in functions", 14.3, True), ("Module:init/1", 12, True), ("Decode(Bin, Opts)", 12, True),
                       ("Process flags", 14.3, True)])]
    assert _titles(pages) == ["Built-in functions", "Process flags"]


def test_numbering_deeper_than_subsections_is_left_out_of_the_outline() -> None:
    heads = [("1 Basics", 16, True), ("1.1 Types", 14, True), ("1.1.1 Integers", 12, True), ("1.1.1.1 Overflow", 11, True),
             ("1.2 Names", 14, True), ("2 Classes", 16, True)]
    assert _titles([_page(1, heads)]) == ["1 Basics", "1.1 Types", "1.1.1 Integers", "1.2 Names", "2 Classes"]


def test_heading_hyphenated_over_two_lines_is_mended() -> None:
    page = PageLayout(number=5, width=595, height=842, lines=[
        Line("7.7 Relationships between source and binary pack-", 72, 100, 540, 114, 14.3, True, "Sans"),
        Line("ages - Build-Depends", 72, 117, 250, 131, 14.3, True, "Sans"),
        Line(BODY, 72, 160, 520, 170, 10, False, "Serif"), Line(BODY, 72, 173, 520, 183, 10, False, "Serif")])
    assert [h.title for h in detect_headings([page])] == ["7.7 Relationships between source and binary packages - Build-Depends"]


def test_bullets_and_lists_of_section_numbers_are_not_headings() -> None:
    pages = [_page(1, [("1 Changes", 16, True), ("• Essential packages", 10, True), ("6.5 & 6.6", 10, True),
                       ("2 Upgrading", 16, True)])]
    assert _titles(pages) == ["1 Changes", "2 Upgrading"]


def test_title_page_lines_are_not_sections() -> None:
    pages = [_page(1, [("Debian Policy Manual", 24.8, True), ("Release 4.6.2.0", 17.2, True)])]
    pages += [_page(n, [(f"{n - 1} Chapter {n - 1}", 14.3, True)]) for n in range(2, 7)]
    assert _titles(pages) == [f"{n} Chapter {n}" for n in range(1, 6)]


def test_float_captions_and_lines_opening_with_a_stray_glyph_are_not_sections() -> None:
    pages = [_page(1, [("Overview", 14.3, True), ("Table 1: Symbol abbreviations", 12, True),
                       ("\x88 A reference inside a heading", 12, True)]),
             _page(2, [("Usage", 14.3, True), ("//github.com/someone/package to report bugs", 12, True),
                       ("Figure 2. The layout", 12, True), ("Tables and figures", 12, True)])]
    assert _titles(pages) == ["Overview", "Usage", "Tables and figures"]


def test_unnumbered_heads_below_the_top_numbered_level_of_a_numbered_document_are_not_sections() -> None:
    # LaTeX's starred sections and run-in labels stay out of its outline; "Change History" and "Index", set like
    # the numbered sections, are in it.
    pages = [_page(n, [(f"{n} Section {n}", 14.3, True), (f"{n}.1 Part one of {n}", 12, True),
                       (f"Changes between versions 1.{n} and 1.{n + 1}", 12, True)]) for n in range(1, 4)]
    pages.append(_page(4, [("Change History", 14.3, True), ("Index", 14.3, True)]))
    assert _titles(pages) == [t for n in range(1, 4) for t in (f"{n} Section {n}", f"{n}.1 Part one of {n}")] + [
        "Change History", "Index"]


def test_an_author_address_is_not_a_section() -> None:
    pages = [_page(1, [("F. Pantigny fpantigny@example.org", 12, True), ("Overview", 14.3, True)]),
             _page(2, [("Usage", 14.3, True), ("See https://example.org/manual", 12, True)])]
    assert _titles(pages) == ["Overview", "Usage"]


def test_a_numbered_list_in_bold_is_not_a_run_of_chapters() -> None:
    # The document numbers its sections "2.1"; "1. Free Redistribution" in bold at body size is a list item.
    pages = [_page(n, [(f"{n}.{k} Section {n}.{k}", 14.3, True) for k in (1, 2)]) for n in range(1, 4)]
    pages.append(_page(4, [("4.1 Guidelines", 14.3, True)] + [(f"{k}. Item number {k}", 10, True) for k in range(1, 5)]))
    assert _titles(pages) == [f"{n}.{k} Section {n}.{k}" for n in range(1, 4) for k in (1, 2)] + ["4.1 Guidelines"]
