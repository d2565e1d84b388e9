"""The contents reader's speed-ups give the answers it gave without them: a contents page's reading order is worked
out once per layout object in find_toc, and parse_toc_line answers each text once."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from parsers.layout import PageLayout
from parsers.pdf import PdfSource
from parsers.toc import find_toc, parse_toc_line
from tests.parsers.test_toc_two_columns import _book


def _read(pdf: PdfSource, fresh: bool) -> tuple[list, list[int]]:
    kept: dict[int, PageLayout] = {}

    def layout(n: int) -> PageLayout:
        # fresh: a new object each time it is asked for (a source that keeps no layouts); else one per page
        if fresh:
            return _copy(pdf.layout(n))
        return kept.setdefault(n, pdf.layout(n))

    got = find_toc(pdf.page_count, pdf.text, layout)
    return [(e.title, e.page, e.level, e.x0, e.bold) for e in got.entries], got.pages


def _copy(lay: PageLayout) -> PageLayout:
    return dataclasses.replace(lay, lines=[dataclasses.replace(ln, words=list(ln.words)) for ln in lay.lines])


@pytest.mark.parametrize("two_columns", [True, False])
def test_contents_read_once_per_layout_gives_the_entries_of_pages_read_afresh(tmp_path: Path, two_columns: bool) -> None:
    path = _book(tmp_path / "book.pdf", two_columns=two_columns)
    with PdfSource(path) as pdf:
        same, pages = _read(pdf, fresh=False)
        again, pages_again = _read(pdf, fresh=True)
        assert pages == pages_again == [2]
        assert same == again and len(same) == 24


def test_parse_toc_line_answers_as_the_function_does_and_its_answers_cannot_be_changed() -> None:
    lines = ["1.2 Foo . . . . 17", "Foo 17", "Foo ... xiv", "Part II 3", "18.10tie 4", "2019 2020", "", "   ",
             "Appendix A Tables ..... A-3", "Index 211", "Contents"]
    for text in lines * 2:  # the second time from the cache
        assert parse_toc_line(text) == parse_toc_line.__wrapped__(text)
    parsed = parse_toc_line("Foo 17")
    assert parsed is not None and parsed.page is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.title = "Bar"  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.page.value = 3  # type: ignore[misc]
