"""A contents printed as a bulleted list of titles without page numbers (a web page's table of contents printed to
PDF: "• Main Menus" over "♦ File menu", each title a link in the HTML), or as a list of numbered titles without page
numbers ("1 Preface" over "1.1 Introduction" and "1.12.1 Windows installation", an HTML manual's generated contents).

The reader of toc.py needs page numbers to tell a contents from other lists. This one needs a contents heading on
the first page instead, and most of the page's lines opening with a bullet; levels come from the bullets' indents
(and glyphs, which go with them). Where the title was a link the PDF keeps it; otherwise offsets.map_entries places
each title on the first page after the previous one that sets it as a line of its own, and structure.py keeps the
listing only when most titles are found so.
"""

from __future__ import annotations

from typing import Callable

from parsers.layout import Line, PageLayout
from parsers.numbering import parse_numbering
from parsers.toc import TocEntry, assign_levels, entry_from_line, is_heading

BULLETS = "\u00b7\u2013\u2022\u2666\u25e6\u25aa\u25a0\u25cf\u25cb\u25ba\u25b8\u2023\u2043"
MIN_ROWS = 6
MIN_LAST_ROWS = 3  # of a continuation page whose rows stop where its body begins
MIN_SHARE = 0.6  # of the page's lines (below the heading, margins left out) that open with a bullet
MAX_TITLE_WORDS = 12
MIN_SECTION_SHARE = 1 / 3  # of a numbered listing's rows numbered below the chapters ("1.1"): a list of steps has none


def _numbered(ln: Line) -> bool:
    n = parse_numbering(ln.text)
    return n is not None and n.kind == "decimal" and bool(n.rest.strip())


def _rows(body: list[Line]) -> list[Line]:
    """The lines of ``body`` that open with a bullet, else (when there are no bulleted ones) those that open with a
    section number, provided enough of them are numbered below the chapters to be a contents' sections."""
    rows = [ln for ln in body if ln.text.lstrip()[:1] in BULLETS and len(ln.text.split()) >= 2]
    if rows:
        return rows
    rows = [ln for ln in body if _numbered(ln)]
    deep = sum(1 for ln in rows if parse_numbering(ln.text).depth >= 2)  # type: ignore[union-attr]
    return rows if deep >= MIN_SECTION_SHARE * len(rows) else []


def bullet_rows(page: PageLayout, after_heading: bool) -> list[Line] | None:
    """The bulleted rows of a contents page (below its contents heading when ``after_heading``), or None."""
    lines = [ln for ln in page.lines if ln.text.strip()]
    start = 0
    if after_heading:
        at = next((i for i, ln in enumerate(lines[:10]) if is_heading(ln.text)), None)
        if at is None:
            return None
        start = at + 1
    # A numbered listing's rows run into the page's margins (a contents set close to the top and foot); its running
    # head and folio are no rows. A bulleted listing's rows are read inside the margins, as they always were.
    inside = [ln for ln in lines[start:] if page.height * 0.09 <= ln.y1 and ln.y0 <= page.height * 0.92]
    rows = _rows(inside)
    if not rows or _numbered(rows[0]):
        rows = [ln for ln in _rows(lines[start:]) if _numbered(ln)]
    ids = {id(ln) for ln in rows}
    body = [ln for ln in lines[start:] if id(ln) in ids or page.height * 0.09 <= ln.y1 and ln.y0 <= page.height * 0.92]
    if len(rows) >= MIN_ROWS and len(rows) >= MIN_SHARE * len(body):
        return rows
    if not after_heading and rows:
        # The listing's last rows on a page of their own, or atop the page the body begins on: the rows that open the
        # page, before its first other line.
        lead = next((i for i, ln in enumerate(body) if id(ln) not in ids), len(body))
        if lead >= MIN_LAST_ROWS:
            return body[:lead]
    return None


def find_bullet_toc(page_count: int, text: Callable[[int], str], layout: Callable[[int], PageLayout],
                    candidates: list[int]) -> tuple[list[TocEntry], list[int]]:
    """Entries and pages of a bulleted contents starting on one of ``candidates`` (pages with a contents heading)."""
    for n in candidates:
        first = layout(n)
        rows = bullet_rows(first, True)
        if rows is None:
            continue
        pages, layouts, per_page = [n], [first], [rows]
        m = n + 1
        while m <= page_count and (more := bullet_rows(layout(m), False)) is not None:
            pages.append(m)
            layouts.append(layout(m))
            per_page.append(more)
            m += 1
        entries = []
        for p, rows in zip(pages, per_page):
            for ln in rows:
                title = ln.text.strip() if _numbered(ln) else ln.text.lstrip()[1:].strip()
                # "Circles & Ellipses | Spline Curves | Polylines ...": a row of links to a page's parts, not a title.
                if not title or "|" in title or len(title.split()) > MAX_TITLE_WORDS:
                    continue
                entry = entry_from_line(ln, title, p, layouts)
                entry.numbering = parse_numbering(title)
                entries.append(entry)
        if len(entries) >= MIN_ROWS:
            assign_levels(entries)
            return entries, pages
    return [], []
