"""A back-of-book index within the first 40 pages of a short document is set like a contents (titles, leader dots, page
numbers flush right) but is not one: its terms are alphabetical and point anywhere. Its first page says "Index"; the
pages it runs on to (and a change history, set the same way) do not."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import find_toc

CHAPTERS = ["Installation", "Daily operation", "Maintenance", "Safety rules", "Troubleshooting", "Spare parts"]
TERMS = [("adapter", 5), ("bearing", 2), ("belt tension", 6), ("calibration", 3), ("clutch", 1), ("coolant", 4),
         ("drive shaft", 2), ("filter", 5), ("fuse", 1), ("gasket", 6), ("gear ratio", 3), ("hose", 4),
         ("impeller", 2), ("motor", 1), ("nozzle", 6), ("pressure valve", 3), ("pump", 5), ("seal", 4)]


def _listing(page: pymupdf.Page, rows: list[tuple[str, int]], top: float = 120) -> None:
    for i, (title, number) in enumerate(rows):
        y = top + 20 * i
        page.insert_text((72, y), f"{title} " + ". " * 20, fontname="helv", fontsize=11)
        width = pymupdf.get_text_length(str(number), fontname="helv", fontsize=11)
        page.insert_text((523 - width, y), str(number), fontname="helv", fontsize=11)


def _book(path: Path, index: bool) -> Path:
    """Six one-page chapters with numbered heads and printed folios, then (``index``) two index pages, or a contents
    page first."""
    doc = pymupdf.open()
    if not index:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), "Contents", fontname="hebo", fontsize=16)
        _listing(page, [(f"{n} {t}", n) for n, t in enumerate(CHAPTERS, 1)])
    for n, title in enumerate(CHAPTERS, 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 100), f"{n} {title}", fontname="hebo", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 120, 523, 700), "Body text of the chapter goes on. " * 40,
                            fontname="helv", fontsize=10)
        page.insert_text((290, 800), str(n), fontname="helv", fontsize=9)
    if index:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), "Index", fontname="hebo", fontsize=16)
        _listing(page, TERMS[:4])
        _listing(doc.new_page(width=595, height=842), TERMS[4:])  # the index goes on
    doc.save(path)
    doc.close()
    return path


def test_an_index_in_the_first_pages_is_not_read_as_a_contents(tmp_path: Path) -> None:
    path = _book(tmp_path / "i.pdf", index=True)
    with PdfSource(path) as pdf:
        assert find_toc(pdf.page_count, pdf.text, pdf.layout).pages == []
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings"
    assert [e.title for e in result.entries] == [f"{n} {t}" for n, t in enumerate(CHAPTERS, 1)] + ["Index"]


def test_a_contents_set_the_same_way_is_still_read(tmp_path: Path) -> None:
    path = _book(tmp_path / "c.pdf", index=False)
    with PdfSource(path) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert toc.pages == [1]
    assert [e.title for e in toc.entries] == [f"{n} {t}" for n, t in enumerate(CHAPTERS, 1)]
