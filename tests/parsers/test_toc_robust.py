"""No input crashes the structure chain: odd documents still end with a valid tree."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from parsers.pdf import PdfSource
from parsers.ranges import build_tree, page_groups
from parsers.structure import recover_structure


def _blank(doc: pymupdf.Document) -> None:
    doc.new_page()


def _image_only(doc: pymupdf.Document) -> None:
    page = doc.new_page()
    pix = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 40, 40), False)
    pix.clear_with(200)
    page.insert_image(pymupdf.Rect(72, 72, 300, 300), pixmap=pix)


def _contents_without_entries(doc: pymupdf.Document) -> None:
    page = doc.new_page()
    page.insert_text((72, 90), "Contents", fontsize=18)
    page.insert_text((72, 130), "There is nothing listed here at all.", fontsize=10)


def _toc_pointing_nowhere(doc: pymupdf.Document) -> None:
    page = doc.new_page()
    page.insert_text((72, 90), "Table of Contents", fontsize=18)
    for i in range(8):
        page.insert_text((72, 130 + 18 * i), f"{i + 1} Chapter that does not exist . . . . . . . . {900 + i}", fontsize=10)


def _rotated_and_tiny(doc: pymupdf.Document) -> None:
    page = doc.new_page(width=50, height=50)
    page.insert_text((5, 20), "x", fontsize=4)
    page.set_rotation(90)


@pytest.mark.parametrize("maker", [_blank, _image_only, _contents_without_entries, _toc_pointing_nowhere, _rotated_and_tiny])
def test_odd_documents_get_a_valid_tree(tmp_path: Path, maker) -> None:
    doc = pymupdf.open()
    for _ in range(3):
        maker(doc)
    doc.new_page().insert_text((72, 72), "last page", fontsize=10)
    path = tmp_path / "odd.pdf"
    doc.save(path)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=2)
        root = build_tree(result.entries, pdf.page_count, "odd") if result.entries else page_groups(pdf.page_count, "odd")
        count = pdf.page_count
    assert result.source in ("bookmarks", "toc", "headings", "pages")
    assert result.source != "toc" or maker is not _toc_pointing_nowhere
    nodes = list(root.walk())
    assert nodes[0].start_page == 1 and nodes[0].end_page == count
    assert all(1 <= n.start_page <= n.end_page <= count for n in nodes)
