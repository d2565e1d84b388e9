"""The shared shape of a document read from markup (HTML, Markdown): a flat run of text blocks.

A block is a paragraph, a table row, a list item or a heading, in document order, with the page it falls on
and what its styling says. Pages, the tree and each node's own text are all cut at block boundaries, so a
section's text is exactly the blocks from its heading to the next heading, wherever the pages break.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

VIRTUAL_PAGE_CHARS = 3000  # the default size of a virtual page (PipelineSettings.virtual_page_chars)


@dataclass
class Style:
    """What a block's text looks like: the share of its characters set bold etc. decides each flag."""

    bold: bool = False
    italic: bool = False
    underline: bool = False
    size: float = 0.0  # font size in pt of most of its characters, 0 when unknown
    centered: bool = False


@dataclass
class Block:
    text: str
    tag: str = "p"  # "h1".."h6" for markup headings, "tr" for table rows, "li", "pre", "p"
    style: Style = field(default_factory=Style)
    ids: list[str] = field(default_factory=list)  # element ids (and <a name>) that start at this block
    links: list[str] = field(default_factory=list)  # internal link targets ("#x" without the "#") in it
    page: int = 1
    in_table: bool = False
    break_before: bool = False  # a hard page break precedes it
    table_id: int = 0  # the outermost table it is part of (0: not in a table)


@dataclass
class Heading:
    """A section start: a block index, its level (1 = top) and the title to show."""

    block: int
    level: int
    title: str
    anchor: str | None = None
    kind: str = ""


_FOLIO = re.compile(
    r"^(?:page\s+)?(?:[A-Z]{1,2}\s?[-\u2013\u2014]\s?)?\d{1,4}(?:\s?[-\u2013\u2014]\s?\d{1,3})?$"
    r"|^[ivxlc]{1,7}$|^[IVXLC]{1,7}$", re.I)


_TRAILING_FOLIO = re.compile(r"^(.*?\D)\s*[|\u2013\u2014-]?\s*((?:[A-Z]{1,2}-)?\d{1,4}|[ivxlc]{1,6})$", re.S)


def folio(text: str) -> str | None:
    """The printed page label a footer line carries ("35", "F-12", "ii", "Page 7"), or None."""
    text = " ".join(text.replace("|", " ").split())
    if not text or len(text) > 16:
        return None
    # The footer's last cell holds the folio when a company name shares the footer row.
    m = _FOLIO.match(text)
    if not m:
        return None
    return re.sub(r"^page\s+", "", text, flags=re.I)


def split_long(blocks: list[Block], limit: int) -> list[Block]:
    """Blocks over ``limit`` characters cut at whitespace (a 10 MB single-line paragraph must not be one page)."""
    out: list[Block] = []
    for b in blocks:
        if len(b.text) <= limit:
            out.append(b)
            continue
        text, at, first = b.text, 0, True
        while at < len(text):
            # Positions, not slices of the rest: a 10 MB line must not be copied once per piece.
            end = min(len(text), at + limit)
            if end < len(text):
                space = text.rfind(" ", at + limit // 2, end)
                end = space if space > at else end
            piece = text[at:end].strip()
            at = end
            if piece:
                out.append(Block(piece, b.tag, b.style, b.ids if first else [], b.links if first else [], b.page,
                                 b.in_table, b.break_before and first, b.table_id))
                first = False
    return out


def assign_pages(blocks: list[Block], virtual_chars: int) -> tuple[int, str]:
    """Number the pages: at hard breaks when the document has them ("physical"), else every ~``virtual_chars``
    characters at a block boundary ("virtual"). Returns (page count, page kind)."""
    if any(b.break_before for b in blocks):
        page, seen_text = 1, False
        for b in blocks:
            if b.break_before and seen_text:
                page += 1
                seen_text = False
            b.page = page
            seen_text = seen_text or bool(b.text.strip())
        return page, "physical"
    page, size = 1, 0
    for b in blocks:
        if size and size + len(b.text) > virtual_chars:
            page, size = page + 1, 0
        b.page = page
        size += len(b.text) + 1
    return page, "virtual"


def page_texts(blocks: list[Block], page_count: int) -> list[str]:
    parts: list[list[str]] = [[] for _ in range(page_count)]
    for b in blocks:
        if b.text:
            parts[b.page - 1].append(b.text)
    return ["\n".join(p) for p in parts]


def page_labels(blocks: list[Block], page_count: int, page_kind: str) -> list[str | None]:
    """The printed folio of each physical page: the last (or first) short line of the page when it reads like one.

    A label is kept only when folios run through the document (at least a third of its pages carry one):
    a stray "2" closing a page of a table is not a page number.
    """
    labels: list[str | None] = [None] * page_count
    if page_kind != "physical":
        return labels
    by_page: list[list[Block]] = [[] for _ in range(page_count)]
    for b in blocks:
        if b.text.strip():
            by_page[b.page - 1].append(b)
    # A running footer with the folio in its text ("Acme Corp 2023 Annual Report 35"): the words before the
    # folio repeat on many pages.
    running: dict[str, int] = {}
    for page in by_page:
        for b in page[-2:] + page[:1]:
            # Length first: the pattern's lazy prefix makes a match cost the square of a long paragraph's length.
            m = _TRAILING_FOLIO.match(b.text) if len(b.text) <= 120 else None
            if m:
                running[m.group(1).casefold()] = running.get(m.group(1).casefold(), 0) + 1
    footers = any(count * 3 >= page_count for count in running.values())
    for n, page in enumerate(by_page):
        candidates = page[-2:][::-1] + page[:1]  # footers close a page; some filers head the page with it
        for b in candidates:
            # A footer row may carry the company, the form and the folio in cells of their own.
            cells = [c.strip() for c in b.text.split("|") if c.strip()]
            texts = [b.text] + cells[::-1] if len(cells) > 1 else [b.text]
            m = _TRAILING_FOLIO.match(b.text) if footers else None
            if m and running.get(m.group(1).casefold(), 0) * 3 >= page_count:
                texts.append(m.group(2))
            for text in texts:
                label = folio(text)
                if label:
                    labels[n] = label
                    break
            if labels[n]:
                break
    if sum(label is not None for label in labels) * 3 < page_count:
        return [None] * page_count
    return labels
