"""Node ranges, made-up node kinds, and splitting of long leaves (parsers.ranges, parsers.structure)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.ranges import Entry, build_tree, page_groups
from parsers.structure import split_long_leaves


def test_ranges_nest_and_front_matter_is_marked() -> None:
    root = build_tree([Entry(1, "A", 3), Entry(2, "A.1", 4), Entry(1, "B", 7)], 9, "doc")
    got = [(n.title, n.level, n.start_page, n.end_page, n.extra.get("kind")) for n in root.walk()]
    assert got == [("doc", 0, 1, 9, None), ("Front matter", 1, 1, 2, "front_matter"), ("A", 1, 3, 6, None),
                   ("A.1", 2, 4, 6, None), ("B", 1, 7, 9, None)]


def test_page_groups_are_marked() -> None:
    root = page_groups(25, "doc", 10)
    assert [(n.title, n.start_page, n.end_page, n.extra.get("kind")) for n in root.nodes] == [
        ("Pages 1\u201310", 1, 10, "page_group"), ("Pages 11\u201320", 11, 20, "page_group"),
        ("Pages 21\u201325", 21, 25, "page_group")]


def _pdf(path: Path, pages: int, headings: dict[int, str]) -> Path:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        if n in headings:
            page.insert_text((72, 100), headings[n], fontname="hebo", fontsize=16)
        for k in range(20):
            page.insert_text((72, 140 + 14 * k), "body text line that goes on and on for a while here", fontsize=10)
    doc.save(path)
    return path


def test_long_leaf_without_headings_is_split_into_page_groups(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "a.pdf", 30, {})
    with PdfSource(path) as pdf:
        entries, info = split_long_leaves([Entry(1, "Short", 1), Entry(1, "Long", 5)], pdf, 10)
    assert entries == [Entry(1, "Short", 1), Entry(1, "Long", 5), Entry(2, "Long (pages 5\u201314)", 5, "page_group"),
                       Entry(2, "Long (pages 15\u201324)", 15, "page_group"), Entry(2, "Long (pages 25\u201330)", 25, "page_group")]
    assert info["by_pages"] == 1 and info["by_headings"] == 0


def test_long_leaf_is_split_by_its_own_headings(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "b.pdf", 24, {1: "Chapter one", 3: "Background", 9: "Method", 16: "Results"})
    with PdfSource(path) as pdf:
        entries, info = split_long_leaves([Entry(1, "Chapter one", 1)], pdf, 10)
    assert entries == [Entry(1, "Chapter one", 1), Entry(2, "Background", 3), Entry(2, "Method", 9), Entry(2, "Results", 16)]
    assert info["by_headings"] == 1


def test_bookmark_leaves_are_split_by_pages_only(tmp_path: Path) -> None:
    path = _pdf(tmp_path / "c.pdf", 14, {2: "Middle heading"})
    with PdfSource(path) as pdf:
        entries, _ = split_long_leaves([Entry(1, "Everything", 1)], pdf, 10, by_headings=False)
    assert [e.kind for e in entries] == ["", "page_group", "page_group"]


def test_dense_short_leaf_is_split_by_tokens(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(4):
        page = doc.new_page(width=1800, height=2600)
        # ~30k characters a page: ~7.5k tokens a page, ~30k for the four-page leaf
        page.insert_text((20, 20), "\n".join(["dense tabular figures 12345 67890 " * 3] * 300), fontsize=6, lineheight=1.4)
    doc.save(tmp_path / "d.pdf")
    with PdfSource(tmp_path / "d.pdf") as pdf:
        entries, info = split_long_leaves([Entry(1, "Tables", 1)], pdf, 10, by_headings=False)
    assert info["by_pages"] == 1
    assert [(e.page, e.kind) for e in entries[1:]] == [(1, "page_group"), (3, "page_group")]
