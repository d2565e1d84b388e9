"""Outline checks: usable outlines pass through intact, unusable ones are rejected with a reason."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from parsers.bookmarks import check_outline, read_bookmarks, read_outline_pypdf
from parsers.pdf import PdfSource
from parsers.ranges import Entry, build_tree
from parsers.structure import recover_structure


def _pdf(path: Path, pages: int, toc: list | None = None) -> Path:
    doc = pymupdf.open()
    for i in range(pages):
        doc.new_page().insert_text((72, 72), f"Page body {i + 1}")
    if toc:
        doc.set_toc(toc)
    doc.save(path)
    return path


def test_every_bookmark_becomes_a_node_with_title_level_and_page(tmp_path: Path) -> None:
    toc = [[1, "Intro", 2], [2, "Scope", 2], [2, "Terms", 3], [1, "Usage", 5], [2, "Running  it", 6], [3, "Flags", 6]]
    path = _pdf(tmp_path / "b.pdf", 8, toc)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=10)
    assert result.source == "bookmarks"
    root = build_tree(result.entries, 8, "doc")
    nodes = [(n.level, n.title, n.start_page) for n in root.walk()][1:]
    assert nodes == [(1, "Intro", 2), (2, "Scope", 2), (2, "Terms", 3), (1, "Usage", 5), (2, "Running it", 6), (3, "Flags", 6)]
    assert not any(n.extra.get("kind") for n in root.walk())


def test_pypdf_reads_the_same_outline(tmp_path: Path) -> None:
    toc = [[1, "One", 1], [2, "One.a", 2], [1, "Two", 3]]
    path = _pdf(tmp_path / "b.pdf", 4, toc)
    assert read_outline_pypdf(path) == [(1, "One", 1), (2, "One.a", 2), (1, "Two", 3)]


@pytest.mark.parametrize(
    "raw, pages, reason",
    [
        ([], 5, "no outline"),
        ([(1, "A", -1), (1, "B", 0)], 5, "no outline entry points at a page"),
        ([(1, "A", 1), (1, "B", 90), (1, "C", 91), (1, "D", 92)], 5, "point outside the document"),
        ([(1, "A", 3), (1, "B", 3), (1, "C", 3)], 9, "all 3 outline entries point at page 3"),
        ([(1, "Page 1", 1), (1, "Page 2", 2), (1, "Page 3", 3)], 9, "generic"),
        ([(1, "A", 9), (1, "B", 7), (1, "C", 5), (1, "D", 3), (1, "E", 1)], 9, "backwards"),
    ],
)
def test_unusable_outlines_are_rejected(raw, pages, reason) -> None:
    entries, why, _ = check_outline(raw, pages)
    assert entries == [] and why is not None and reason in why


def test_small_defects_are_repaired_not_rejected() -> None:
    raw = [(1, "A", 1), (3, "Deep jump", 2), (1, "B", 99), (1, "C", 4)]
    entries, why, info = check_outline(raw, 5)
    assert why is None
    assert entries == [Entry(1, "A", 1), Entry(2, "Deep jump", 2), Entry(1, "C", 4)]
    assert info["out_of_range"] == 1 and info["levels_repaired"] == 1


def test_rejected_outline_falls_through_and_records_why(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "b.pdf", 6, [[1, "Page 1", 1], [1, "Page 2", 2], [1, "Page 3", 3]])
    with PdfSource(path) as pdf:
        entries, why, info = read_bookmarks(pdf)
        result = recover_structure(pdf)
    assert entries == [] and "generic" in why
    assert result.decisions["tried"][0]["method"] == "bookmarks" and "generic" in result.decisions["tried"][0]["reason"]
    assert result.source != "bookmarks"
