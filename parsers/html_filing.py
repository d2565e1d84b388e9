"""Parts and Items of a 10-K or 10-Q read from HTML blocks.

Evidence, strongest first: the table of contents' internal links (``href="#..."`` from an Item's row to its
heading: the author's own answer, and the only one when a filing has just a cross-reference index), then
Item headings set apart by style, then plain "Item N." lines. Every candidate gets a weight from its
evidence, and the Items kept are the heaviest chain that runs forward in both the document and the form's
order (a weighted longest increasing subsequence): a TOC row, a cross-reference in a sentence or a repeated
heading cannot put an Item out of order. Parts are read from "PART II" headings when one sits between the
Parts' Items and inferred where it is missing or misplaced.
"""

from __future__ import annotations

import re
from typing import Any

from parsers import filing_anatomy as fa
from parsers.blocks import Block, Heading, folio, page_labels

W_LINK, W_STYLED, W_TEXT, W_TITLE, W_PART_HINT, W_PAGE_END, W_BARE = 8.0, 3.0, 1.0, 1.0, 0.5, 1.0, 0.5
_TRAILING_PAGE = re.compile(r"[A-Za-z.]\s+(?:page\s+)?(?:\d{1,3}|[ivx]{1,4})$")
MAX_ITEM_HEAD = 300  # characters: an Item heading is a line, not a paragraph
_PART_ITEM = re.compile(r"^\s*part\s+(IV|I{1,3})\b(?P<name>[^|]{0,60}?)\s*[.,:\u2013\u2014-]?\s*(items?\s*\d.*)$", re.I | re.S)
SNAP = 6  # blocks after a link target searched for the Item's own heading (page-top chrome comes first)


# The candidate, its readings and the ordered chain are shared with the PDF chain (parsers/filing_pdf.py).
Candidate = fa.Candidate
best_chain = fa.best_chain


def _index_tables(blocks: list[Block]) -> set[int]:
    """Tables listing three or more Items: tables of contents and cross-reference indexes, not headings."""
    counts: dict[int, int] = {}
    for b in blocks:
        if b.table_id and len(b.text) <= MAX_ITEM_HEAD and fa.parse_item(b.text):
            counts[b.table_id] = counts.get(b.table_id, 0) + 1
    return {t for t, n in counts.items() if n >= 3}


def _contents_lines(blocks: list[Block]) -> set[int]:
    """Item lines ending with a page number that come three or more within a few blocks: a table of
    contents set as plain lines (no table, no links)."""
    # parse_item first: it turns down a line not opening with "item" at once, the page pattern searches it all.
    lines = [i for i, b in enumerate(blocks)
             if len(b.text) <= MAX_ITEM_HEAD and fa.parse_item(b.text) and _TRAILING_PAGE.search(b.text)]
    return {i for i in lines if sum(1 for j in lines if j != i and abs(j - i) <= 6) >= 2}


def _styled(b: Block) -> bool:
    s = b.style
    return s.bold or s.underline or b.text.isupper() or b.tag.startswith("h")


def _heading_title(blocks: list[Block], i: int, ref: fa.ItemRef, text: str | None = None) -> str:
    """The Item heading's text (``text`` when it is only part of the block); when the title sits in the next
    block ("Item 1." / "Business"), both."""
    text = (blocks[i].text if text is None else text).replace(" | ", " ")
    if not ref.rest and i + 1 < len(blocks):
        nxt = blocks[i + 1].text
        if 0 < len(nxt) <= 200 and not fa.parse_item(nxt) and not fa.parse_part(nxt):
            text = f"{text} {nxt}"
    return " ".join(text.split())


def _readings(form: str, ref: fa.ItemRef, part_hint: str | None) -> list[tuple[str, int, int]]:
    return fa.readings(form, ref)


def _target_block(blocks: list[Block], ids: dict[str, int], target: str, numbers: tuple[str, ...]) -> int | None:
    """The heading a TOC link points at: the anchor's block, or the Item heading just after it (an anchor is
    often an empty element before the page break, with a "Table of Contents" back-link heading the page)."""
    at = ids.get(target)
    if at is None:
        return None
    for j in range(at, min(len(blocks), at + SNAP)):
        ref = fa.parse_item(blocks[j].text) if len(blocks[j].text) <= MAX_ITEM_HEAD else None
        if ref and ref.numbers[0] == numbers[0] and not blocks[j].links:
            return j
    for j in range(at, min(len(blocks), at + SNAP)):
        b = blocks[j]
        if not (b.links and len(b.text) <= 40) and not folio(b.text):
            return j
    return at


def candidates(blocks: list[Block], form: str, index_tables: set[int] | None = None
               ) -> tuple[list[Candidate], list[Candidate], dict[str, Any]]:
    """Item candidates (TOC-linked, styled, plain), index rows (for cross-reference indexes), counts."""
    ids = {}
    for i, b in enumerate(blocks):
        for x in b.ids:
            ids.setdefault(x, i)
    index_tables = _index_tables(blocks) if index_tables is None else index_tables
    contents_lines = _contents_lines(blocks)
    out: list[Candidate] = []
    rows: list[Candidate] = []
    part_hint: str | None = None
    stats = {"toc_links": 0, "styled": 0, "text": 0, "index_tables": len(index_tables)}
    for i, b in enumerate(blocks):
        if len(b.text) > MAX_ITEM_HEAD:
            continue
        part = fa.parse_part(b.text)
        if part and not b.links and b.table_id not in index_tables:
            part_hint = part
        text = b.text
        joined = _PART_ITEM.match(text) if not b.links and b.table_id not in index_tables else None
        if joined and fa.title_case(joined.group("name")):
            # "PART II — Item 5. Market for ...", "PART I – FINANCIAL INFORMATION — Item 1. ...": the Part and
            # its first Item on one line
            part_hint, text = joined.group(1).upper(), joined.group(3)
        ref = fa.parse_item(text)
        if not ref:
            continue
        in_index = b.table_id in index_tables or bool(b.links)
        if in_index:
            # A TOC / cross-reference row: its links say where the Item's heading is. A row without one ("Not
            # applicable", "incorporated by reference") is the Item's only appearance in a cross-reference index.
            for rpart, lo, hi in _readings(form, ref, None):
                rows.append(Candidate(i, ref.numbers, rpart, lo, hi, W_TEXT, _row_title(b.text, ref), "index_row"))
            for target in dict.fromkeys(b.links):
                j = _target_block(blocks, ids, target, ref.numbers)
                if j is None or j == i:
                    continue
                body = fa.parse_item(blocks[j].text) if len(blocks[j].text) <= MAX_ITEM_HEAD else None
                title = _heading_title(blocks, j, body) if body and body.numbers[0] == ref.numbers[0] else \
                    _row_title(b.text, ref)
                for rpart, lo, hi in _readings(form, ref, None):
                    out.append(Candidate(j, ref.numbers, rpart, lo, hi, W_LINK, title, "toc_link"))
                stats["toc_links"] += 1
                break
            continue
        styled = _styled(b)
        named = fa.title_case(ref.rest) or _names_its_item(form, ref)
        weight = (W_STYLED if styled else W_TEXT) + (W_TITLE if named else 0.0)
        if i in contents_lines:
            continue  # "Item 1. Business 3" among its kind: a contents list set as lines, not headings
        if i + 1 < len(blocks) and blocks[i + 1].page != b.page:
            weight -= W_PAGE_END  # nothing follows it on its page: a running header or footer, not a heading
        if ref.rest and i + 1 < len(blocks) and len(blocks[i + 1].text) <= MAX_ITEM_HEAD and fa.parse_item(blocks[i + 1].text):
            weight = min(weight, W_BARE)  # the next line is the next Item: a listing of a Part's Items, not a heading
        if ref.rest and not (named or styled and _sentence_case_head(b.text, ref)):
            continue  # "Item 7 of this report discusses ..." cites an Item; it is not its heading
        title = _heading_title(blocks, i, ref, text)
        for rpart, lo, hi in _readings(form, ref, part_hint):
            w = weight + (W_PART_HINT if part_hint == rpart else 0.0)
            out.append(Candidate(i, ref.numbers, rpart, lo, hi, w, title, "styled" if styled else "text"))
        stats["styled" if styled else "text"] += 1
    return out, rows, stats


SHORT_HEAD = 120  # characters: a sentence-case Item heading is a short line of its own


def _names_its_item(form: str, ref: fa.ItemRef) -> bool:
    """The label's title is the form's own title for that Item in any case ("Item 11. Executive compensation",
    "Item 6. Reserved"): a heading, however it is capitalised."""
    words = set(re.findall(r"[a-z]{3,}", ref.rest.casefold()))
    if not words or not ref.rest[:1].isupper():
        return False
    for part in fa.parts_of(form, ref.numbers[0]):
        canon = set(re.findall(r"[a-z]{3,}", fa.canonical_title(form, part, ref.numbers[0]).casefold()))
        if len(words & canon) >= 0.6 * len(words):
            return True
    return False


def _sentence_case_head(text: str, ref: fa.ItemRef) -> bool:
    """A styled heading set in sentence case ("Item 1B. Unresolved staff comments"): short, starting with a
    capital, no full stop (as the PDF chain reads them)."""
    return len(text) <= SHORT_HEAD and ref.rest[:1].isupper() and not ref.rest.rstrip().endswith(".")


def _row_caption(text: str, ref: fa.ItemRef) -> str:
    """The caption an index row gives its Item ("Risk Factors"): the label's rest or the next cell in words."""
    cells = [c.strip() for c in text.split("|") if c.strip()]
    words = [c for c in cells[1:] if not re.fullmatch(r"(?:pages?\s*)?[\dA-Z\-\u2013, ]{1,20}", c, re.I)]
    return ref.rest.split("|")[0].strip() if ref.rest else (words[0] if words else "")


def _row_title(text: str, ref: fa.ItemRef) -> str:
    cells = [c.strip() for c in text.split("|") if c.strip()]
    label = cells[0] if cells else text
    rest = _row_caption(text, ref)
    head = re.match(r"^\s*items?\s*[\w ,&\u2013-]*?(?=\s*[.:]|$)", label, re.I)
    name = head.group(0).strip() if head else label
    return f"{name}. {rest}".strip() if rest else name


def _linked_items(cands: list[Candidate]) -> dict[int, Candidate]:
    """One TOC-linked candidate per link target (block): the first reading of the first Item linked to it."""
    out: dict[int, Candidate] = {}
    seen: set[int] = set()
    for c in cands:
        if c.source == "toc_link" and c.block not in out and c.lo not in seen:
            out[c.block] = c
            seen.add(c.lo)
    return out


_PAGE_REF = re.compile(r"(?:pages?\s*)?((?:[A-Z]{1,2}-)?\d{1,4})(?:\s*[-\u2013]\s*((?:[A-Z]{1,2}-)?\d{1,4}))?\s*$", re.I)


def _key(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


def _by_printed_page(blocks: list[Block], row: Candidate, labels: list[str | None], index_tables: set[int]) -> Candidate:
    """An index row without a link moved to where its page reference ("Risk Factors | 22-31") says the Item
    starts: the line of those pages that reads as the row's caption (several Items often share a page), else
    the first block of the first page; left at the row when it names no page (Not applicable) or no page has
    that printed folio."""
    text = blocks[row.block].text
    cells = [c.strip() for c in text.split("|") if c.strip()]
    m = _PAGE_REF.search(cells[-1]) if len(cells) > 1 else None
    if not m:
        return row
    page = _labelled_page(labels, m.group(1))
    if page is None:
        return row
    last = page
    if m.group(2):  # the page range's end bounds the search for the caption
        last = max(page, _labelled_page(labels, m.group(2)) or page)
    span = [i for i, b in enumerate(blocks) if page <= b.page <= last and i != row.block]
    ref = fa.parse_item(text)
    caption = _key(_row_caption(text, ref)) if ref else ""
    at = next((i for i in span if caption and len(blocks[i].text) <= MAX_ITEM_HEAD
               and blocks[i].table_id not in index_tables and _key(blocks[i].text) == caption), None)
    if at is None:
        at = next((i for i in span if blocks[i].page == page and not folio(blocks[i].text)), None)
    if at is None:
        return row
    return Candidate(at, row.numbers, row.part, row.lo, row.hi, row.weight, row.title, "index_page")


def _labelled_page(labels: list[str | None], wanted: str) -> int | None:
    """The physical page printed ``wanted``; for a number no page was read as, the page that many pages from
    the nearest numbered one (a page whose folio sits where it was not read, e.g. on the left of even pages)."""
    wanted = wanted.upper()
    exact = next((n for n, label in enumerate(labels, start=1) if label and label.upper() == wanted), None)
    if exact is not None or not wanted.isdigit():
        return exact
    numbered = [(n, int(label)) for n, label in enumerate(labels, start=1) if label and label.isdigit()]
    if not numbered:
        return None
    n, number = min(numbered, key=lambda x: abs(x[1] - int(wanted)))
    page = n + int(wanted) - number
    return page if abs(int(wanted) - number) <= 2 and 1 <= page <= len(labels) and not labels[page - 1] else None


def _index_order(rows: list[Candidate]) -> list[Candidate]:
    """One reading per index row, read in the index's order: a 10-Q's "Item 1" after Part I's Items is Part II's."""
    out: list[Candidate] = []
    last = -1
    for c in rows:
        if out and out[-1].block == c.block:
            continue
        group = [r for r in rows if r.block == c.block]
        pick = next((r for r in group if r.lo > last), group[0])
        out.append(pick)
        last = pick.lo
    return out


def _contiguous_parts(chain: list[Candidate]) -> bool:
    """Each Part's Items form one run in the document (the form's Parts still read in order)."""
    runs = [c.part for k, c in enumerate(chain) if not k or chain[k - 1].part != c.part]
    return len(runs) == len(set(runs)) and runs == sorted(runs, key=lambda p: fa.ROMAN[p])


def _parts(blocks: list[Block], chain: list[Candidate], form: str, index_tables: set[int]) -> list[Heading]:
    """One Part heading per Part with Items: the "PART X" line between the previous Part's last Item and
    this Part's first Item when there is one, else a node inferred at the Part's first Item."""
    heads = [(i, fa.parse_part(b.text)) for i, b in enumerate(blocks)
             if len(b.text) <= 80 and not b.links and b.table_id not in index_tables]
    heads = [(i, p) for i, p in heads if p]
    out: list[Heading] = []
    prev_end = -1
    for k, c in enumerate(chain):
        if k and chain[k - 1].part == c.part:
            prev_end = c.block
            continue
        lines = [i for i, p in heads if p == c.part and prev_end < i <= c.block]
        if lines:
            i = lines[-1]
            title = blocks[i].text.replace(" | ", " ")
            joined = _PART_ITEM.match(title)
            if joined:  # the Part's line also holds its first Item's heading: the Part is what comes before
                title = title[:joined.start(3)].strip(" .,:\u2013\u2014-")
            nxt = blocks[i + 1].text if i + 1 < len(blocks) else ""
            if fa.PART_HEAD.match(title) and not fa.PART_HEAD.match(title).group("rest").strip() and i + 1 < c.block \
                    and 0 < len(nxt) <= 60 and not fa.parse_item(nxt) and nxt.isupper():
                title = f"{title} \u2014 {nxt}"  # "PART I" / "FINANCIAL INFORMATION" on two lines
            out.append(Heading(i, 1, " ".join(title.split()), blocks[i].ids[0] if blocks[i].ids else None))
        else:
            name = fa.PART_TITLES.get(form, {}).get(c.part)
            title = f"Part {c.part}" + (f" \u2014 {name}" if name else "")
            out.append(Heading(c.block, 1, title, None, kind="inferred"))
        prev_end = c.block
    return out


def filing_headings(blocks: list[Block], form: str) -> tuple[list[Heading], dict[str, Any]]:
    """Part (level 1) and Item (level 2) headings plus signatures; the decisions that chose them."""
    index_tables = _index_tables(blocks)
    cands, rows, stats = candidates(blocks, form, index_tables)
    chain = best_chain(cands)
    linked = _linked_items(cands)
    mode = "ordered"
    row_items = {c.lo for c in rows}
    if (len(linked) >= 3 and len({c.block for c in chain if c.source == "toc_link"}) < 0.8 * len(linked)) \
            or (len(chain) < 3 and len(row_items) >= 3):
        # A cross-reference index (10-K General Instruction G(2)): the filer's report runs in its own order
        # and the index maps each Item to it, by links or by printed page numbers. That is the only answer,
        # and it need not follow the form's order.
        mode = "cross_reference"
        covered = {c.lo for c in linked.values()}
        pages = max(b.page for b in blocks)
        labels = page_labels(blocks, pages, "physical") if pages > 1 else []
        unlinked = {c.lo: _by_printed_page(blocks, c, labels, index_tables) for c in _index_order(rows)
                    if c.lo not in covered}
        chain = sorted(list(linked.values()) + list(unlinked.values()), key=lambda c: (c.block, c.lo))
    # A cross-referenced report whose Items still run Part by Part keeps its Parts (a 10-Q's Items need them).
    with_parts = mode == "ordered" or _contiguous_parts(chain)
    level = 2 if with_parts else 1
    parts = _parts(blocks, chain, form, index_tables) if with_parts else []
    items = []
    for c in chain:
        b = blocks[c.block]
        items.append(Heading(c.block, level, c.title.rstrip(" .:"), b.ids[0] if b.ids else None))
    heads = sorted(parts + items, key=lambda h: (h.block, h.level))
    # Signatures close the report after its last Item.
    if chain:
        last = chain[-1].block
        for i in range(last + 1, len(blocks)):
            if fa.SIGNATURES.match(blocks[i].text) and not blocks[i].links:
                heads.append(Heading(i, 1, blocks[i].text.title().rstrip(".:"), blocks[i].ids[0] if blocks[i].ids else None))
                break
    decisions = {
        "form": form, "mode": mode, "item_level": level, "candidates": stats, "items": len(chain),
        "item_sources": {s: sum(c.source == s for c in chain) for s in ("toc_link", "styled", "text")}
        | ({s: sum(c.source == s for c in chain) for s in ("index_row", "index_page")} if mode == "cross_reference" else {}),
        "parts": [{"title": h.title, "inferred": h.kind == "inferred"} for h in parts],
        "chain": [{"ids": [fa.item_id(form, c.part, n) for n in c.numbers], "block": c.block, "source": c.source}
                  for c in chain],
    }
    return heads, decisions
