"""The body begins on the contents' last page, under the listing (article-like classes): the first section is listed
with that page's number and its heading under the listing is not read as one more entry."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 612, 792
PROSE = "The method is described in plain words here, with enough text on every page to read as the body. "
CHAPTERS = ["Getting Started", "Daily Operation", "Maintenance Schedule", "Safety Rules", "Troubleshooting"]


def _book(path: Path) -> Path:
    """Title page; page 2 holds the contents and, under it, section 1 (printed page 1); 2 pages a section after."""
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 200), "A Small Handbook", fontname="hebo", fontsize=24)
    page = doc.new_page(width=W, height=H)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=16)
    for i, title in enumerate(CHAPTERS):
        y, num = 110 + 16 * i, str(1 if i == 0 else 2 * i)
        page.insert_text((72, y), f"{i + 1} {title}", fontsize=11)
        page.insert_text((300, y), " ." * 50, fontsize=11)
        page.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
    page.insert_text((72, 230), f"1 {CHAPTERS[0]}", fontname="hebo", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 245, 540, 700), PROSE * 3, fontsize=11)  # the listing fills most of the page
    page.insert_text((W / 2, H - 40), "1", fontsize=9)
    for i, title in enumerate(CHAPTERS[1:], 1):
        for k in range(2):
            p = doc.new_page(width=W, height=H)
            if k == 0:
                p.insert_text((72, 90), f"{i + 1} {title}", fontname="hebo", fontsize=14)
            p.insert_textbox(pymupdf.Rect(72, 120, 540, 700), PROSE * 8, fontsize=11)
            p.insert_text((W / 2, H - 40), str(2 * i + k), fontsize=9)
    doc.save(path)
    return path


def test_the_first_section_under_the_listing_is_one_entry_on_that_page(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "b.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [(f"{i + 1} {t}", 2 if i == 0 else 2 * i + 1)
                                                           for i, t in enumerate(CHAPTERS)]
