"""SEC filings (10-K, 10-Q): the back matter their printed TOC leaves out.

A filing's printed TOC ends with its last Item (or "Signatures"); the signature page and the
exhibits filed with it (certifications "Exhibit 31.1", consents "Exhibit 23", ...) follow, each
starting on a new page whose first line names it. Filers' outlines list them; the printed TOC
usually does not. Pure over page texts.
"""

from __future__ import annotations

import re
from typing import Callable

from parsers.numbering import parse_numbering
from parsers.offsets import title_key
from parsers.ranges import Entry

MIN_ITEMS = 3  # TOC entries numbered "Item N" that make a document a filing
_BACK = re.compile(r"^(?:signatures?|exhibit\s+\d{1,3}(?:\.\d{1,3})*[a-z]?|exhibit\s+index|index\s+to\s+exhibits)\s*[.:]?$", re.I)
_SKIP = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6}|table\s+of\s+contents|page\s+\d+(?:\s+of\s+\d+)?)$", re.I)


def is_filing(entries: list[Entry]) -> bool:
    """A TOC with several "Item N" entries is a 10-K/10-Q style filing."""
    items = 0
    for e in entries:
        n = parse_numbering(e.title)
        items += n is not None and n.kind == "item"
    return items >= MIN_ITEMS


def back_matter(entries: list[Entry], page_count: int, text: Callable[[int], str]) -> list[Entry]:
    """Level-1 entries for the signature and exhibit pages after the TOC's last entry, not already listed."""
    if not entries:
        return []
    known = {title_key(e.title) for e in entries}
    out: list[Entry] = []
    for page in range(entries[-1].page + 1, page_count + 1):
        name = _page_name(text(page))
        if name and title_key(name) not in known:
            known.add(title_key(name))
            out.append(Entry(1, name, page))
    return out


def _page_name(page_text: str) -> str | None:
    """The page's first line when it names back matter; folios and "Table of Contents" back-links come first."""
    for line in page_text.splitlines():
        line = " ".join(line.split())
        if not line or _SKIP.match(line):
            continue
        return line.rstrip(".:") if _BACK.match(line) else None
    return None
