"""A 10-K's financial statements printed after its signatures, read from their own index.

Many 10-Ks answer Item 8 with "see the index on page F-1" and print the auditor's report, the statements and
the notes after the signature pages, opened by an "Index to (Consolidated) Financial Statements" page that lists
each of them with its page. Read from the headings alone, those pages fall under the last Item (a 60-page
"Item 16. Form 10-K Summary") as one flat run of heads, and a statement's title, set like its table's captions,
is often not taken for a head at all. Here the signature page closes the Items, and the index page opens a
section whose children are the listed statements and notes, each checked on the page the listing gives (by its
title opening a line there; printed numbers map to pages by one offset, found on the first listed entry). The
heads found inside nest under the statement or note they fall in. Pure over page texts.
"""

from __future__ import annotations

import re
from typing import Callable

from parsers.offsets import title_key
from parsers.sections import title_pattern

INDEX_LINES = 8  # the index's title is among the first lines of its page
LOOK_PAGES = 4  # pages after the signatures within which the index is printed (a power of attorney between)
MIN_LISTED = 3  # verified rows that make the page an index of the statements
MAX_OFFSET = 20  # printed -> physical pages the first listed entry is searched over
INDEX_TITLE = re.compile(
    r"^index\s+to\s+(?:the\s+)?(?P<what>(?:consolidated\s+|combined\s+)?financial\s+statements"
    r"(?:\s+and\s+(?:financial\s+statement\s+)?schedules?)?)\s*[.:]?$", re.I)
_PAGE = re.compile(r"^(?:F-\s?)?(\d{1,4})$", re.I)
_ROW_PAGE = re.compile(r"^(?P<title>.*?[A-Za-z)’'])\s*(?:\.[\s.]*)?(?:F-\s?)?(?P<page>\d{1,4})$", re.I)
_NOTE_NUMBER = re.compile(r"^(?:note\s+)?\d{1,2}\.?$", re.I)
NOTES_ROW = re.compile(r"^notes\s+to\b", re.I)
_SKIP = re.compile(r"^(?:page|pages?\s+no\.?|table\s+of\s+contents)$", re.I)
_CONTINUED = re.compile(r"\s*\(?continued\)?$", re.I)
_SUFFIX = re.compile(r"\s*\((?:PCAOB|Firm)\b[^)]*\)\s*$", re.I)  # "(PCAOB ID 238)": the listing's, not the head's


def _lines(page_text: str) -> list[str]:
    return [ln for ln in (" ".join(raw.split()) for raw in page_text.splitlines()) if ln]


def index_title(page_text: str) -> str | None:
    """The section's title ("Financial Statements") when the page opens with an index to the statements."""
    for line in _lines(page_text)[:INDEX_LINES]:
        m = INDEX_TITLE.match(line)
        if m:
            what = m.group("what")
            return what[0].upper() + what[1:]
    return None


def listed_rows(page_text: str) -> list[tuple[str, int | None, bool]]:
    """(title, printed page, is a note) of the rows listed under the index's title: a title and its page on one
    line or on the next; a note's number on a line of its own before its title; a row without a page ("Notes to
    Consolidated Financial Statements" over the notes) is kept without one."""
    lines = _lines(page_text)
    start = next((i + 1 for i, ln in enumerate(lines[:INDEX_LINES]) if INDEX_TITLE.match(ln)), None)
    if start is None:
        return []
    rows: list[tuple[str, int | None, bool]] = []
    pending: list[str] = []
    for line in lines[start:]:
        if _SKIP.match(line):
            continue
        m = _PAGE.match(line)
        if m and pending:
            rows.append(_row(pending, int(m.group(1))))
            pending = []
            continue
        if m:
            continue  # a folio
        if _NOTE_NUMBER.match(line):
            if pending:
                rows.append(_row(pending, None))
            pending = [line]
            continue
        m = _ROW_PAGE.match(line)
        if m:
            rows.append(_row([*pending, m.group("title")], int(m.group("page"))))
            pending = []
            continue
        if pending and not _NOTE_NUMBER.match(pending[0]) and NOTES_ROW.match(line):
            rows.append(_row(pending, None))
            pending = []
        pending.append(line)
    return rows


def _row(parts: list[str], page: int | None) -> tuple[str, int | None, bool]:
    note = bool(_NOTE_NUMBER.match(parts[0])) and len(parts) > 1
    title = _SUFFIX.sub("", " ".join(parts)).strip()
    if note:
        number = re.sub(r"(?i)^note\s+", "", parts[0]).rstrip(".")
        title = f"{number}. {_SUFFIX.sub('', ' '.join(parts[1:])).strip()}"
    return title, page, note


def opens_line(page_text: str, title: str) -> int | None:
    """Where ``title`` opens a line of the page (its first eight words, any spacing), or None."""
    pattern = title_pattern(title)
    if pattern is None:
        return None
    for m in pattern.finditer(page_text):
        before = page_text[:m.start()].rsplit("\n", 1)[-1]
        if not before.strip():
            return m.start()
    return None


def _opens(page_text: str, title: str, note: bool) -> int | None:
    """Where a listed row's title opens a line; a note's also without its number ("Note 1 - Revenue" in the body
    for "1. Revenue" in the index)."""
    at = opens_line(page_text, title)
    if at is None and note:
        at = opens_line(page_text, title.split(". ", 1)[-1])
    return at


def locate(rows: list[tuple[str, int | None, bool]], index_page: int, end: int,
           text: Callable[[int], str]) -> list[tuple[str, int, int, bool]]:
    """(title, page, offset, is a note) of the rows that open a line on their page, in page order; a row without
    a page is placed before the first located row after it (the notes' heading over the first note)."""
    offset = None
    for title, printed, note in rows:
        if printed is None:
            continue
        for delta in sorted(range(-MAX_OFFSET, MAX_OFFSET + 1), key=abs):
            page = printed + delta
            if index_page < page <= end and _opens(text(page), title, note) is not None:
                offset = delta
                break
        if offset is not None:
            break
    if offset is None:
        return []
    out: list[tuple[str, int, int, bool]] = []
    waiting: list[tuple[str, bool]] = []
    last = (index_page, 0)
    for title, printed, note in rows:
        if printed is None:
            waiting.append((title, note))
            continue
        page = printed + offset
        at = _opens(text(page), title, note) if index_page < page <= end else None
        if at is None or (page, at) < last:
            continue
        for wtitle, wnote in waiting:
            w_at = opens_line(text(page), wtitle)
            out.append((wtitle, page, w_at if w_at is not None and w_at <= at else at, wnote))
        waiting = []
        out.append((title, page, at, note))
        last = (page, at)
    return out


def same_head(head: str, row: str) -> bool:
    """Whether a head found in the body is a listed row's: the same words, numbering, case and a "(continued)"
    aside. Any other head is one of its own ("Debt Issuances" under "3. Debt")."""
    ka, kb = title_key(head), title_key(row)
    return bool(kb) and _CONTINUED.sub("", ka) == kb
