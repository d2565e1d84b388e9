"""A contents listing printed without a "Contents" heading or leader dots, and a body with no text layer."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import listing_like

CHAPTERS = ["About this manual", "Installation", "The basics", "Overview of tools", "Managing a configuration",
            "Customizing contents", "Reporting bugs"]


def _listing_page(doc: pymupdf.Document, entries: list[tuple[str, int]]) -> None:
    """Bold titles with their page number set flush right: no heading, no leaders (SiSU-style front matter)."""
    page = doc.new_page(width=595, height=842)
    for i, (title, number) in enumerate(entries):
        y = 120 + 22 * i
        page.insert_text((72, y), title, fontname="hebo", fontsize=12)
        width = pymupdf.get_text_length(str(number), fontname="hebo", fontsize=12)
        page.insert_text((533 - width, y), str(number), fontname="hebo", fontsize=12)


def _book(path: Path, body_text: bool) -> Path:
    """Title page, a listing page, then chapters of two pages; printed page 1 is the page after the listing."""
    doc = pymupdf.open()
    doc.new_page(width=595, height=842).insert_text((72, 200), "The Live Systems Manual", fontsize=24)
    _listing_page(doc, [(t, 1 + 2 * i) for i, t in enumerate(CHAPTERS)])
    for i, title in enumerate(CHAPTERS):
        for half in range(2):
            page = doc.new_page(width=595, height=842)
            page.draw_line((72, 60), (523, 60))  # a running-head rule: drawn, not text
            if body_text:
                head = f"{i + 1}. {title}" if half == 0 else "Notes"
                page.insert_text((72, 100), head, fontname="hebo", fontsize=16)
                page.insert_textbox(pymupdf.Rect(72, 120, 523, 760), ("Body text of the chapter goes on. " * 40),
                                    fontname="helv", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_listing_like_accepts_titles_followed_by_page_numbers() -> None:
    text = "\n".join(f"{t}\n{1 + 2 * i}" for i, t in enumerate(CHAPTERS))
    assert listing_like(text, 20)
    assert listing_like("\n".join(f"{t} {1 + 2 * i}" for i, t in enumerate(CHAPTERS)), 20)


def test_listing_like_rejects_prose_tables_and_backward_numbers() -> None:
    prose = "The system boots from the medium.\nIt then reads its configuration 3 times.\n" * 5
    assert not listing_like(prose, 100)
    backwards = "\n".join(f"{t} {40 - 5 * i}" for i, t in enumerate(CHAPTERS))
    assert not listing_like(backwards, 100)
    table = "\n".join(f"Revenue {1000 + i}" for i in range(8))  # numbers beyond any page of the document
    assert not listing_like(table, 100)


def test_heading_less_listing_is_read_as_the_contents(tmp_path: Path) -> None:
    path = _book(tmp_path / "book.pdf", body_text=True)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [(t, 3 + 2 * i) for i, t in enumerate(CHAPTERS)]
    assert result.decisions["toc"]["pages"] == [2]


def test_body_without_text_layer_puts_page_one_after_the_contents(tmp_path: Path) -> None:
    # Nothing in the body can confirm an entry (no labels, folios or titles): the listing is the only evidence,
    # and a book's page 1 is the page after its contents.
    path = _book(tmp_path / "textless.pdf", body_text=False)
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [e.page for e in result.entries] == [3 + 2 * i for i in range(len(CHAPTERS))]
    assert result.decisions["toc"]["offset_method"] == "after-contents"
    assert result.decisions["toc"]["unverified_body"] is True


def test_lower_case_page_is_part_of_a_title() -> None:
    from parsers.toc import parse_toc_line

    # Texinfo command names ("new page", "set page") end in the word; only the "Page" column header is dropped.
    assert parse_toc_line("9.3.26 new page . . . . . . 117").title == "9.3.26 new page"
    assert parse_toc_line("Item 7. Management's discussion Page").title == "Item 7. Management's discussion"
