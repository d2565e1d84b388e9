"""Parts and Items of a 10-K/10-Q PDF, read from the headings in its body.

A filing PDF's contents page can mislead (titles wrapped over two lines, a cover table of registered notes
read as a contents, a second listing inside Part I, no contents at all), while the body heads each Item with
an "Item N." line. So for a document whose cover names Form 10-K or 10-Q, every line that starts with an
Item label is a candidate, and the Items kept are the heaviest chain running forward in both the document
and the form's order (``filing_anatomy.best_chain``, as for HTML): a contents row, a running header repeated
on every page or a sentence citing an Item cannot put one out of order. Parts come from "PART II" lines
between the Parts' Items, inferred where missing. The chain's other entries (sub-headings, back matter)
are nested under the Item they fall in. A cross-reference 10-K (Items only in an index at the back that
points at the report's own pages) gets its Items from that index's printed page numbers. Heads read off the
SEC cover page (its address, file number and captions, when the headings reader takes them for heads) are one
node, the cover page.
Pure over page texts.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from parsers import filing_anatomy as fa
from parsers import statements_index as si
from parsers.exhibits import exhibit_starts
from parsers.offsets import title_key
from parsers.ranges import Entry
from parsers.sections import title_pattern

FORM_PAGES = 3  # the cover (and a facing page) names the form
MIN_ITEMS = 3
MAX_HEAD = 200  # characters: an Item heading is a line, not a paragraph
W_TEXT, W_CAPS, W_TITLE, W_PART_HINT, W_RUNNING, W_LISTED, W_BARE = 1.0, 1.0, 1.0, 0.5, 0.5, 0.3, 0.2
_NUMBER_LINE = re.compile(r"^(?:page\s+)?(?:[A-Z]{1,2}-)?\d{1,4}(?:\s*[-\u2013]\s*(?:[A-Z]{1,2}-)?\d{1,4})?$", re.I)
_TRAILING_NUMBER = re.compile(r"[A-Za-z).,]\s+(?:pages?\s+)?(?:[A-Z]{1,2}-)?\d{1,4}(?:\s*[-\u2013,]\s*(?:[A-Z]{1,2}-)?\d{1,4})*$")
SHORT_HEAD = 90  # characters: a sentence-case heading line; a paragraph's lines run to the margin
MAX_WRAP = 3  # lines a heading's title may wrap onto
HEADER_LINES = 3  # a running header is among the first lines of its page
RUNNING_PARTS = 3  # pages headed by a Part line that make it a running header
LISTING_SPAN = 6  # lines: three Item lines within this many are a listing (contents, an index), not headings


def _lines(page_count: int, text: Callable[[int], str]) -> list[tuple[int, int, str]]:
    """(page, char offset in the page's text, line) for every non-empty line."""
    out = []
    for page in range(1, page_count + 1):
        t = text(page)
        pos = 0
        for raw in t.split("\n"):
            line = " ".join(raw.split())
            if line:
                out.append((page, pos, line))
            pos += len(raw) + 1
    return out


def _numbered(lines: list[tuple[int, int, str]], i: int, ref: fa.ItemRef) -> bool:
    """Whether Item line ``i`` carries a page number: at its end, or on the line after it (or after its title)."""
    if ref.rest and _TRAILING_NUMBER.search(lines[i][2]):
        return True  # (without a title the trailing number is the Item's own: "Item 1")
    for j in range(i + 1, min(len(lines), i + (2 if ref.rest else 4))):
        if _NUMBER_LINE.match(lines[j][2]):
            return True
    return False


def _title(lines: list[tuple[int, int, str]], i: int, ref: fa.ItemRef, form: str) -> str:
    """The heading's text, with its title from the next line when the label stands alone ("Item 1." /
    "Business"), and the rest of a title wrapped onto the next lines while it stops short."""
    text, rest = lines[i][2], ref.rest
    for j in range(i + 1, min(len(lines), i + 1 + MAX_WRAP)):
        nxt = lines[j][2]
        if lines[j][0] != lines[i][0] or fa.parse_item(nxt) or fa.parse_part(nxt) or _NUMBER_LINE.match(nxt):
            break
        if not rest and len(nxt) <= MAX_HEAD and fa.title_case(nxt):
            text, rest = f"{text} {nxt}", nxt
        elif rest and nxt.isupper() == rest.isupper() and fa.title_case(nxt) and len(nxt) <= 100 and _unfinished(rest, form):
            text, rest = f"{text} {nxt}", f"{rest} {nxt}"
        else:
            break
    return text


_DANGLING = re.compile(r"(?:,|\b(?:and|or|of|for|in|on|to|the|with|about|from|by|&))$", re.I)


def _unfinished(rest: str, form: str) -> bool:
    """Whether an Item title stops short, to go on on the next line: it ends on a word that needs one ("... AND"),
    or it is the first part of every canonical title of its number ("MANAGEMENT'S DISCUSSION AND ANALYSIS OF")."""
    if _DANGLING.search(rest.strip()):
        return True
    words = [w for w in re.findall(r"\w+", rest.casefold()) if w != "s"]
    if not words:
        return False
    for _, _, canonical in fa.items(form):
        full = [w for w in re.findall(r"\w+", canonical.casefold()) if w != "s"]
        if len(words) < len(full) and full[:len(words)] == words:
            return True
    return False


def _sentence_case_head(line: str, ref: fa.ItemRef) -> bool:
    """A heading set in sentence case ("Item 1B. Unresolved staff comments"): a short line of its own whose title
    starts with a capital and is no sentence (no full stop); a citation runs on in a paragraph's long lines."""
    return len(line) <= SHORT_HEAD and ref.rest[:1].isupper() and not ref.rest.rstrip().endswith(".")


def _clusters(lines: list[int]) -> list[list[int]]:
    """Runs of line numbers at most LISTING_SPAN apart."""
    out: list[list[int]] = []
    for i in lines:
        if out and i - out[-1][-1] <= LISTING_SPAN:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def candidates(lines: list[tuple[int, int, str]], form: str) -> tuple[list[fa.Candidate], list[fa.Candidate], dict]:
    """Item candidates in the body, and the rows of listings (contents, cross-reference indexes)."""
    refs = {}
    for i, (_, _, line) in enumerate(lines):
        if len(line) <= MAX_HEAD:
            ref = fa.parse_item(line)
            if ref:
                refs[i] = ref
    numbered = {i for i, ref in refs.items() if _numbered(lines, i, ref)}
    # A running header repeats the Item's heading atop its pages: the repeats head nothing, and the first one
    # may be the heading or the first running header of the Item's next page (weighed below plain text).
    def top(i: int) -> bool:
        return i < HEADER_LINES or lines[i - HEADER_LINES][0] != lines[i][0]

    tops: dict[str, list[int]] = {}
    first: dict[str, int] = {}
    for i in sorted(refs):
        if refs[i].rest and i not in numbered:
            first.setdefault(lines[i][2], i)
            if top(i):
                tops.setdefault(lines[i][2], []).append(i)
    running = {i for found in tops.values() if len(found) >= 2 for i in found}
    # A "PART I" line atop many pages is a running header, and so is the Item line under it.
    part_tops = {lines[i][0] for i in range(len(lines)) if top(i) and len(lines[i][2]) <= 80 and fa.parse_part(lines[i][2])}
    if len(part_tops) >= RUNNING_PARTS:
        running |= {i for i in refs if top(i) and i not in numbered}
    repeats = {i for text, found in tops.items() if len(found) >= 2 for i in found if i != first[text]}
    for i in repeats:
        del refs[i]
    listed = {i for i in refs if sum(1 for j in refs if j != i and abs(j - i) <= LISTING_SPAN) >= 2}
    # A listing whose rows mostly carry page numbers is a contents or an index as a whole: its rows without
    # one ("Not applicable", "(a)", a title wrapped onto two lines before the number) are rows too.
    for cluster in _clusters(sorted(listed)):
        if sum(i in numbered for i in cluster) >= 0.4 * len(cluster):
            numbered.update(cluster)
    # Numbered Item lines three or more to a page are a contents page's rows however far apart (leaders,
    # Part lines and wrapped titles between them).
    per_page: dict[int, int] = {}
    for i in numbered:
        per_page[lines[i][0]] = per_page.get(lines[i][0], 0) + 1
    listed |= {i for i in numbered if per_page[lines[i][0]] >= 3}
    out: list[fa.Candidate] = []
    rows: list[fa.Candidate] = []
    part_hint: str | None = None
    stats = {"lines": len(refs), "numbered": len(numbered), "listed": len(listed), "running_headers": len(repeats)}
    for i, (page, _, line) in enumerate(lines):
        part = fa.parse_part(line) if len(line) <= 80 else None
        if part:
            part_hint = part
        ref = refs.get(i)
        if not ref:
            continue
        if i in numbered and i in listed:
            for rpart, lo, hi in fa.readings(form, ref)[:1]:
                rows.append(fa.Candidate(i, ref.numbers, rpart, lo, hi, W_TEXT, _title(lines, i, ref, form), "index_row"))
            continue
        if ref.rest and (ref.rest[0].islower() or not (fa.title_case(ref.rest) or _sentence_case_head(line, ref))):
            continue  # "Item 7 of this report discusses ...": a citation, not a heading
        weight = W_TEXT + (W_CAPS if line.isupper() else 0.0) + (W_TITLE if ref.rest and fa.title_case(ref.rest) else 0.0)
        if i in running:
            weight = W_RUNNING
        if i in listed:
            weight = W_LISTED  # an unnumbered listing (an index to Part I), or Items with one line each ("None.")
            if i + 1 in refs or i + 2 in refs and not ref.rest:
                weight = W_BARE  # nothing between it and the next Item: a listing's row, not a heading
        for rpart, lo, hi in fa.readings(form, ref):
            w = weight + (W_PART_HINT if part_hint == rpart else 0.0)
            out.append(fa.Candidate(i, ref.numbers, rpart, lo, hi, w, _title(lines, i, ref, form), "text"))
    return out, rows, stats


def _part_entries(lines: list[tuple[int, int, str]], chain: list[fa.Candidate], form: str) -> list[tuple[int, str]]:
    """(line, title) of one Part heading per Part with Items: the "PART X" line after the previous Part's last
    Item and at or before this Part's first Item, else inferred at the Part's first Item."""
    out = []
    prev_end = -1
    for k, c in enumerate(chain):
        if k and chain[k - 1].part == c.part:
            prev_end = c.block
            continue
        heads = [i for i in range(prev_end + 1, c.block + 1) if len(lines[i][2]) <= 80 and fa.parse_part(lines[i][2]) == c.part]
        if heads:
            i = heads[-1]
            title = lines[i][2]
            nxt = lines[i + 1][2] if i + 1 < c.block else ""
            m = fa.PART_HEAD.match(title)
            if m and not m.group("rest").strip() and 0 < len(nxt) <= 60 and nxt.isupper() and not fa.parse_item(nxt):
                title = f"{title} \u2014 {nxt}"  # "PART I" / "FINANCIAL INFORMATION" on two lines
            out.append((i, title))
        else:
            name = fa.PART_TITLES.get(form, {}).get(c.part)
            out.append((c.block, f"Part {c.part}" + (f" \u2014 {name}" if name else "")))
        prev_end = c.block
    return out


_FOLIO = re.compile(r"^(?P<running>.{0,80}?)\s*(?P<folio>(?:[A-Z]{1,2}-)?\d{1,4})$")


def _folio_pages(lines: list[tuple[int, int, str]], page_count: int) -> dict[str, int]:
    """Printed folio -> physical page, from each page's last (else first) line: a bare page number, or one after
    a running footer that ends several pages ("Annual Report 68")."""
    by_page: dict[int, list[str]] = {}
    for page, _, line in lines:
        by_page.setdefault(page, []).append(line)
    found: dict[int, tuple[str, str]] = {}
    for page in range(1, page_count + 1):
        got = by_page.get(page, [])
        for line in got[-1:] + got[:1]:
            m = _FOLIO.match(line)
            if m:
                found[page] = (m.group("running").strip(), m.group("folio").upper())
                break
    runs: dict[str, int] = {}
    for running, _ in found.values():
        runs[running] = runs.get(running, 0) + 1
    out: dict[str, int] = {}
    for page, (running, folio) in found.items():
        if not running or runs[running] >= 3:
            out.setdefault(folio, page)
    return out


def _cross_reference(lines: list[tuple[int, int, str]], rows: list[fa.Candidate], page_count: int) -> list[tuple[int, str]]:
    """(line, title) of each Item of a cross-reference index, at the first line of the page its page reference
    names; rows without a page (not applicable, incorporated by reference) stay at the index."""
    folios = _folio_pages(lines, page_count)
    first_line = {}
    for i, (page, _, _) in enumerate(lines):
        first_line.setdefault(page, i)
    out, seen = [], set()
    for c in rows:
        if c.lo in seen:
            continue
        seen.add(c.lo)
        at = c.block
        folio = _page_reference(lines, c)
        if folio and folio in folios:
            at = first_line.get(folios[folio], at)
        out.append((at, re.sub(r"\s+(?:pages?\s+)?[\d\-\u2013, A-Z]*\d$", "", c.title)))
    return sorted(out)


def _page_reference(lines: list[tuple[int, int, str]], row: fa.Candidate) -> str | None:
    """The first page an index row names: at the end of its line, or on a line of its own just after it."""
    line = lines[row.block][2]
    if fa.parse_item(line).rest and _TRAILING_NUMBER.search(line):  # type: ignore[union-attr]
        m = re.search(r"((?:[A-Z]{1,2}-)?\d{1,4})(?:\s*[-\u2013,]\s*(?:[A-Z]{1,2}-)?\d{1,4})*$", line)
        return m.group(1).upper() if m else None
    for j in range(row.block + 1, min(len(lines), row.block + 4)):
        if fa.parse_item(lines[j][2]):
            break
        m = _PAGE_REF.match(lines[j][2])
        if m:
            return m.group(1).upper()
    return None


# The SEC's cover page: its first lines name the Commission, and a line of its own names the form.
_COMMISSION = re.compile(r"\bsecurities\s+and\s+exchange\s+commission\b", re.I)
COVER_LINES = 12
COVER_TITLE = "Cover Page"  # what the forms' General Instructions call it
_CONTENTS = re.compile(r"^\s*(?:table\s+of\s+contents|contents|index)\s*$", re.I)  # a contents on the cover stays


def _is_cover(page_text: str) -> bool:
    """Whether a page is a 10-K/10-Q's cover: the Commission named among its first lines, the form on a line
    of its own."""
    lines = [ln.strip() for ln in page_text.splitlines() if ln.strip()]
    return (any(_COMMISSION.search(ln) for ln in lines[:COVER_LINES])
            and fa.detect_form([ln for ln in lines if len(ln) <= 40]) is not None)


_PAGE_REF = re.compile(r"^(?:pages?\s+)?((?:[A-Z]{1,2}-)?\d{1,4})(?:\s*[-\u2013]\s*(?:[A-Z]{1,2}-)?\d{1,4})?(?:,|$)", re.I)


def filing_items(page_count: int, text: Callable[[int], str]) -> tuple[list[tuple[int, int, int, str]], dict[str, Any]]:
    """(level, page, offset, title) of the Parts and Items headed in the body (Parts 1, Items 2; Items 1 in a
    cross-reference filing), and the decisions; nothing when the cover names no 10-K/10-Q or fewer than
    MIN_ITEMS Items are headed."""
    form = fa.detect_form([ln for p in range(1, min(FORM_PAGES, page_count) + 1) for ln in text(p).splitlines()])
    if form is None:
        return [], {}
    lines = _lines(page_count, text)
    cands, rows, stats = candidates(lines, form)
    chain = fa.best_chain(cands)
    decisions: dict[str, Any] = {"form": form, "candidates": stats}
    heads: list[tuple[int, int, str]]  # (line, level, title)
    if len(chain) < MIN_ITEMS and len({c.lo for c in rows}) >= MIN_ITEMS and rows[0].block > len(lines) // 2:
        # A cross-reference index at the back (10-K General Instruction G(2)): the only place Items are named.
        decisions["mode"] = "cross_reference"
        heads = [(i, 1, t) for i, t in _cross_reference(lines, rows, page_count)]
    elif len(chain) >= MIN_ITEMS:
        decisions["mode"] = "ordered"
        heads = [(i, 1, t) for i, t in _part_entries(lines, chain, form)] + [(c.block, 2, c.title) for c in chain]
    else:
        return [], {**decisions, "mode": "none", "items": len(chain)}
    heads.sort(key=lambda h: (h[0], h[1]))
    decisions["ids"] = [(c.part, n) for c in chain for n in c.numbers] if decisions["mode"] == "ordered" else \
        [(r.part, r.numbers[0]) for r in rows]
    decisions["items"] = sum(1 for h in heads if h[1] == 2 or decisions["mode"] == "cross_reference")
    return [(level, lines[i][0], lines[i][1], title) for i, level, title in heads], decisions


def _offset(page_text: str, title: str) -> int:
    """Where ``title`` starts in its page's text, orders entries within a page; the page's end when it is not
    found (a contents title reworded in the body): after the Part and Item heads of its page, not before."""
    pattern = title_pattern(title)
    m = pattern.search(page_text) if pattern is not None else None
    return m.start() if m else len(page_text)


def _entry_items(entries: list[Entry], form: str) -> tuple[set[str], bool]:
    """The Item ids an outline lists, and whether their pages run in the form's order."""
    ids: set[str] = set()
    ranked: list[tuple[int, int]] = []  # (page, rank)
    part = "I"
    for e in entries:
        part = fa.parse_part(e.title) or part
        ref = fa.parse_item(e.title)
        if not ref:
            continue
        reading = [r for r in fa.readings(form, ref) if form != fa.FORM_10Q or r[0] == part][:1]
        if reading:
            ranked.append((e.page, reading[0][1]))
            ids.add(fa.item_id(form, reading[0][0], ref.numbers[0]))
    ranks = [rank for _, rank in sorted(ranked, key=lambda x: x[0])]
    return ids, all(a <= b for a, b in zip(ranks, ranks[1:]))


def anchor_items(entries: list[Entry], page_count: int, text: Callable[[int], str]) -> tuple[list[Entry], dict[str, Any]]:
    """``entries`` with a filing's Parts and Items taken from its body: the entries' own Items and Parts are
    dropped, the rest keep their order and nest under the Item they fall in; signatures and exhibits after
    the last Item stay at the top level. Unchanged when the document is not a 10-K/10-Q with Items headed."""
    heads, decisions = filing_items(page_count, text)
    if not heads:
        return entries, decisions
    listed, ordered = _entry_items(entries, decisions["form"])
    headed = {fa.item_id(decisions["form"], part, n) for part, n in decisions.pop("ids")}
    if not ordered and headed <= listed:
        # The report runs in its own order (MD&A before the statements) and its contents says so, Item by Item:
        # the form's order cannot be imposed on it, and the contents already names every Item the body heads.
        return entries, {**decisions, "mode": "contents_order"}
    item_level = 1 if decisions["mode"] == "cross_reference" else 2
    keys = {title_key(t) for _, _, _, t in heads}
    rest = [e for e in entries if not fa.parse_item(e.title) and not fa.parse_part(e.title) and title_key(e.title) not in keys]
    first = (heads[0][1], heads[0][2])
    last_item = max((p, o) for _, p, o, _ in heads)
    placed: list[tuple[tuple[int, int, int], Entry]] = []
    for level, page, offset, title in heads:
        placed.append(((page, offset, 0), Entry(level, title, page)))
    body = [e for e in rest if (e.page, _offset(text(e.page), e.title)) > first]
    base = min((e.level for e in body), default=1)
    closing = False
    for k, e in enumerate(rest):
        pos = (e.page, _offset(text(e.page), e.title))
        if pos <= first:
            placed.append(((*pos, 1 + k), Entry(1, e.title, e.page, e.kind)))
            continue
        closing = closing or (pos > last_item and fa.closes_items(e.title))
        level = max(1, 1 + e.level - base) if closing else item_level + 1 + (e.level - base)  # an exhibit keeps its children
        placed.append(((*pos, 1 + k), Entry(level, e.title, e.page, e.kind)))
    placed.sort(key=lambda x: x[0])
    placed, statements = _statements_after_signatures(placed, last_item, page_count, text)
    if statements:
        decisions["statements"] = statements
    on_cover = {k for k, (pos, e) in enumerate(placed)
                if pos[0] == 1 and pos[2] > 0 and pos < (*first, 0) and not _CONTENTS.match(e.title)}
    if on_cover and first[0] > 1 and _is_cover(text(1)):
        # The cover is a form (the Commission's address, the file number, "(Exact name of registrant ...)"
        # captions, the documents incorporated by reference): its lines read as heads are one section, the cover.
        placed = [x for k, x in enumerate(placed) if k not in on_cover]
        placed.insert(0, ((1, 0, 0), Entry(1, COVER_TITLE, 1)))
        decisions["cover_lines"] = len(on_cover)
    decisions["kept_entries"] = len(rest)
    decisions["dropped_entries"] = len(entries) - len(rest)
    return [e for _, e in placed], decisions


SIGNATURES_TITLE = "Signatures"


def _signature_page(first: int, page_count: int, text: Callable[[int], str]) -> tuple[int, int] | None:
    """(page, offset) of the first page from ``first`` whose first line (after a folio or a "Table of Contents"
    back-link) is "Signatures"."""
    for page in range(first, page_count + 1):
        body = text(page)
        for m in re.finditer(r"[^\n]+", body):
            line = " ".join(m.group(0).split())
            if not line or _CONTENTS.match(line) or _NUMBER_LINE.match(line):
                continue
            if fa.SIGNATURES.match(line) or fa.SIGNATURES.match(line.replace(" ", "")):
                return page, m.start()
            break
    return None


def _statements_after_signatures(placed: list[tuple[tuple[int, int, int], Entry]], last_item: tuple[int, int],
                                 page_count: int, text: Callable[[int], str]
                                 ) -> tuple[list[tuple[tuple[int, int, int], Entry]], dict[str, Any]]:
    """``placed`` with the signatures and the financial statements printed after them as sections of their own,
    when no head closes the Items and an index to the statements follows the signature page
    (``statements_index``): "Signatures" (level 1) over what its pages head, the statements' section (level 1)
    over the listed statements and notes (the notes under their "Notes to ..." row when the index has one), and
    the heads found inside under the statement or note they fall in. Unchanged otherwise."""
    after_items = (*last_item, 0)
    closing = next(((pos, e) for pos, e in placed if pos > after_items and fa.closes_items(e.title)), None)
    if closing is not None and not fa.SIGNATURES.match(closing[1].title.replace(" ", "")):
        return placed, {}  # an exhibit's label or the exhibit index comes first: no statements in between
    sig = closing[0][:2] if closing is not None else _signature_page(last_item[0] + 1, page_count, text)
    if sig is None:
        return placed, {}
    found = next(((p, t) for p in range(sig[0] + 1, min(sig[0] + si.LOOK_PAGES, page_count) + 1)
                  if (t := si.index_title(text(p)))), None)
    if found is None:
        return placed, {}
    index_page, section = found
    sig_at, index_at = (*sig, 0), (index_page, 0, 0)
    end_at = next((pos for pos, e in placed if pos > index_at and fa.closes_items(e.title)), (page_count + 1, 0, 0))
    # Exhibits attached after the statements open with their label (``exhibits.exhibit_starts``): the last note
    # ends before the first of them, and each gets its node, the heads read in it nesting under it.
    starts = [(p, label) for p, label in exhibit_starts(index_page + 1, page_count, text) if (p, 0, 0) < end_at]
    if starts:
        end_at = (starts[0][0], 0, 0)
    rows = si.listed_rows(text(index_page))
    located = si.locate(rows, index_page, min(end_at[0], page_count), text)
    if len(located) < si.MIN_LISTED:
        return placed, {}
    has_notes = any(not note and si.NOTES_ROW.match(title) for title, _, _, note in located)
    listed = [((page, at, 0), Entry(3 if note and has_notes else 2, title, page)) for title, page, at, note in located]
    out = [x for x in placed if x[0] < sig_at]
    out.append((sig_at, Entry(1, closing[1].title if closing is not None else SIGNATURES_TITLE, sig[0])))
    between = [x for x in placed if sig_at <= x[0] < index_at
               and (closing is None or x[1] is not closing[1])]
    low = min((e.level for _, e in between), default=1)
    out += [(pos, Entry(2 + e.level - low, e.title, e.page, e.kind)) for pos, e in between]
    out.append((index_at, Entry(1, section, index_page)))
    inside = [x for x in placed if index_at <= x[0] < end_at and x[1].page != index_page  # the listing's own lines
              and not any(si.same_head(x[1].title, lt) and abs(x[1].page - lp) <= 1 for lt, lp, _, _ in located)]
    low = min((e.level for _, e in inside), default=1)
    merged = sorted(listed + [(pos, e) for pos, e in inside], key=lambda x: x[0])
    owner = 1
    listed_ids = {id(e) for _, e in listed}
    for pos, e in merged:
        if id(e) in listed_ids:
            owner = e.level
            out.append((pos, e))
        else:
            out.append((pos, Entry(owner + 1 + e.level - low, e.title, e.page, e.kind)))
    tail = [x for x in placed if x[0] >= end_at]
    known = {(e.page, title_key(e.title)) for _, e in tail}
    tail += [((p, 0, 0), Entry(1, label, p)) for p, label in starts if (p, title_key(label)) not in known]
    tail.sort(key=lambda x: x[0])
    low = min((e.level for _, e in tail if not fa.closes_items(e.title)), default=1)
    for pos, e in tail:
        own = fa.closes_items(e.title) or any(pos[0] == p and title_key(e.title) == title_key(label) for p, label in starts)
        out.append((pos, e if own else Entry(2 + e.level - low, e.title, e.page, e.kind)))
    return out, {"signatures": sig[0], "index_page": index_page, "listed": len(rows), "located": len(located),
                 "heads_kept": len(inside), "exhibits_after": len(starts)}

