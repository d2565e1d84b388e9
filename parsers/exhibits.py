"""Exhibits attached to a 10-K/10-Q PDF: each its own node, and a long one its own subtree.

After the signatures a filing PDF carries the exhibits filed with it, each starting on a page whose first lines
name it ("Exhibit 13.1", "EXHIBIT 10.20"; some repeat the label atop every page), or, without a label, on the page
whose title block names an exhibit of the filing's exhibit index (``exhibit_index``). An exhibit of MIN_PAGES or
more gets children:

* its own contents page among its first pages (a credit agreement's "TABLE OF CONTENTS", a set of statements'
  "INDEX"), read with the front TOC's line reader and mapped with its own printed -> physical offset;
* else the headings of an annual report or a set of financial statements (Exhibit 13, a subsidiary's statements
  in Exhibit 99): MD&A, selected financial data, the auditor's report, each statement by its Regulation S-X name,
  and the notes one by one under "Notes to ... Financial Statements";
* else an agreement's Articles, else its numbered sections run into their text ("2. Expiration. The ...").

When one does, every exhibit becomes a level-1 node, so an exhibit's own numbering ("Section 1.1 History" of a
plan, "Note 1" of a subsidiary's statements) stays inside it instead of nesting into the filing's Items; when none
does, the outline is left alone (filers' outlines rarely list exhibits). Short exhibits (certifications, consents,
lists of subsidiaries) stay leaves. Pure over page texts and layouts.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from parsers import exhibit_index
from parsers import filing_anatomy as fa
from parsers.filings import merge_in_page_order
from parsers.numbering import roman_to_int
from parsers.offsets import CHECKED, map_entries, title_key
from parsers.ranges import Entry
from parsers.toc import assign_levels, credible_entries, page_is_toc, read_page_entries, screen_page, to_entry

MIN_PAGES = 5  # an exhibit this long may have a structure of its own; shorter ones stay leaves
LABEL_LINES = 3  # an exhibit's label is among the first lines of its first page
LOOK_PAGES = 4  # an exhibit's contents page (or its first page) is within its first pages
HEAD_LINES = 6  # a statement's title is among the first lines of its page (under the issuer's name)
MIN_CHILDREN = 3
MIN_NOTES = 3
MAX_TITLE = 110

_LABEL = re.compile(r"^exhibit\s+(\d{1,3}(?:\.\d{1,3})*(?:\s?\([a-z0-9]{1,3}\)|[a-z])?)\s*[.:]?$", re.I)
_SKIP = re.compile(r"^(?:\d{1,4}|-\s*\d{1,4}\s*-|[ivxlc]{1,6}|table\s+of\s+contents|page\s+\d+(?:\s+of\s+\d+)?)$", re.I)

# Headings of an annual report or a set of financial statements, matched on the line with spaces removed and
# casefolded (letter-spaced titles, "I NDEPENDENT AUDITORS' REPORT", read the same). Regulation S-X names the
# statements; Items 7, 8 and 9A of Form 10-K name the rest. The order is the order of the tests: comprehensive
# income before income, since "statements of comprehensive income" also reads as a statement of income.
_Q = "['\u2019]?"
_PREFIX = r"(?:(?:condensed)?(?:consolidated|combined)?(?:condensed)?)"
_OWNERS = rf"(?:(?:share|stock)holders{_Q}|members{_Q}|partners{_Q}|owners{_Q}|shareowners{_Q})?"
KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple((k, re.compile(p + r"(?:\(continued\))?$")) for k, p in (
    ("mdna", rf"management{_Q}sdiscussionandanalysis(?:offinancialconditionandresultsofoperations)?"),
    ("selected", r"(?:selected|five-?year)(?:consolidated)?financial(?:data|summary|highlights)"),
    ("auditor", rf"(?:reportofindependent(?:registeredpublicaccountingfirm|auditors?|accountants?){_Q}s?"
                rf"|independent(?:registeredpublicaccountingfirm|auditors?|accountants?){_Q}s?report)"),
    ("icfr", rf"management{_Q}sreportoninternalcontrol(?:over|of)financialreporting"),
    ("comprehensive", rf"{_PREFIX}statements?of(?:consolidated)?comprehensive(?:income|loss|earnings)(?:\(loss\))?"),
    ("income", rf"{_PREFIX}statements?of(?:consolidated)?(?:operations|income|earnings)(?:\(loss\))?"
               rf"(?:andcomprehensive(?:income|loss|earnings)(?:\(loss\))?)?"),
    ("balance", rf"{_PREFIX}(?:balancesheets?|statements?of(?:consolidated)?financial(?:position|condition))"),
    ("cash", rf"{_PREFIX}statements?of(?:consolidated)?cashflows?"),
    ("equity", rf"{_PREFIX}statements?of(?:consolidated)?(?:changesin)?{_OWNERS}(?:equity|deficit|capital)(?:\(deficit\))?"),
    ("notes", r"notesto(?:the)?(?:condensed)?(?:consolidated|combined)?(?:condensed)?financialstatements"),
))
STATEMENTS = ("income", "balance", "cash", "equity")  # the four the benchmark counts (comprehensive income aside)
_ARTICLE = re.compile(r"^(?:ARTICLE|Article)\s+(?P<n>[IVXLC]{1,6}|\d{1,2})\b\s*[.:\u2013\u2014-]?\s*(?P<title>.*)$")
_NOTE = re.compile(r"^(?:note\s+(?P<a>\d{1,2})\s*[.:\u2013\u2014-]?|(?P<b>\d{1,2})\s*[.:\u2013\u2014-])\s*(?P<title>.*)$", re.I)


def _lines(page_text: str) -> list[str]:
    return [s for s in (" ".join(raw.split()) for raw in page_text.splitlines()) if s]


def _label(page_text: str) -> str | None:
    """The exhibit label that opens a page ("Exhibit 13.1"), after folios and "Table of Contents" back-links."""
    lines = [ln for ln in _lines(page_text) if not _SKIP.match(ln)]
    for line in lines[:LABEL_LINES]:
        m = _LABEL.match(line)
        if m:
            return line.rstrip(".:")
    return None


def exhibit_starts(first: int, page_count: int, text: Callable[[int], str]) -> list[tuple[int, str]]:
    """(page, label) of each exhibit starting at or after ``first``; a label repeated atop the next pages (a
    running header) continues its exhibit."""
    out: list[tuple[int, str]] = []
    prev: tuple[int, str] | None = None
    for page in range(first, page_count + 1):
        label = _label(text(page))
        if label is None:
            continue
        if not (prev and prev[0] == page - 1 and title_key(prev[1]) == title_key(label)):
            out.append((page, label))
        prev = (page, label)
    return out


def add_exhibits(
    entries: list[Entry], page_count: int, text: Callable[[int], str], layout: Callable[[int], Any],
    labels: Sequence[str | None],
) -> tuple[list[Entry], dict[str, Any]]:
    """A filing's entries with children for each long exhibit after its last Item that has a structure of its
    own, and then a level-1 entry for every exhibit, so that structure stays inside its exhibit; unchanged when
    no exhibit has one (filers' own outlines rarely list exhibits) or the entries name no Item."""
    items = [e for e in entries if fa.parse_item(e.title)]
    if not items:
        return entries, {}
    last_item = max(e.page for e in items)
    starts = exhibit_starts(last_item + 1, page_count, text)
    unlabelled = _unlabelled(items, last_item, page_count, text, starts)
    starts = sorted(starts + unlabelled)
    if not starts:
        return entries, {}
    info: dict[str, Any] = {"exhibits": len(starts), "added": 0, "subtrees": []}
    if unlabelled:
        info["from_index"] = len(unlabelled)
    bounds = sorted({p for p, _ in starts} | {e.page for e in entries if e.level == 1})
    children: dict[int, list[Entry]] = {}
    for page, label in starts:
        end = next((b - 1 for b in bounds if b > page), page_count)
        if end - page + 1 < MIN_PAGES:
            continue
        kids, how = contents_children(page, end, text, layout, labels), "contents"
        if not kids:
            kids, how = statement_children(page, end, text), "headings"
        if not kids:
            kids, how = article_children(page, end, text), "articles"
        if not kids:
            kids, how = section_children(page, end, text), "sections"
        if kids:
            children[page] = kids
            info["subtrees"].append({"exhibit": label, "pages": [page, end], "from": how, "children": len(kids)})
    if not children:
        return entries, info
    known = {(e.page, title_key(e.title)) for e in entries}
    extra = [Entry(1, label, page) for page, label in starts if (page, title_key(label)) not in known]
    info["added"] = len(extra)
    entries = merge_in_page_order(entries, extra)
    out: list[Entry] = []
    done: set[int] = set()
    named = {title_key(label) for _, label in starts}
    for i, e in enumerate(entries):
        out.append(e)
        kids = children.get(e.page)
        if kids and e.page not in done and title_key(e.title) in named and not (i + 1 < len(entries) and entries[i + 1].level > e.level):
            done.add(e.page)
            out.extend(Entry(e.level + k.level, k.title, k.page) for k in kids)
    return out, info


def _unlabelled(
    items: list[Entry], last_item: int, page_count: int, text: Callable[[int], str], labelled: list[tuple[int, str]],
) -> list[tuple[int, str]]:
    """Exhibits whose first page names no label, found by their titles in the exhibit index, which is in or after
    the Item on exhibits (10-K Item 15, 10-Q Item 6) and before them."""
    on_exhibits = [e.page for e in items if re.search(r"\bexhibits?\b", e.title, re.I)]
    # The index precedes the exhibits it lists: a page after the first labelled one is an exhibit's own.
    end = min((p - 1 for p, _ in labelled), default=page_count)
    rows, last = exhibit_index.index_rows(min(on_exhibits, default=last_item), end, text)
    if not rows:
        return []
    numbers = {n for n in (exhibit_index.exhibit_number(label) for _, label in labelled) if n}
    pages = {p for p, _ in labelled}
    found = exhibit_index.unlabelled_starts(rows, max(last, last_item) + 1, page_count, text, numbers)
    return [(p, label) for p, label in found if p not in pages]


def contents_children(
    start: int, end: int, text: Callable[[int], str], layout: Callable[[int], Any], labels: Sequence[str | None],
) -> list[Entry]:
    """The exhibit's own contents listing (one or more pages among its first LOOK_PAGES) as entries at the
    physical pages they map to inside the exhibit (levels from 1), or [] when there is none or it does not check
    out. Pages outside the exhibit are hidden from the offset mapping, so its folios restart at 1 as printed."""
    pages: list[int] = []
    raws: list[Any] = []
    layouts: list[Any] = []
    for p in range(start, min(end - 1, start + LOOK_PAGES - 1) + 1):
        heading, leaders = screen_page(text(p))
        if not pages and not heading and leaders < MIN_CHILDREN:
            continue
        lay = layout(p)
        got = credible_entries(read_page_entries(lay, first=heading))
        if not page_is_toc(got, len(lay.lines)):
            if pages:
                break
            continue
        pages.append(p)
        layouts.append(lay)
        raws.extend(got)
    if not pages:
        return []
    listed = [to_entry(r, layouts) for r in raws]
    assign_levels(listed)
    if any(_ARTICLE.match(e.title) for e in listed):
        # An agreement's Articles hold its numbered sections ("Article II Definitions" / "2.1 Account"), however
        # alike the contents sets them.
        for e in listed:
            if _ARTICLE.match(e.title):
                e.level = 1
            elif e.numbering is not None and e.numbering.kind in ("decimal", "section") and e.numbering.depth >= 2:
                e.level = e.numbering.depth
    texts = [text(n) if start <= n <= end else "" for n in range(1, end + 1)]
    shown = [labels[n - 1] if start <= n <= end and n - 1 < len(labels) else None for n in range(1, end + 1)]
    map_entries(listed, texts, shown, pages)
    with_pages = [e for e in listed if e.page is not None or e.link is not None]
    good = [e for e in with_pages if e.status in CHECKED and e.physical is not None and max(pages) < e.physical <= end]
    if len(good) < max(MIN_CHILDREN, 0.5 * len(with_pages)):
        return []
    out: list[Entry] = []
    seen: set[str] = set()
    last = max(pages)
    for e in good:
        key = title_key(e.title)
        if not key or key in seen or e.physical < last:  # type: ignore[operator]
            continue
        seen.add(key)
        out.append(Entry(e.level, e.title, e.physical))  # type: ignore[arg-type]
        last = e.physical  # type: ignore[assignment]
    top = min((e.level for e in out), default=1)
    return [Entry(e.level - top + 1, e.title, e.page) for e in out] if len(out) >= MIN_CHILDREN else []


def heading_kind(line: str) -> str | None:
    """The kind of annual-report heading ``line`` is ("income", "auditor", "notes", ...), or None."""
    if len(line) > MAX_TITLE:
        return None
    key = re.sub(r"\s+", "", line).casefold().rstrip(".:")
    for kind, pattern in KINDS:
        if pattern.match(key):
            return kind
    return None


def statement_children(start: int, end: int, text: Callable[[int], str]) -> list[Entry]:
    """An annual report's or a set of statements' headings inside pages ``start``..``end``: the first page headed
    by each kind (a statement running onto a second page, a "(continued)" head, a second auditor's report on
    internal control are the same section), and the notes one by one under the notes' heading."""
    found: list[Entry] = []
    kinds: set[str] = set()
    notes_page = None
    for page in range(start, end + 1):
        lines = [ln for ln in _lines(text(page)) if not _SKIP.match(ln) and not _LABEL.match(ln)]
        for line in lines[:HEAD_LINES]:
            kind = heading_kind(line)
            if kind and kind not in kinds and "continued" not in line.casefold():
                kinds.add(kind)
                found.append(Entry(1, line, page))
                if kind == "notes":
                    notes_page = page
                break
    if len(found) < 2 or not kinds & set(STATEMENTS):
        return []
    if notes_page is not None:
        nxt = min((e.page for e in found if e.page > notes_page), default=end + 1)
        notes = note_heads(notes_page, nxt - 1, text)
        at = next(i for i, e in enumerate(found) if e.page == notes_page) + 1
        found[at:at] = [Entry(2, t, p) for p, t in notes]
    return found


def note_heads(start: int, end: int, text: Callable[[int], str]) -> list[tuple[int, str]]:
    """(page, title) of each note ("Note 1 — Organization", "1. Significant Accounting Policies", or the number
    on a line of its own above its title), numbered on from 1: a numbered list inside a note restarts at 1 or
    jumps, so it does not continue the sequence."""
    out: list[tuple[int, str]] = []
    expected = 1
    for page in range(start, end + 1):
        lines = _lines(text(page))
        for i, line in enumerate(lines):
            m = _NOTE.match(line)
            if not m or len(line) > MAX_TITLE:
                continue
            number = int(m.group("a") or m.group("b"))
            if number not in (expected, expected + 1):
                continue
            title, shown = _titled(m.group("title").strip(), lines, i)
            if not _note_title(title):
                continue
            out.append((page, shown))
            expected = number + 1
    return out if len(out) >= MIN_NOTES else []


def _titled(title: str, lines: list[str], i: int) -> tuple[str, str]:
    """A numbered heading's title and the line shown for it: a bare "Note 3" or "ARTICLE II" line takes its
    title from the next line."""
    if not title and i + 1 < len(lines):
        return lines[i + 1], f"{lines[i]} {lines[i + 1]}"
    return title, lines[i]


def _note_title(title: str) -> bool:
    """A note's title: a short line in heading case that is no sentence and no figure."""
    return (3 <= len(title) <= 90 and title[0].isupper() and not title.rstrip().endswith((".", ",", ";"))
            and fa.title_case(title) and bool(re.search(r"[A-Za-z]{3}", title)))


def article_children(start: int, end: int, text: Callable[[int], str]) -> list[Entry]:
    """The Articles of an agreement or a plan without a contents page ("ARTICLE I." over "AWARD; VESTING",
    "Article 2 Definitions"), numbered on from 1: a reference to an Article inside a sentence is not a heading."""
    out: list[Entry] = []
    expected = 1
    for page in range(start, end + 1):
        lines = _lines(text(page))
        for i, line in enumerate(lines):
            m = _ARTICLE.match(line)
            if not m or len(line) > MAX_TITLE or _number(m.group("n")) != expected:
                continue
            title, shown = _titled(m.group("title").strip(), lines, i)
            if not _note_title(title):
                continue
            out.append(Entry(1, shown, page))
            expected += 1
    return out if len(out) >= MIN_CHILDREN else []


_RUN_IN = re.compile(r"^(?P<n>\d{1,2})\.\s+(?P<title>[A-Z][^.;:]{2,88}?)\.(?:\s|$)")


def section_children(start: int, end: int, text: Callable[[int], str]) -> list[Entry]:
    """The numbered sections of an award agreement or a plan without Articles or contents, run into their first
    sentence ("2. Expiration. The Stock Option shall expire ...") or alone on their line ("3. Vesting and
    Exercise."), numbered on from 1: a numbered list inside a section restarts at 1 or jumps, so it does not
    continue them."""
    out: list[Entry] = []
    expected = 1
    for page in range(start, end + 1):
        lines = _lines(text(page))
        for i, line in enumerate(lines):
            if re.fullmatch(r"\d{1,2}\.", line) and i + 1 < len(lines):
                line = f"{line} {lines[i + 1]}"  # the number on a line of its own ("1." / "Definitions.")
            m = _RUN_IN.match(line)
            if not m or int(m.group("n")) != expected or not _note_title(m.group("title")):
                continue
            out.append(Entry(1, f"{m.group('n')}. {m.group('title')}", page))
            expected += 1
    return out if len(out) >= MIN_CHILDREN else []


def _number(token: str) -> int | None:
    return int(token) if token.isdigit() else roman_to_int(token)
