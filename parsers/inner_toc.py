"""Contents listings inside the body: a section's own table of contents gives that section's children.

A 10-K's Item 8 opens with an "Index to Consolidated Financial Statements" (statements, notes, the
auditor's report, each with a page number); a long chapter may open with its own short contents.
When the front TOC lists such a section as a leaf, the listing printed in its first pages is read
like the front TOC (same line reader, same offset mapping and verification) and its entries that
check out inside the section become the section's children. Pure over PdfSource pages.
"""

from __future__ import annotations

from typing import Any, Sequence

from parsers.layout import PageLayout
from parsers.offsets import CHECKED, map_entries, title_key
from parsers.ranges import Entry, build_tree
from parsers.toc import TocEntry, assign_levels, credible_entries, page_is_toc, read_page_entries, screen_page, to_entry

LOOK_PAGES = 3  # a section's own listing is printed within its first pages
MIN_LEADERS = 3  # leader runs a page needs before it gets a positioned layout
MIN_CHILDREN = 3


def add_inner_tocs(
    entries: list[Entry],
    page_count: int,
    text: Any,
    layout: Any,
    labels: Sequence[str | None],
    skip_pages: Sequence[int] = (),
) -> tuple[list[Entry], list[dict[str, Any]]]:
    """``entries`` with the children read from contents listings at the start of leaf sections.

    ``text(n)``/``layout(n)`` are the document's pages (layouts are built only for pages with leader
    runs); ``skip_pages`` are the front TOC's pages. Returns the entries and one record per listing used.
    """
    root = build_tree(entries, page_count, "")
    known = {title_key(e.title) for e in entries} - {""}
    texts: list[str] | None = None
    inserts: dict[int, list[Entry]] = {}  # index in ``entries`` of the leaf -> its children
    used: list[dict[str, Any]] = []
    order = list(root.walk())[1:]
    for i, node in enumerate(order):
        if node.nodes or node.end_page - node.start_page < 2:
            continue
        for p in range(node.start_page, min(node.end_page - 1, node.start_page + LOOK_PAGES - 1) + 1):
            if p in skip_pages or screen_page(text(p))[1] < MIN_LEADERS:
                continue
            lay: PageLayout = layout(p)
            raws = credible_entries(read_page_entries(lay))
            if not page_is_toc(raws, len(lay.lines)):
                continue
            if texts is None:
                texts = [text(n) for n in range(1, page_count + 1)]
            listed = [to_entry(r, [lay]) for r in raws]
            assign_levels(listed)
            map_entries(listed, texts, labels, [p])
            kids = _inside(listed, p, node.end_page, known)
            if len(kids) >= MIN_CHILDREN:
                inserts[i] = [Entry(node.level + e.level, e.title, e.physical or p) for e in kids]
                known |= {title_key(e.title) for e in kids}
                used.append({"section": node.title, "page": p, "listed": len(listed), "children": len(kids)})
            break
    if not inserts:
        return entries, used
    out: list[Entry] = []
    for i, e in enumerate(entries):
        out.append(e)
        out.extend(inserts.get(i, []))
    return out, used


def _inside(listed: list[TocEntry], page: int, end: int, known: set[str]) -> list[TocEntry]:
    """Listed entries that check out in the body between the listing and the section's end, in page order."""
    with_pages = [e for e in listed if e.page is not None or e.link is not None]
    good = [e for e in with_pages if e.status in CHECKED and e.physical is not None and page <= e.physical <= end]
    if len(good) < 0.5 * max(len(with_pages), 1):
        return []  # a listing of something else (an index of the whole book, a table of figures)
    out: list[TocEntry] = []
    last = page
    for e in good:
        key = title_key(e.title)
        if not key or key in known or e.physical < last:  # type: ignore[operator]
            continue
        out.append(e)
        last = e.physical  # type: ignore[assignment]
    top = min((e.level for e in out), default=1)
    for e in out:
        e.level = e.level - top + 1
    return out
