"""SEC filings (10-K, 10-Q): the back matter their printed TOC leaves out.

A filing's printed TOC ends with its last Item (or "Signatures"); the signature page and the
exhibits filed with it (certifications "Exhibit 31.1", consents "Exhibit 23", ...) follow, each
starting on a new page whose first line names it. Filers' outlines list them; the printed TOC
usually does not. Pure over page texts.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable

from parsers import filing_anatomy as fa
from parsers.numbering import parse_numbering
from parsers.offsets import title_key
from parsers.ranges import Entry

MIN_ITEMS = 3  # TOC entries numbered "Item N" that make a document a filing
_BACK = re.compile(r"^(?:signatures?|exhibit\s+\d{1,3}(?:\.\d{1,3})*[a-z]?|exhibit\s+index|index\s+to\s+exhibits)\s*[.:]?$", re.I)
_CERTIFICATION = re.compile(r"^exhibit\s+3[12](?:\.\d+)?\b", re.I)
_SKIP = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6}|table\s+of\s+contents|page\s+\d+(?:\s+of\s+\d+)?)$", re.I)


# The reporting period a financial statement's title carries in a filing's TOC ("Consolidated balance sheets
# (unaudited) at June 30, 2022 and December 31, 2021"): it dates the statement, it is not the section's name.
_PERIOD = re.compile(
    r"\s*\((?:un)?audited\)(?=\s+(?:for|at|as\s+of)\b).*$"
    r"|\s+(?:for\s+the\s+(?:(?:three|six|nine|twelve|thirteen|twenty-six|thirty-nine|fifty-two|fifty-three)\b"
    r"(?:\s+and\s+\w+)?\s+(?:months|weeks)|(?:fiscal\s+)?years?|quarters?|periods?)\s+ended\b"
    r"|(?:at|as\s+of)\s+(?:january|february|march|april|may|june|july|august|september|october|november|december)"
    r"\s+\d{1,2},?\s+\d{4}).*$",
    re.I,
)
_STATEMENT = re.compile(r"\b(?:statements?|balance\s+sheets?|schedules?)\b", re.I)


def statement_title(title: str) -> str:
    """A financial statement's title without the period it covers; other titles unchanged."""
    if not _STATEMENT.search(title):
        return title
    short = _PERIOD.sub("", title).strip(" ,;:-")
    return short if len(short) >= 8 else title


def complete_filing(
    entries: list[Entry], page_count: int, text: Callable[[int], str], contents_heading: str, contents_page: int,
) -> tuple[list[Entry], dict[str, int]]:
    """A filing's TOC entries with statement titles trimmed, body-only Items, back matter and its contents page."""
    entries = [replace(e, title=statement_title(e.title)) for e in entries]
    # Items headed in the body that the printed TOC omits (a form's newer Item 16, say).
    items = missing_items(entries, page_count, text)
    entries = merge_in_page_order(entries, items)
    # Signature and exhibit pages follow a filing's last Item; its printed TOC rarely lists them.
    extra = back_matter(entries, page_count, text)
    entries = entries + extra
    if contents_heading and not any(e.title.casefold() == contents_heading.casefold() for e in entries):
        # A filing's table of contents is a section of the filing (EDGAR filers list it; its pages link back
        # to it), unlike a book's contents pages, which are front matter (the root's own text).
        entries = merge_in_page_order(entries, [Entry(1, contents_heading, contents_page)], before_same_page=True)
    return entries, {"items_from_body": len(items), "back_matter": len(extra)}


def is_filing(entries: list[Entry]) -> bool:
    """A TOC with several "Item N" entries is a 10-K/10-Q style filing."""
    items = 0
    for e in entries:
        n = parse_numbering(e.title)
        items += n is not None and n.kind == "item"
    return items >= MIN_ITEMS




_SEPARATED = re.compile(r"^items?\s*\S+\s*[.:\u2013\u2014-]", re.I)


def missing_items(entries: list[Entry], page_count: int, text: Callable[[int], str]) -> list[Entry]:
    """Items headed in the body ("ITEM 16. FORM 10-K SUMMARY") that the printed TOC leaves out, in page order.

    A line counts when it starts the line with "Item N." and the rest is set in capitals or title
    case (a heading, not a sentence referring to the Item); the level is that of the listed Items.
    """
    listed: dict[str, int] = {}
    for e in entries:
        n = parse_numbering(e.title)
        if n is not None and n.kind == "item":
            listed.setdefault(n.label.split()[-1].upper(), e.level)
    if not listed:
        return []
    level = max(set(listed.values()), key=list(listed.values()).count)
    start = min(e.page for e in entries)
    found: list[Entry] = []
    for page in range(start, page_count + 1):
        for line in text(page).splitlines():
            line = " ".join(line.split())
            ref = fa.parse_item(line)
            if not ref or len(ref.numbers) != 1 or not 3 <= len(ref.rest) <= 91 or not _SEPARATED.match(line):
                continue  # "Item 16. Form 10-K Summary" heads; "Item 16 of this report" does not
            if ref.numbers[0] in listed or not _heading_case(ref.rest):
                continue
            listed[ref.numbers[0]] = level
            found.append(Entry(level, line, page))
    return found


def _heading_case(rest: str) -> bool:
    """Every word of four letters or more capitalised (stricter than the HTML path: a PDF line has no style)."""
    return bool(re.search(r"[A-Za-z][\w'\u2019-]{3}", rest)) and fa.title_case(rest, share=1.0)


def merge_in_page_order(entries: list[Entry], extra: list[Entry], before_same_page: bool = False) -> list[Entry]:
    """``entries`` with each of ``extra`` placed after the last entry starting on or before its page
    (before the first entry starting on its page when ``before_same_page``)."""
    out = list(entries)
    for e in extra:
        if before_same_page:
            at = next((i for i, x in enumerate(out) if x.page >= e.page), len(out))
        else:
            at = max((i + 1 for i, x in enumerate(out) if x.page <= e.page), default=0)
        out.insert(at, e)
    return out


def back_matter(entries: list[Entry], page_count: int, text: Callable[[int], str]) -> list[Entry]:
    """Level-1 entries for the signature and exhibit pages after the TOC's last entry, not already listed."""
    if not entries:
        return []
    known = {title_key(e.title) for e in entries}
    # Exhibits 31 and 32 are the officers' certifications (Rule 13a-14, 18 U.S.C. 1350): a TOC entry
    # "Certifications" already covers them.
    certified = any(k.startswith("certification") for k in known)
    out: list[Entry] = []
    for page in range(entries[-1].page + 1, page_count + 1):
        name = _page_name(text(page))
        if name and certified and _CERTIFICATION.match(name):
            continue
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
        if _BACK.match(line):
            return line.rstrip(".:")
        joined = line.replace(" ", "")  # letter-spaced by the PDF's glyph spacing: "SIGNATURE S"
        return joined.rstrip(".:") if fa.SIGNATURES.match(joined) else None
    return None
