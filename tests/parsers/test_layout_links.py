"""A page layout's links are read when first asked for: only a contents listing's lines need them, while the
headings fallback lays out every page, and walking a page's link chain costs more than reading its text."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource, extract_layout


def _linked_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    for _ in range(3):
        doc.new_page(width=612, height=792)
    page = doc[0]
    for i, y in enumerate((100, 130, 160)):
        page.insert_text((72, y), f"Chapter {i + 1} . . . . . . . {i + 2}", fontsize=10)
        page.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 10, 300, y + 2), "page": min(i + 1, 2)})
    doc.save(path)
    return path


def test_links_are_read_on_first_use_and_match_an_eager_read(tmp_path: Path) -> None:
    path = _linked_pdf(tmp_path / "l.pdf")
    with PdfSource(path) as pdf:
        lay = pdf.layout(1)
        assert lay.links == []  # not read while only the lines were asked for
        lazy = lay.page_links()
        eager = extract_layout(pdf.doc[0], 1).links
    assert [t for *_, t in lazy] == [2, 3, 3]
    assert lazy == eager
    assert lay.links == lazy  # read once, kept


def test_a_layout_built_with_its_links_needs_no_reader(tmp_path: Path) -> None:
    path = _linked_pdf(tmp_path / "l.pdf")
    with pymupdf.open(path) as doc:
        lay = extract_layout(doc[0], 1)
        assert [t for *_, t in lay.page_links()] == [2, 3, 3]
        assert extract_layout(doc[0], 1, links=False).page_links() == []
