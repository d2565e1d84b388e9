"""Markdown manuals: CommonMark headings (ATX and setext, not inside code), front matter out of the text,
virtual pages, heading-less documents, a 10 MB single line."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.blocks import assign_pages, split_long
from parsers.markdown_doc import read_markdown
from parsers.pipeline import PipelineSettings, index_document
from parsers.samples_markup import MANUAL_MD


def _index(tmp_path: Path, text: str, name: str = "doc.md", **settings):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return index_document(path, "doc", PipelineSettings(**settings))


def test_every_heading_becomes_a_node_with_its_level_and_code_is_not_a_heading(tmp_path):
    index = _index(tmp_path, MANUAL_MD)
    got = [(n.level, n.title) for n in index.tree.root.walk()][1:]
    assert got == [(1, "AquaFlow PC-400 Quick Start Guide"), (2, "Installation"), (3, "Wiring"), (2, "Operation"),
                   (2, "Troubleshooting")]
    assert index.tree.source_format == "markdown" and index.tree.page_kind == "virtual"
    wiring = next(r for r in index.nodes if r.title == "Wiring")
    assert "# This is not a heading" in wiring.text  # the fenced block stays in its section's text
    assert index.tree.extra["title"] == "AquaFlow PC-400 Quick Start Guide"


def test_front_matter_is_metadata_not_text(tmp_path):
    index = _index(tmp_path, "---\ntitle: Pump Notes\nsecret_key: abc\n---\n\nBody text here.\n")
    assert index.tree.extra["title"] == "Pump Notes"
    assert "secret_key" not in index.pages[0].text and index.pages[0].text == "Body text here."


def test_inline_markup_is_removed_from_heading_titles(tmp_path):
    index = _index(tmp_path, "# The `P01` *target* [pressure](https://example.com)\n\ntext\n")
    assert index.tree.root.nodes[0].title == "The P01 target pressure"


def test_headingless_markdown_gets_page_groups_over_virtual_pages(tmp_path):
    text = "\n\n".join(f"Paragraph {i}: " + "words of the manual " * 40 for i in range(30))
    index = _index(tmp_path, text, page_group_size=3)
    assert index.stats["pages"] > 3 and index.tree.structure_source == "pages"
    assert {n.extra.get("kind") for n in index.tree.root.nodes} == {"page_group"}
    assert index.tree.root.nodes[0].title == "Pages 1\u20133"


@pytest.mark.timeout(300)  # a hang guard: the cut is linear (a quadratic one took minutes)
def test_ten_megabyte_single_line_is_cut_into_pages(tmp_path):
    path = tmp_path / "one-line.md"
    path.write_text("word " * 2_000_000)
    doc = read_markdown(path, 1 << 30)
    blocks = split_long(doc.blocks, 6000)
    pages, kind = assign_pages(blocks, 3000)
    assert kind == "virtual" and 1600 <= pages <= 3400
    assert max(len(b.text) for b in blocks) <= 6000
