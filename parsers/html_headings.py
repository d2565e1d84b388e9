"""Headings of a document read into blocks: markup headings (h1-h6) and styled ones (bold, larger, capitals).

Filings rarely use ``h1``-``h6``: their headings are paragraphs set bold, in capitals, larger or underlined.
A block is a styled heading when it is short, not a sentence, not a table cell, not a running header
repeated on many pages, and set apart from the body text by its style. Levels come from the styles
themselves: the most prominent style in use is the highest level.
"""

from __future__ import annotations

import re
from collections import Counter

from parsers.blocks import Block, Heading, folio

MAX_HEADING_CHARS = 150
MAX_STYLE_LEVELS = 3
MAX_LAYOUT_TABLE_ROWS = 3
_NAV = re.compile(r"^(?:table\s+of\s+contents|index|back\s+to\s+(?:top|contents)|return\s+to\s+top|top)$", re.I)
_CONTINUED = re.compile(r"\(?\bcontinued\)?\s*$", re.I)
_SENTENCE_END = re.compile(r"[.;,]\s*$")
_LETTERS = re.compile(r"[A-Za-z]{3,}")


def body_size(blocks: list[Block]) -> float:
    """The font size most text is set in (0 when no size is known)."""
    raw: dict[float, int] = {}
    for b in blocks:
        raw[b.style.size] = raw.get(b.style.size, 0) + len(b.text)
    sizes: Counter[float] = Counter()
    for size, chars in raw.items():  # rounded once per size in use, in the order of first use (ties keep it)
        sizes[round(size, 1)] += chars
    return sizes.most_common(1)[0][0] if sizes else 0.0


def running_lines(blocks: list[Block], pages: int) -> set[str]:
    """Lines repeated on many pages (running headers and footers, "Table of Contents" back-links)."""
    counts: Counter[str] = Counter(b.text.casefold() for b in blocks if len(b.text) <= MAX_HEADING_CHARS)
    limit = max(4, pages // 8)
    return {t for t, n in counts.items() if n >= limit}


def _prominence(b: Block, base: float) -> tuple[float, ...] | None:
    """A sortable style key for a heading-like block (bigger is more prominent), None for body text."""
    s = b.style
    caps = b.text.isupper()
    bigger = s.size - base if base and s.size else 0.0
    if b.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
        return (10.0 - int(b.tag[1]), 0, 0, 0)
    if not (s.bold or s.underline or (s.italic and not caps) or bigger >= 1.0 or (caps and len(b.text) > 3)):
        return None
    return (round(bigger, 0), float(s.bold and caps), float(s.bold), float(s.underline), float(caps), float(s.italic))


def is_heading_text(text: str) -> bool:
    if len(text) > MAX_HEADING_CHARS or not _LETTERS.search(text) or folio(text):
        return False
    if _NAV.match(text) or _CONTINUED.search(text):
        return False
    if _SENTENCE_END.search(text) and len(text.split()) > 12:
        return False
    if text[0] in "($%\u2014-*\u2022" or text.count("|") > 1:
        return False
    return not text[:1].islower()


def styled_headings(blocks: list[Block], start: int, end: int, base_level: int, running: set[str], base: float,
                    max_levels: int = MAX_STYLE_LEVELS) -> list[Heading]:
    """Styled headings among ``blocks[start:end]`` with levels from ``base_level``."""
    found: list[tuple[int, tuple[float, ...]]] = []
    rows: dict[int, int] = {}
    for b in blocks[start:end]:
        if b.table_id:
            rows[b.table_id] = rows.get(b.table_id, 0) + 1
    for i in range(start, end):
        b = blocks[i]
        # Table rows are data, except a one-cell row of a table of at most three rows: filers set statement
        # titles ("Consolidated Statements of Income") in small layout tables.
        if b.in_table and ("|" in b.text or rows.get(b.table_id, 0) > MAX_LAYOUT_TABLE_ROWS):
            continue
        if not is_heading_text(b.text) or b.text.casefold() in running:  # the length check before a casefold
            continue
        key = _prominence(b, base)
        if key is None:
            continue
        # A heading is followed by text; a bold line followed by nothing is a caption or a signature line.
        if i + 1 >= end:
            continue
        found.append((i, key))
    ranked = sorted({k for _, k in found}, reverse=True)
    level_of = {k: base_level + min(r, max_levels - 1) for r, k in enumerate(ranked)}
    out: list[Heading] = []
    for i, key in found:
        anchor = blocks[i].ids[0] if blocks[i].ids else None
        # Consecutive heading blocks of one style are one heading broken over lines.
        if out and out[-1].block == i - 1 and level_of[key] == out[-1].level and len(out[-1].title) + len(blocks[i].text) < MAX_HEADING_CHARS:
            out[-1].title = f"{out[-1].title} {blocks[i].text}"
            continue
        out.append(Heading(block=i, level=level_of[key], title=blocks[i].text, anchor=anchor))
    return out


def markup_headings(blocks: list[Block]) -> list[Heading]:
    """h1-h6 as headings; levels renumbered so that the top-most level in use is 1 and none is skipped."""
    raw = [(i, int(b.tag[1])) for i, b in enumerate(blocks) if b.tag in ("h1", "h2", "h3", "h4", "h5", "h6")]
    out: list[Heading] = []
    stack: list[int] = []  # markup levels of the open headings
    for i, lvl in raw:
        while stack and stack[-1] >= lvl:
            stack.pop()
        stack.append(lvl)
        b = blocks[i]
        out.append(Heading(block=i, level=len(stack), title=b.text, anchor=b.ids[0] if b.ids else None))
    return out
