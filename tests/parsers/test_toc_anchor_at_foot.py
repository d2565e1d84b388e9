"""A contents link whose destination lies at the foot of its page, below every line of that page's body, while the
page does not print the title and the next one does (DocBook's FOP sets a section's anchor where its space before
begins, so a heading moved on to the next page leaves its anchor behind; libraw1394's and alligata's guides show it):
the section starts on the next page. A destination with text after it on its page (an "Index" anchored above the
last lines of the page before it, which the outline shares: LinuxCNC's manuals) is the section's start and is kept.
The expected pages come from the construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource, page_links
from parsers.structure import recover_structure
from tests.support.contents_pdf import linked_contents

W, H = 612, 792
PROSE = "The library keeps one handle for each open connection and reports errors through return codes. " * 4
# (title, printed page listed, 1-based physical page the heading is set on, page the link names, destination height)
ROWS = [("1 Overview", 1, 2, 2, 80.0), ("2 Ports", 2, 4, 3, 650.0), ("3 Handlers", 4, 5, 5, 80.0),
        ("4 Tasks", 5, 7, 6, 450.0)]


def build(path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(8):
        doc.new_page(width=W, height=H)
    linked_contents(doc[0], [(title, printed, link, to_y) for title, printed, _, link, to_y in ROWS])
    heads = {body: title for title, _, body, _, _ in ROWS}
    for n in range(2, 9):
        page = doc[n - 1]
        y = 90.0
        if n in heads:
            page.insert_text((72, y), heads[n], fontname="hebo", fontsize=14)
            y += 30
        page.insert_textbox(pymupdf.Rect(72, y, W - 72, y + 300), PROSE, fontname="helv", fontsize=10)
        if n == 6:  # the page "4 Tasks" links to: its body goes on under the destination
            page.insert_textbox(pymupdf.Rect(72, 420, W - 72, 700), PROSE, fontname="helv", fontsize=10)
        page.insert_text((W / 2, H - 30), str(n - 1), fontsize=9)  # the folio, in the foot zone
    doc.save(path)


def _pages(path: Path) -> dict[str, int]:
    result = recover_structure(PdfSource(path), max_leaf_pages=0)
    assert result.source == "toc"
    return {e.title: e.page for e in result.entries}


def test_a_destination_below_its_pages_body_goes_to_the_next_page_that_heads_it(tmp_path: Path) -> None:
    path = tmp_path / "foot.pdf"
    build(path)
    with pymupdf.open(path) as doc:  # the construction: each destination lies where it was set
        assert [round(y) for _, _, y, _ in page_links(doc[0])] == [round(r[4]) for r in ROWS]
    pages = _pages(path)
    assert pages["2 Ports"] == 4  # linked to page 3, whose body ends above the destination; headed on page 4
    assert pages["1 Overview"] == 2 and pages["3 Handlers"] == 5


def test_a_destination_with_body_text_after_it_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "foot.pdf"
    build(path)
    assert _pages(path)["4 Tasks"] == 6  # the link's page, though the title is headed on page 7
