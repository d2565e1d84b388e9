"""Exhibits without a label, found from the filing's exhibit index.

Some filers attach exhibits whose first page names no "Exhibit 10(a)": a plan starts with its own title block
("WALMART INC. / OFFICER DEFERRED COMPENSATION PLAN"). A reader finds them with the exhibit index (Item 601 of
Regulation S-K: every 10-K lists its exhibits, number and title, and says which are filed with it rather than
incorporated by reference): an attached exhibit starts on the page whose title block carries most of the words
of an index title filed with the report. Each title is used once (the title block repeated after a plan's own
contents page continues its exhibit). Pure over page texts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

MIN_ROWS = 3  # number-and-title rows on a page that make it (part of) an exhibit index
HEAD_LINES = 5  # an exhibit's title block is among the first lines of its first page
BLOCK_LINE = 90  # characters: a title block's lines are short; a paragraph's run to the margin
MIN_SHARE = 0.5  # weighted share of an index title's words that a title block must carry, its name's all
MIN_WORDS = 3
MAX_TITLE = 110
FORM_LINES = 10  # a form's blank fields ("Name of Grantee:") open its first page, above the title block
# "Form of ..." in an index row says the exhibit is a template of the document named after it; the form itself
# prints that name, never "Form of".
_FORM_OF = re.compile(r"^form\s+of\s+(?:an?\s+|the\s+)?", re.I)

# "10(a)*", "(10.26)", "10.1", "10(g).1*", "31.1*  Certification ...": an Item 601 exhibit number, marks for
# "filed herewith" / "management contract", then maybe the title on the same line.
_ROW = re.compile(r"^\(?(?P<n>[1-9]\d?(?:\.\d{1,3})?(?:\s?\([a-z0-9]{1,3}\))?(?:\.\d{1,2})?)\)?\s*[*\u2020\u2021#+]*"
                  r"(?:\s+(?P<rest>\S.*))?$", re.I)
# Incorporated by reference, said outright or as a citation in parentheses of the filing that carries the exhibit
# ("(Exhibit 10.2 to the Company's Form 10-Q for the quarter ended ...)"); a schedule "in the form filed as Exhibit
# 10(p) to the Annual Report" is filed with this one.
_INCORPORATED = re.compile(r"\bincorporated\b.{0,80}\bby\s+reference\b|\bby\s+reference\s+(?:to|from)\b"
                           r"|\(exhibit\s+\S+\s+(?:to|of|in)\b.{0,60}\b(?:form|report|registration\s+statement)\b",
                           re.I | re.S)
_SKIP = re.compile(r"^(?:\d{1,4}|table\s+of\s+contents)$", re.I)


@dataclass(frozen=True)
class IndexRow:
    number: str  # as the index prints it: "10(a)", "10.26", "21"
    title: str


def _lines(page_text: str) -> list[str]:
    return [s for s in (" ".join(raw.split()) for raw in page_text.splitlines()) if s]


def _words(text: str) -> set[str]:
    """A title's content words: four letters or more, casefolded (numbers, dates' days and short words out)."""
    return {w.casefold() for w in re.findall(r"[A-Za-z]{4,}", text)}


def _page_rows(page_text: str) -> list[tuple[str, str]]:
    """(number, text) of each row of an index page: a number line and the lines up to the next number line."""
    rows: list[tuple[str, list[str]]] = []
    for line in _lines(page_text):
        if _SKIP.match(line):
            continue  # a folio, a back-link
        m = _ROW.match(line)
        if m and not (m.group("rest") or "")[:1].islower():  # "3.1 to the Report on Form 8-K": a wrapped line
            rows.append((m.group("n").replace(" ", ""), [m.group("rest")] if m.group("rest") else []))
        elif rows:
            rows[-1][1].append(line)
    # A contents row runs to its page number over leaders ("1.1 Account .......... 2"): no exhibit index row.
    return [(n, " ".join(parts)) for n, parts in rows if parts and not re.search(r"\.{4}|(?:\. ){3}", " ".join(parts))]


def index_rows(first: int, page_count: int, text: Callable[[int], str]) -> tuple[list[IndexRow], int]:
    """The rows filed with the report (not incorporated by reference) of the first exhibit index at or after page
    ``first`` (a run of pages each with MIN_ROWS rows, the first of them naming exhibits), and its last page."""
    out: list[IndexRow] = []
    last = 0
    started = False
    for page in range(first, page_count + 1):
        t = text(page)
        rows = _page_rows(t)
        if len(rows) < MIN_ROWS or not (started or re.search(r"\bexhibits?\b", t, re.I)):
            if started:
                break
            continue
        started, last = True, page
        for number, body in rows:
            if _INCORPORATED.search(body):
                continue
            # Marks and notes after the title: "*", "— Filed with this document", "Filed herewith".
            title = re.sub(r"(?:\s*[\u2014\u2013-]+\s*|\s+)(?:filed|furnished)\s+(?:herewith|with\s+this)\b.*$|[\s*\u2020\u2021]+$",
                           "", body, flags=re.I)
            if len(title) > MAX_TITLE:
                title = title[:MAX_TITLE].rsplit(" ", 1)[0]
                title = re.sub(r"\s*\([^)]*$", "", title)  # a parenthesis cut open
            out.append(IndexRow(number, title))
    return out, last


def unlabelled_starts(
    rows: list[IndexRow], first: int, page_count: int, text: Callable[[int], str], labelled: set[str],
) -> list[tuple[int, str]]:
    """(page, "Exhibit N Title") of each exhibit of ``rows`` (numbers in ``labelled`` aside: those are found by
    their label) whose title block opens a page at or after ``first``."""
    printed = [(r, _FORM_OF.sub("", r.title)) for r in rows if r.number.casefold() not in labelled]
    kept = [(r, title, words) for r, title in printed if len(words := _words(title)) >= MIN_WORDS]
    wanted = [(r, words) for r, _, words in kept]
    # An exhibit's title block prints its name in full (the title up to its first comma or parenthesis: "Acme
    # Excess Savings Plan", not the "Excess Benefit Plan" beside it); the rest (dates, "as amended") may differ.
    names = {r.number: _words(re.split(r",|\s\(", title, maxsplit=1)[0]) for r, title, _ in kept}
    # Words most titles share (the filer's name, "plan", "amended effective") say little about which exhibit a
    # page opens: each word weighs 1 / the number of titles it is in.
    df: dict[str, int] = {}
    for _, words in wanted:
        for w in words:
            df[w] = df.get(w, 0) + 1
    used: set[str] = set()
    out: list[tuple[int, str]] = []
    for page in range(first, page_count + 1):
        head = _words(" ".join(_title_block(text(page))))
        best, share = None, 0.0
        for row, words in wanted:
            if row.number in used or len(names[row.number]) < 2 or not names[row.number] <= head:
                continue
            s = sum(1 / df[w] for w in words & head) / sum(1 / df[w] for w in words)
            if s >= MIN_SHARE and s > share:
                best, share = row, s
        if best is not None:
            used.add(best.number)
            out.append((page, f"Exhibit {best.number} {best.title}"))
    return out


def _title_block(page_text: str) -> list[str]:
    """The short lines that open a page (up to HEAD_LINES), before its first paragraph line; a form's blank fields
    above its title ("Name of Grantee:", "Grant Date:" ... of an award form) are left out."""
    out: list[str] = []
    lines = _lines(page_text)
    fields = [i for i, line in enumerate(lines[:FORM_LINES]) if line.endswith(":")]
    if len(fields) >= 2 and fields[0] == 0:
        lines = lines[fields[-1] + 1:]
    for line in lines:
        if _SKIP.match(line):
            continue
        if len(line) > BLOCK_LINE or len(out) == HEAD_LINES or line.endswith(";") or re.match(r"^\([A-Za-z0-9]{1,3}\)", line):
            break  # a paragraph, or a list's items ("(A) Deferrals of base pay;"): no title block
        out.append(line)
    return out


def exhibit_number(label: str) -> str | None:
    """The number of an "Exhibit 10.1" label, casefolded, to match an index row's."""
    m = re.match(r"^exhibit\s+(\S+)", label.strip(), re.I)
    return m.group(1).rstrip(".:").casefold() if m else None
