"""Entries a contents lists without page numbers after its last numbered one (an appendix's "Table of Figures",
"Bibliography", "Index" set with lettered roman pages the offsets cannot map): each is looked for in the body after the
entries before it. One whose title the body does not print (the body heads it "List of Figures") must not push the
others to the end of the document. The expected pages come from the construction below."""

from __future__ import annotations

from parsers.numbering import PageNumber, parse_numbering
from parsers.offsets import map_entries
from parsers.toc import TocEntry, is_heading

PAGES = 30


def _texts() -> list[str]:
    texts = ["Widget Guide", "Contents\n1 Introduction 1\n2 Usage 5\nTable of Figures\nBibliography\nIndex"]
    for n in range(3, PAGES + 1):
        body = f"Some text of page {n} about widgets and their settings."
        if n == 3:
            body = "1 Introduction\n" + body
        if n == 7:
            body = "2 Usage\n" + body
        if n == 23:
            body = "List of Figures\n1 A widget . . . 4"
        if n == 25:
            body = "Bibliography\n[1] A. Author. Widgets, with an index of terms. 2020."
        if n == 27:
            body = "Index\nwidget, 3\nsettings, 5"
        texts.append(f"{body}\n{n - 2}")
    return texts


def _entry(title: str, page: int | None) -> TocEntry:
    return TocEntry(title=title, page=PageNumber(page, "arabic") if page else None, level=1,
                    numbering=parse_numbering(title), toc_page=2)


def test_an_unnumbered_entry_found_nowhere_does_not_push_the_next_ones_to_the_end() -> None:
    entries = [_entry("1 Introduction", 1), _entry("2 Usage", 5), _entry("Table of Figures", None),
               _entry("Bibliography", None), _entry("Index", None)]
    map_entries(entries, _texts(), [None] * PAGES, [2])
    got = {e.title: e.physical for e in entries}
    assert got["1 Introduction"] == 3 and got["2 Usage"] == 7
    assert got["Bibliography"] == 25
    assert got["Index"] == 27  # headed there; the bibliography's text only mentions an index
    assert 7 <= got["Table of Figures"] <= 25  # found nowhere: between its neighbours, never past the next one


def test_content_in_the_singular_is_a_contents_heading() -> None:
    assert is_heading("Content") and is_heading("CONTENT") and is_heading("Contents")
    assert not is_heading("Content types")
