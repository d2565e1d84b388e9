"""Two more shapes of DocBook FOP's anchor left at the foot of the page before its heading (seen on ll-reportmanual's
"Value Types" and "Person Functions" and libraw1394's "raw1394_get_userdata"): the link's page names the title in
passing, in its prose ("the value types used in programs"), and sets it nowhere as a line of its own while the next
page heads it; and the body ran low, so the anchor lies in the foot zone, between the body's last line and the folio.
Both go to the next page. A link whose page names the title in passing while the next page does not head it either is
kept, and so is a link above a chapter opening that sets the title with its number spelled out ("CHAPTER TWO" over
"TOOLS") while the next page's running head numbers it ("2 Tools"). The expected pages come from the construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.support.contents_pdf import linked_contents

W, H = 612, 792
PROSE = "The library keeps one handle for each open connection and reports errors through return codes. " * 4
# (title, printed page listed, physical page that heads it (None: none does), page the link names, destination height)
ROWS = [("Overview", 1, 2, 2, 80.0), ("Value types", 2, 4, 3, 650.0), ("Handlers", 4, 5, 5, 80.0),
        ("Person functions", 5, 7, 6, 735.0), ("Record tasks", 7, None, 8, 650.0), ("2 Tools", 9, 10, 10, 40.0)]
# physical page -> a sentence of its prose that names a title in passing
MENTIONS = {3: "The next section describes the value types used in programs.",
            8: "Programs run record tasks in turn.", 9: "Every one of the record tasks is queued."}


def build(path: Path) -> None:
    doc = pymupdf.open()
    for _ in range(11):
        doc.new_page(width=W, height=H)
    linked_contents(doc[0], [(title, printed, link, to_y) for title, printed, _, link, to_y in ROWS])
    heads = {body: title for title, _, body, _, _ in ROWS if body is not None and body < 10}
    for n in range(2, 12):
        page = doc[n - 1]
        y = 90.0
        if n == 10:  # a chapter opening that spells its number out, the link above its every line
            page.insert_text((72, 60), "CHAPTER TWO", fontname="hebo", fontsize=12)
            page.insert_text((72, y), "TOOLS", fontname="hebo", fontsize=14)
            y += 30
        if n == 11:  # the next page's running head names the chapter with its number
            page.insert_text((72, 40), "2 Tools", fontname="helv", fontsize=9)
        if n in heads:
            page.insert_text((72, y), heads[n], fontname="hebo", fontsize=14)
            y += 30
        page.insert_textbox(pymupdf.Rect(72, y, W - 72, y + 300), MENTIONS.get(n, "") + " " + PROSE, fontname="helv",
                            fontsize=10)
        if n == 6:  # the body runs low, into the foot zone, and ends above the anchor at 735
            for base in range(430, 727, 12):
                page.insert_text((72, base), "The library reports errors through return codes.", fontname="helv",
                                 fontsize=10)
        page.insert_text((W / 2, H - 30), str(n - 1), fontsize=9)  # the folio, the page's lowest line
    doc.save(path)


def _pages(path: Path) -> dict[str, int]:
    result = recover_structure(PdfSource(path), max_leaf_pages=0)
    assert result.source == "toc"
    return {e.title: e.page for e in result.entries}


def test_an_anchor_below_a_body_that_names_the_title_in_passing_goes_to_the_page_that_heads_it(tmp_path: Path) -> None:
    path = tmp_path / "foot.pdf"
    build(path)
    with pymupdf.open(path) as doc:  # the construction: page 6's body ends above the anchor, in the foot zone
        lines = [b for b in doc[5].get_text("dict")["blocks"] if b.get("lines")]
        bottoms = sorted(ln["bbox"][3] for b in lines for ln in b["lines"])
        assert H * 0.9 < bottoms[-2] < 735 < bottoms[-1]
    pages = _pages(path)
    assert pages["Value types"] == 4
    assert pages["Person functions"] == 7
    assert pages["Overview"] == 2 and pages["Handlers"] == 5


def test_a_chapter_opening_its_page_under_the_link_stays_there(tmp_path: Path) -> None:
    # The page sets the chapter's title (its number spelled out) and the link lies above it: the running head of the
    # next page, which numbers the title, does not draw the entry there (flint's chapters).
    path = tmp_path / "foot.pdf"
    build(path)
    assert _pages(path)["2 Tools"] == 10


def test_a_title_named_in_passing_on_both_pages_stays_at_the_link(tmp_path: Path) -> None:
    path = tmp_path / "foot.pdf"
    build(path)
    assert _pages(path)["Record tasks"] == 8
