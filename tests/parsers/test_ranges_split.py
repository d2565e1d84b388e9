"""Node ranges, made-up node kinds, and splitting of long leaves (parsers.ranges, parsers.structure)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.ranges import Entry, build_tree, front_matter, page_groups
from parsers.structure import recover_structure, split_long_leaves


def test_ranges_nest_and_front_matter_is_the_roots_own_pages() -> None:
    root = build_tree([Entry(1, "A", 3), Entry(2, "A.1", 4), Entry(1, "B", 7)], 9, "doc")
    got = [(n.title, n.level, n.start_page, n.end_page, n.extra.get("kind")) for n in root.walk()]
    # No made-up node for pages 1-2: they belong to the root, and tree.json says so in front_matter.
    assert got == [("doc", 0, 1, 9, None), ("A", 1, 3, 6, None), ("A.1", 2, 4, 6, None), ("B", 1, 7, 9, None)]
    assert front_matter(root) == {"start_page": 1, "end_page": 2}
    assert front_matter(build_tree([Entry(1, "A", 1), Entry(1, "B", 5)], 9, "doc")) is None


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


def _outlined(path: Path, pages: int, toc: list[list], headings: dict[int, str] | None = None) -> Path:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        if n in (headings or {}):
            page.insert_text((72, 100), headings[n], fontname="hebo", fontsize=16)
        page.insert_text((72, 140), "body text line that goes on and on\nand a second line of body text", fontsize=10)
    doc.set_toc(toc)
    doc.save(path)
    return path


def test_chapter_only_bookmarks_are_coarse_and_their_long_leaves_are_split(tmp_path: Path) -> None:
    # 5 chapters of 60 pages; chapter 2 has headings of its own inside.
    toc = [[1, f"Chapter {c}", 1 + 60 * (c - 1)] for c in range(1, 6)]
    path = _outlined(tmp_path / "coarse.pdf", 300, toc, {61: "Chapter 2", 75: "Installing things", 100: "Configuring things"})
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=10)
    assert result.source == "bookmarks" and result.decisions["outline"] == "coarse"
    root = build_tree(result.entries, 300, "doc")
    assert [n.title for n in root.nodes] == [f"Chapter {c}" for c in range(1, 6)]
    assert all(n.nodes for n in root.nodes)  # every 60-page chapter got children
    assert [c.title for c in root.nodes[1].nodes] == ["Installing things", "Configuring things"]
    assert [(c.start_page, c.end_page) for c in root.nodes[0].nodes][:2] == [(1, 10), (11, 20)]
    assert all(c.end_page - c.start_page < 10 for c in root.nodes[0].nodes)


def test_fine_grained_bookmarks_are_kept_verbatim_unless_a_leaf_is_outsized(tmp_path: Path) -> None:
    # 40 one-page sections then a 14-page leaf (kept: under 4 x 10 pages) and a 45-page one (split).
    toc = [[1, f"Section {i}", i] for i in range(1, 41)] + [[1, "Long reference", 41], [1, "Huge appendix", 55]]
    path = _outlined(tmp_path / "fine.pdf", 99, toc)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=10)
        verbatim = recover_structure(pdf, max_leaf_pages=10, outline_split_factor=0)
    assert result.decisions["outline"] == "fine-grained"
    assert [e.title for e in result.entries if not e.kind] == [t for _, t, _ in toc]
    made_up = [(e.title, e.page) for e in result.entries if e.kind]
    assert made_up == [("Huge appendix (pages 55\u201364)", 55), ("Huge appendix (pages 65\u201374)", 65),
                       ("Huge appendix (pages 75\u201384)", 75), ("Huge appendix (pages 85\u201394)", 85),
                       ("Huge appendix (pages 95\u201399)", 95)]
    assert verbatim.entries == [Entry(lv, t, p) for lv, t, p in toc]
