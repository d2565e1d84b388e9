"""Map printed TOC page numbers to physical pages, and verify every entry.

Evidence, strongest first: the entry's own link (the author's mapping), /PageLabels,
the folios printed in page headers/footers (read from plain text, which copes with
roman front matter, restarts and inserted pages), and a dominant offset voted from
titles found in the body. Each entry's page is then checked: its title must appear
on the mapped page, else within +-2 pages (corrected), else it is unverifiable.
All functions are pure over plain data (page texts, labels, entries).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Sequence

from parsers.memo import per_document
from parsers.numbering import PageNumber, int_to_roman, parse_numbering, parse_page_number
from parsers.toc import TocEntry, is_heading

# Statuses of a TOC entry whose physical page checked out (in the body, or by the author's own link).
CHECKED = ("verified", "corrected", "linked")

_NON_ALNUM = re.compile(r"[^0-9a-z]+")
_TITLE_KEY_CHARS = 48


# ``_NON_ALNUM.sub(" ", text.casefold())`` by bytes: whatever casefold() leaves outside ASCII becomes "?" and then,
# like every other byte that is not a letter or a digit, a space. Three times faster on a page's text, and the
# offsets check reads every page it looks at so (a tenth of the contents method's time: structure-speed.md, 17ns).
_SPACE_OUT = bytes(c if chr(c) in "0123456789abcdefghijklmnopqrstuvwxyz" else 32 for c in range(256))


def spaced_words(text: str) -> str:
    """Lower-case letters and digits in words of one space each: how titles, page texts and lines are compared."""
    return " ".join(text.casefold().encode("ascii", "replace").translate(_SPACE_OUT).decode("ascii").split())


def norm_text(text: str) -> str:
    """Lower-case letters and digits only: robust to line breaks, hyphenation and leaders."""
    return _NON_ALNUM.sub("", text.casefold())


@per_document  # asked of each head and entry by several rules while a document is read
def title_key(title: str) -> str:
    """What is searched for in the body: the title without numbering, lower-case words, bounded in length.

    A title that is nothing but numbering ("Part II") keeps it.
    """
    num = parse_numbering(title)
    rest = num.rest if num is not None and num.rest else title
    return spaced_words(rest)[: _TITLE_KEY_CHARS + 8]


# -- folios: printed page numbers read off the pages themselves -------------------------


def _folio_candidates(text: str) -> set[tuple[str, int]]:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    edge = lines[:2] + lines[-2:]
    out: set[tuple[str, int]] = set()
    for ln in edge:
        toks = ln.split()
        for tok in {toks[0], toks[-1]}:
            pn = parse_page_number(tok)
            if pn is not None and pn.value < 10000:
                out.add((pn.kind, pn.value))
    return out


# A folio set between dashes ("- 12 -"), or after a section letter ("F-12", "A-3": a filing's financial pages and
# appendices) or a lettered section and its number ("APP-2-3": page 3 of an exhibit's appendix 2, each appendix
# numbered from 1), printed alone on its line.
_DASHED = re.compile(r"^[-\u2013\u2014]\s*(\d{1,4})\s*[-\u2013\u2014]$")
_PREFIXED = re.compile(r"^([A-Z]{1,3}(?:[-\u2013]\d{1,3})?)\s?[-\u2013]\s?(\d{1,4})$")


def _label_candidates(text: str) -> set[tuple[str, int]]:
    """The folio candidates, and the dashed and letter-prefixed folios a label can show as printed."""
    out = _folio_candidates(text)
    lines = [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]
    for ln in lines[:2] + lines[-2:]:
        m = _DASHED.match(ln)
        if m and int(m.group(1)) > 0:
            out.add(("arabic", int(m.group(1))))
        m = _PREFIXED.match(ln)
        if m and int(m.group(2)) > 0:
            out.add((f"prefix:{m.group(1).replace(chr(0x2013), '-')}", int(m.group(2))))
    return out


def read_folios(texts: Sequence[str], window: int = 5, support: int = 3, labels: bool = False) -> dict[int, PageNumber]:
    """Physical page (1-based) -> printed number read from its header/footer lines.

    A candidate counts only if nearby pages carry numbers in the same sequence (same
    physical-minus-printed offset): at least ``support`` pages within +-``window``. A constant
    number in a running head ("Edition 2") or a section number never forms such a run. ``labels`` also reads
    the folios only a page label shows as printed ("- 12 -", "F-12"; kind "prefix:F").
    """
    cands = [(_label_candidates if labels else _folio_candidates)(t) for t in texts]
    out: dict[int, PageNumber] = {}
    n = len(texts)
    for i, cs in enumerate(cands):
        best: tuple[int, str, int] | None = None
        for kind, v in cs:
            off = i - v
            agree = sum(1 for j in range(max(0, i - window), min(n, i + window + 1)) if (kind, j - off) in cands[j])
            if agree >= support and (best is None or agree > best[0]):
                best = (agree, kind, v)
        if best is not None:
            out[i + 1] = PageNumber(best[2], best[1])
    return out


def printed_labels(labels: Sequence[str | None], texts: Sequence[str]) -> list[str | None]:
    """Each page's printed label: /PageLabels when the PDF has them, else the folio printed on the page.

    A page without a readable folio (a chapter opening, a full-page figure) between two pages whose folios
    are in one sequence (same kind, same physical-minus-printed offset) gets its number from that sequence.
    Roman folios are given in lower case ("xiv"), as /PageLabels' "r" style would print them.
    """
    if any(labels):
        return list(labels)
    folios = read_folios(texts, labels=True)
    out: list[str | None] = [None] * len(texts)
    known = sorted(folios)
    for page, pn in folios.items():
        out[page - 1] = _label(pn)
    for a, b in zip(known, known[1:]):
        fa, fb = folios[a], folios[b]
        if b - a > 1 and fa.kind == fb.kind and b - fb.value == a - fa.value:
            for page in range(a + 1, b):
                out[page - 1] = _label(PageNumber(fa.value + page - a, fa.kind))
    return out


def _label(pn: PageNumber) -> str:
    if pn.kind.startswith("prefix:"):
        return f"{pn.kind[len('prefix:'):]}-{pn.value}"
    return int_to_roman(pn.value) if pn.kind == "roman" else str(pn.value)


def folio_index(folios: dict[int, PageNumber]) -> dict[tuple[str, int], list[int]]:
    idx: dict[tuple[str, int], list[int]] = {}
    for page, pn in sorted(folios.items()):
        idx.setdefault((pn.kind, pn.value), []).append(page)
    return idx


def label_index(labels: Sequence[str | None]) -> dict[tuple[str, int], list[int]]:
    """Page labels that are plain numbers, as (kind, value) -> physical pages."""
    idx: dict[tuple[str, int], list[int]] = {}
    for i, lab in enumerate(labels):
        if lab:
            pn = parse_page_number(lab)
            if pn is not None:
                idx.setdefault((pn.kind, pn.value), []).append(i + 1)
    return idx


# -- the dominant offset ------------------------------------------------------------------


def vote_offset(pairs: Sequence[tuple[int, int]]) -> int | None:
    """Most common (physical - printed) among (printed, physical) pairs; ties go to the smaller offset."""
    counts = Counter(phys - printed for printed, phys in pairs)
    if not counts:
        return None
    best = max(counts.values())
    return min(o for o, c in counts.items() if c == best)


# -- mapping and verification -------------------------------------------------------------


@dataclass
class OffsetResult:
    page_offset: int | None  # dominant offset, None when a piecewise mapping was needed
    counts: dict[str, int] = field(default_factory=dict)
    mapping: list[list[int]] = field(default_factory=list)  # [printed_value, physical] segments where the offset changes
    method: str = ""
    decisions: dict[str, Any] = field(default_factory=dict)


class _Finder:
    """Whether a title appears on a page, with cached normalized pages.

    Long keys are compared with all spacing removed (robust to line breaks and hyphenation);
    short keys ("part ii", "scope") must match whole words.
    """

    def __init__(self, texts: Sequence[str]):
        self.texts = texts
        self._compact: dict[int, str] = {}
        self._spaced: dict[int, str] = {}
        self._lines: dict[int, list[str]] = {}
        self._running: set[str] | None = None

    def _load(self, n: int) -> None:
        text = self.texts[n - 1] if 1 <= n <= len(self.texts) else ""
        spaced = spaced_words(text)
        self._spaced[n] = f" {spaced} "
        self._compact[n] = spaced.replace(" ", "")

    def on(self, key: str, n: int) -> bool:
        if not key:
            return False
        if n not in self._compact:
            self._load(n)
        compact = key.replace(" ", "")
        if len(compact) >= 8:
            return compact[:_TITLE_KEY_CHARS] in self._compact[n]
        return f" {key} " in self._spaced[n]

    def near(self, key: str, n: int, radius: int = 2) -> int | None:
        for d in range(1, radius + 1):
            for m in (n - d, n + d):
                if self.on(key, m):
                    return m
        return None

    def only_running(self, key: str, n: int) -> bool:
        """Whether page ``n`` names the title only in a running head or foot: a line printed at the top or foot of two
        pages or more, beside the page's folio on a line of its own ("606" over "chapter 19 fourier and laplace"). The
        chapter's later pages, when its first page sets a longer title than the contents'. A chapter's heading that
        its running heads repeat word for word stands apart from the folio at the page's foot."""
        if not self.on(key, n):
            return False
        lines = self._page_lines(n)
        running = self._running_lines()
        folio = {i for i, ln in enumerate(lines) if _NUMBER_ONLY.match(ln)}
        edge = {i for i in (0, 1, len(lines) - 2, len(lines) - 1) if 0 <= i < len(lines) and lines[i] in running
                and (i - 1 in folio or i + 1 in folio)}
        rest = " ".join(ln for i, ln in enumerate(lines) if i not in edge)
        compact = key.replace(" ", "")
        if len(compact) >= 8:
            return compact[:_TITLE_KEY_CHARS] not in rest.replace(" ", "")
        return f" {key} " not in f" {rest} "

    def pages_with(self, key: str, lo: int, hi: int) -> list[int]:
        return [n for n in range(max(1, lo), min(len(self.texts), hi) + 1) if self.on(key, n)]

    def numbered_on(self, label: str, key: str, n: int) -> bool:
        """Whether page ``n``'s text has the title right after its number ("6 1 threshold"): cheap, and on the
        listed page as good as a heading, since prose cites a section by its number or by its title, not by both."""
        if n not in self._compact:
            self._load(n)
        return f" {label} {key[:_HEAD_KEY_CHARS].rstrip()}" in self._spaced[n]

    def headed(self, label: str, key: str, n: int) -> bool:
        """Whether page ``n`` sets the numbered title as a heading: a line opening with its number ("6.1 Threshold",
        "Chapter 6" over "Segmentation"), not a sentence that mentions the title nor a listing line ending in a page
        number (a chapter's own contents). ``label`` and ``key`` are normalized (``heading_label``, ``title_key``)."""
        if not 1 <= n <= len(self.texts):
            return False
        lines = self._page_lines(n)
        target = f"{label} {key[:_HEAD_KEY_CHARS].rstrip()}"
        running = self._running_lines()
        for i, raw in enumerate(lines):
            if (i < 2 or i >= len(lines) - 2) and raw in running:
                continue  # "Chapter 1. Installation guide" at the foot of every other page of the chapter
            ln, j = _HEAD_WORD.sub("", raw, count=1), i
            if ln == label and i + 1 < len(lines):  # the number on a line of its own, the title below it
                ln, j = f"{label} {lines[i + 1]}", i + 1
            if not ln.startswith(f"{label} "):
                continue
            end = j
            while len(ln) < len(target) and end + 1 < min(len(lines), j + 12):  # a title wrapped, a word a line
                end += 1
                ln = f"{ln} {lines[end]}"
            if not ln.startswith(target):
                continue
            last = lines[end].split()[-1]
            if last.isdigit() and not key.endswith(last):
                continue  # "6.1 Threshold . . . 63", "6.7. COLOUR SPECIFICATION BOX 35": a listing line, a running head
            return True
        return False

    def titled(self, key: str, n: int) -> bool:
        """Whether page ``n`` sets the title as a line of its own, unnumbered ("CONFIGURING KERBEROS", under a
        "CHAPTER SEVEN" that spells its number out), possibly wrapped over two lines."""
        if not 1 <= n <= len(self.texts) or not key:
            return False
        lines = self._page_lines(n)
        if len(key) >= _TITLE_KEY_CHARS + 8:
            # A key cut at its length limit ("... indicator of ranked lis"): the line, or two joined, open with it.
            return any(ln.startswith(key) or f"{ln} {nxt}".startswith(key) for ln, nxt in zip(lines, lines[1:] + [""]))
        return any(ln == key or f"{ln} {nxt}" == key for ln, nxt in zip(lines, lines[1:] + [""]))

    def _page_lines(self, n: int) -> list[str]:
        """Page ``n``'s non-blank lines, normalized (``_norm_lines``), made once."""
        if n not in self._lines:
            self._lines[n] = _norm_lines(self.texts[n - 1])
        return self._lines[n]

    def _running_lines(self) -> set[str]:
        """Normalized lines printed at the top or foot (first or last two lines) of two pages or more: running heads."""
        if self._running is None:
            seen: Counter[str] = Counter()
            for text in self.texts:  # only each page's edge lines are normalized: a long book has thousands of pages
                raw = [ln for ln in text.splitlines() if ln.strip()]
                seen.update(set(_norm_lines("\n".join(raw[:2] + raw[-2:]))))
            self._running = {ln for ln, c in seen.items() if c >= 2}
        return self._running


_NUMBER_ONLY = re.compile(r"^(?:\d{1,5}|[ivxlcdm]{1,8})$")


def _norm_lines(text: str) -> list[str]:
    return [spaced_words(ln) for ln in text.splitlines() if ln.strip()]


# A heading may name its level before the number ("Chapter 6" over the title); normalized text.
_HEAD_WORD = re.compile(r"^(?:chapter|chapitre|kapitel|section|appendix|annex|annexe|anhang|part|teil|book)\s+")
_HEAD_KEY_CHARS = 40


def heading_label(title: str) -> str:
    """The normalized number a numbered title is headed with in the body ("Chapter 6 Foo" -> "6", "6.1 Foo" ->
    "6 1"), or "" when the title has no section number."""
    num = parse_numbering(title)
    if num is None or num.kind not in ("decimal", "chapter", "letter", "appendix", "section"):
        return ""
    return _HEAD_WORD.sub("", spaced_words(num.label), count=1)


def _lookup(idx: dict[tuple[str, int], list[int]], pn: PageNumber, after: int) -> int | None:
    pages = idx.get((pn.kind, pn.value))
    if not pages:
        return None
    later = [p for p in pages if p >= after]
    return later[0] if later else None


MAX_FOLIO_HITS = 0.5  # the folios' offset is questioned when it puts fewer of the titles than this on their pages
# The share of the entries whose titles must stand on the pages another offset gives them, to overrule the folios: most
# of them, as where the contents numbers the file's pages; a contents older than its body (sections grown, entries found
# a page or two further on as the book goes) has no one offset that holds for most of it, and keeps its folios.
MIN_TITLE_HITS = 0.8
MIN_TITLE_VOTES = 3  # and at least this many of them: one or two titles found elsewhere (a figure page with a folio
# and no text layer, the heading under it on the next page) are no evidence against the folios


def _hits(entries: Sequence[TocEntry], keys: Sequence[str], finder: "_Finder", offset: int | None,
          toc_pages: set[int]) -> int:
    """How many arabic-numbered entries have their title on the page their number gives at ``offset``."""
    if offset is None:
        return 0
    return sum(1 for e, key in zip(entries, keys) if e.page is not None and e.page.kind == "arabic" and len(key) >= 3
               and (e.page.value + offset) not in toc_pages and finder.on(key, e.page.value + offset))


def _title_pairs(entries: Sequence[TocEntry], keys: Sequence[str], finder: "_Finder", body_start: int,
                 page_count: int) -> list[tuple[int, int]]:
    """(printed, physical) for the first three body pages that hold each arabic-numbered entry's title."""
    pairs: list[tuple[int, int]] = []
    for e, key in zip(entries, keys):
        if e.page is None or e.page.kind != "arabic" or len(key) < 6:
            continue
        for p in finder.pages_with(key, body_start, page_count)[:3]:
            pairs.append((e.page.value, p))
    return pairs


def map_entries(
    entries: list[TocEntry],
    texts: Sequence[str],
    labels: Sequence[str | None],
    toc_pages: Sequence[int],
    shared_page: int | None = None,
    by_heading: bool = False,
) -> OffsetResult:
    """Set ``physical`` and ``status`` on every entry; return the offset decisions. ``shared_page``: the last contents
    page when the body begins on it, under the listing; an entry whose printed page is that page's may go there.
    ``by_heading``: a listing without page numbers; an entry without a link goes to the first page after the one
    before it that sets its title as a line of its own."""
    page_count = len(texts)
    finder = _Finder(texts)
    toc_set = set(toc_pages)
    body_start = (max(toc_pages) + 1) if toc_pages else 1
    lab_idx = label_index(labels)
    folios = read_folios(texts)
    # Roman folios before the contents too: a preface listed as "v" is printed there, before the listing.
    fol_idx = folio_index({p: f for p, f in folios.items() if p >= body_start - 1 or f.kind == "roman"})
    keys = [title_key(e.title) for e in entries]
    labels_ = [heading_label(e.title) for e in entries]
    repeated = {k for k, c in Counter(keys).items() if c > 1}  # generated titles listed again and again

    # Dominant offset for arabic numbers: from labels/folios when they exist, else titles in the body.
    pairs: list[tuple[int, int]] = []
    for e in entries:
        if e.page is None or e.page.kind != "arabic":
            continue
        for idx in (lab_idx, fol_idx):
            p = _lookup(idx, e.page, body_start)
            if p is not None:
                pairs.append((e.page.value, p))
                break
    method = "labels+folios" if pairs else "titles"
    folio_numbers = False
    if not pairs:
        pairs = _title_pairs(entries, keys, finder, body_start, page_count)
    elif not lab_idx:
        # The contents may number the file's pages rather than the folios printed on them (a word processor's
        # contents counting the unnumbered title pages): when most titles (MIN_TITLE_HITS) stand on the pages their
        # numbers give at another offset, and at the folios' offset on less than half as many, the folios are not the
        # contents'.
        # Titles are voted for only when the folios' offset places fewer than half of them: a cost of the rare case.
        folio_off = vote_offset(pairs)
        folio_hits = _hits(entries, keys, finder, folio_off, toc_set)
        if folio_hits < MAX_FOLIO_HITS * len(entries):
            by_titles = _title_pairs(entries, keys, finder, body_start, page_count)
            title_off = vote_offset(by_titles)
            title_hits = _hits(entries, keys, finder, title_off, toc_set) if title_off != folio_off else 0
            if (title_hits >= max(MIN_TITLE_VOTES, MIN_TITLE_HITS * len(entries))
                    and title_hits >= 2 * folio_hits):
                pairs, method, fol_idx, folio_numbers = by_titles, "titles", {}, True
    dominant = vote_offset(pairs)
    if dominant is None:
        # No labels, no folios, no title found in the body (a body without a text layer): assume the main
        # matter's page 1 is the first page after the contents, as books are laid out, unless that pushes
        # the last listed page past the end of the document.
        dominant = 0
        printed = [e.page.value for e in entries if e.page is not None and e.page.kind == "arabic"]
        if toc_pages and printed and max(printed) + max(toc_pages) <= page_count:
            dominant = max(toc_pages)
            method = "after-contents"

    counts: Counter[str] = Counter()
    deferred: list[int] = []
    prev = 1  # entries may point before the TOC (a preface); after that, pages never go backwards
    cur = dominant
    offsets_used: list[tuple[int, int]] = []  # (printed, physical) of arabic entries
    for i, (e, key) in enumerate(zip(entries, keys)):
        cands: list[tuple[str, int]] = []
        if e.link is not None and e.link >= body_start - 1:
            cands.append(("link", e.link))
        if e.page is not None:
            for name, idx in (("label", lab_idx), ("folio", fol_idx)):
                p = _lookup(idx, e.page, min(prev, body_start))
                if p is not None and p >= prev - 2:
                    cands.append((name, p))
            if e.page.kind == "arabic":
                cands.append(("offset", e.page.value + cur))
        # Pages go forward in TOC order unless the body confirms a jump back (filings list Item 1 after
        # the MD&A it precedes); nothing but the contents heading itself, listed before the body's entries ("Contents
        # vii" after "Preface v"), points into the contents pages.
        cands = [(n, p) for n, p in cands if 1 <= p <= page_count
                 and (p not in toc_set or is_heading(key) and prev <= max(toc_set)
                      or p == shared_page and n != "link")  # a link on a merged two-column line may be the other's
                 and (p >= prev or finder.on(key, p))]
        chosen: int | None = None
        status = "unverifiable"
        if cands and cands[0][0] == "link":
            printed_here = next((p for n, p in cands if n in ("label", "folio") and finder.on(key, p)), None)
            if (printed_here is not None and abs(printed_here - cands[0][1]) > HEAD_WINDOW
                    and cands[0][1] > _next_listed(entries, i, cur)):
                # The link goes past the entries listed after this one, while a page that prints the listed number
                # holds the title: a generator that resolves every anchor of one name to one target (HTMLDOC's
                # "Colors" of chapter 3 linked to the appendix's "Colors") made it. The page's own number wins. A link
                # near the listed page, or before the next entries, is the author's anchor, which the outline shares
                # (hyperref's).
                cands = [c for c in cands if c[0] != "link"]
        if cands and cands[0][0] == "link":
            link = cands[0][1]
            chosen, status = link, ("verified" if finder.on(key, link) else "linked")
            if ((status == "linked" or e.extra.get("link_in_passing")) and e.extra.get("link_at_foot")
                    and link < page_count
                    and link + 1 not in toc_set and finder.on(key, link + 1)):
                # The link's destination lies at the foot of its page, below all of its body, the page does not print
                # the title (or names it only in passing: ``link_in_passing``, see ``_mark_anchors_at_foot``) and the
                # next one does: the generator set the anchor where the section's space before began and the heading
                # moved on to the next page (DocBook's FOP, whose contents prints the anchor's page number too). A
                # destination with text after it on its page is the section's start (an "Index" anchored above the last
                # lines of the page before it, which the outline shares) and stays.
                chosen, status = link + 1, "corrected"
        else:
            for name, p in cands:
                # A short title must be a word of the page; the page that prints it after its number counts too, where
                # the contents shortened it ("5.7 Offset" for a run-in "5.7 Offsets: Notwithstanding ...").
                if finder.on(key, p) or (labels_[i] and finder.numbered_on(labels_[i], key, p)):
                    headed = _headed_near(finder, labels_[i], key, p, prev, toc_set)
                    if headed is not None:
                        # The page names the title only in passing; its numbered heading is a few pages away (a
                        # contents printed before figures moved, a folio sequence it no longer matches).
                        chosen, status = headed, "corrected"
                        break
                    chosen, status = p, "verified"
                    if name in ("label", "folio") and e.page.kind == "arabic":  # type: ignore[union-attr]
                        # The page prints this number and holds the title: the offset here, whatever an entry
                        # before it moved it to (a contents that lists a section one page early, as Doxygen's
                        # does, must not shift every folio-less chapter opening after it).
                        cur = p - e.page.value  # type: ignore[union-attr]
                    break
            if chosen is None and cands and cands[0][0] in ("label", "folio") and _bare(texts[cands[0][1] - 1]):
                # The page prints the listed number but holds nothing beyond its running head and folio (an
                # anchor set before a figure that moved on): nothing on it contradicts the contents.
                chosen = cands[0][1]
            if chosen is None and cands:
                headed = _headed_near(finder, labels_[i], key, cands[0][1], prev, toc_set)
                if headed is not None:
                    chosen, status = headed, "corrected"
            # One of a run of entries listed with one number, the run's titles found on the page it maps to: the
            # entry stays there even where the text layer lost its title, unless a page nearby sets the title as a
            # line of its own (DocBook's reference entry listed a page early); a page that prints it inside a longer
            # title ("gpio_api.dox" in "x400_gpio_api.dox File Reference") is no evidence.
            in_run = bool(cands) and _same_page_run(entries, i, cands[0][1])
            if chosen is None and cands:
                near = finder.near(key, cands[0][1]) if len(key) >= 4 else None
                if near is not None and finder.only_running(key, near):
                    near = None  # a running head names the chapter on its later pages: no evidence of its start
                if (near is not None and near >= prev and near not in toc_set  # the listing itself is not the section
                        and (not in_run or finder.titled(key, near))):
                    chosen, status = near, "corrected"
                    if e.page is not None and e.page.kind == "arabic" and cands[0][0] == "offset":
                        # Found a page or two from where the offset put it: the offset here, for the entries after it
                        # (a contents older than its body drifts as sections grew: each entry found off by one or two
                        # more, 3.12 two pages on, 3.13 three), not the one voted over the whole book.
                        cur = near - e.page.value
            if chosen is None and e.page is not None and e.page.kind == "arabic" and labels_[i] and len(key) >= 3:
                # The first page after the previous entry that heads the title with its number is the section's,
                # wherever the entries after it are found: a contents older than its body (a section added, every page
                # after it moved on) agrees with no offset for two entries running, and its number tells a title the
                # contents lists twice ("3.9 OCTET STRING", "5.9 OCTET STRING") from the other.
                headed = next((p for p in finder.pages_with(key, prev, page_count)
                               if p not in toc_set and finder.headed(labels_[i], key, p)), None)
                if headed is not None:
                    chosen, status, cur = headed, "corrected", headed - e.page.value
            if chosen is None and e.page is not None and e.page.kind == "arabic" and len(key) >= 6 and key not in repeated:
                # Piecewise: the numbering may restart or pages may be inserted. Accept a new offset
                # only if the title is found there and either the next entry agrees with it or the
                # title occurs on no other page after the previous entry. A title the contents lists many
                # times ("Detailed Description" under every class) is no evidence of where this one is:
                # an offset moved by it would misplace every entry after it.
                found = [p for p in finder.pages_with(key, prev, page_count)
                         if p not in toc_set and p != (cands[0][1] if cands else -1) and (not in_run or finder.titled(key, p))
                         and not finder.only_running(key, p)]
                for p in found[:3]:
                    new = p - e.page.value
                    if len(found) == 1 or _next_agrees(entries, keys, i, new, finder, repeated):
                        chosen, status, cur = p, "corrected", new
                        break
            if chosen is None and cands:
                chosen = cands[0][1]
        if chosen is None:
            deferred.append(i)  # no printed number: placed between its neighbours below
            continue
        if chosen < prev and status in ("unverifiable", "linked"):
            chosen = prev  # keep document order when nothing on the page supports going back
        e.physical = max(1, min(page_count, chosen))
        e.status = status
        counts[status] += 1
        if status != "unverifiable":
            prev = max(prev, e.physical)
        if e.page is not None and e.page.kind == "arabic" and status in CHECKED:
            offsets_used.append((e.page.value, e.physical))
    guessed: set[int] = set()  # deferred entries found nowhere, placed by their neighbours
    for i in deferred:
        e, key = entries[i], keys[i]
        # An entry before this one that was found nowhere is no bound: placed at the next known page (the end of the
        # document when none follows), it would keep the entries after it from being looked for where they are.
        lo = next((entries[j].physical for j in range(i - 1, -1, -1) if entries[j].physical and j not in guessed),
                  body_start) or body_start
        hi = next((entries[j].physical for j in range(i + 1, len(entries)) if entries[j].physical), page_count) or page_count
        if lo > hi:  # the TOC jumps back here (filings list Item 2 after Item 1's later pages): look just before hi
            lo = max(body_start, hi - 2)
        if by_heading:
            # A listing without page numbers: the first page after the last title found that sets this title as a
            # line of its own, else mentions it; a title found nowhere stays there and does not move the next ones.
            lo = next((entries[j].physical for j in range(i - 1, -1, -1) if entries[j].status != "unverifiable"
                       and entries[j].physical), body_start) or body_start
            # A numbered title goes to the first page that heads it with its number ("1.3 SWIG License"), else that
            # prints it after its number (a heading also set in a running foot, which ``headed`` passes over): the
            # same words alone on a line may be another chapter's section ("Introduction").
            numbered = [p for p in range(lo, page_count + 1) if finder.on(key, p)
                        and finder.numbered_on(labels_[i], key, p)] if labels_[i] and len(key) >= 3 else []
            headed = next((p for p in numbered if finder.headed(labels_[i], key, p)), numbered[0] if numbered else None)
            found = [headed] if headed is not None else finder.pages_with(key, lo, page_count) if len(key) >= 3 else []
            found = [p for p in found if finder.titled(key, p)] or found
            e.physical, e.status = (found[0], "located") if found else (lo, "unverifiable")
            counts[e.status] += 1
            continue
        found = finder.pages_with(key, lo, max(lo, hi)) if len(key) >= 3 else []
        # A page that heads the numbered title, else sets the title as a line of its own, before one that mentions it
        # ("Index" named in the bibliography's text, headed on the page after it).
        found = ([p for p in found if labels_[i] and finder.headed(labels_[i], key, p)]
                 or [p for p in found if finder.titled(key, p)] or found)
        # "Part II" printed without a number starts where its first item starts, unless its title shows up before.
        e.physical, e.status = (found[0], "located") if found else (max(lo, hi), "unverifiable")
        counts[e.status] += 1
        if not found:
            guessed.add(i)
    for i in sorted(guessed):
        # Placed again now that the entries after it are: at the next one's page, never past it (the appendix's
        # "Table of Figures", named "List of Figures" in the body, before its "Bibliography" and "Index").
        nxt = next((entries[j].physical for j in range(i + 1, len(entries)) if entries[j].physical and j not in guessed),
                   None)
        prev_page = next((entries[j].physical for j in range(i - 1, -1, -1) if entries[j].physical), body_start) or body_start
        if nxt is not None and prev_page <= nxt < (entries[i].physical or 0):
            entries[i].physical = nxt
    _name_appendices(entries, texts)
    _name_chapters(entries, texts)
    segments = _segments(offsets_used)
    piecewise = len(segments) > 1
    return OffsetResult(
        page_offset=None if piecewise else (segments[0][1] - segments[0][0] if segments else dominant),
        counts={k: counts.get(k, 0) for k in ("verified", "corrected", "linked", "located", "unverifiable")},
        mapping=[list(s) for s in segments],
        method=method,
        decisions={"dominant_offset": dominant, "folio_pages": len(folios), "labels": any(labels),
                   **({"folios_not_listed": True} if folio_numbers else {})},
    )


# A contents entry lettered like an appendix ("B VP3", the letter alone before the title) and the body's heading of it.
_LETTERED = re.compile(r"^(?P<letter>[A-Z])\s+(?P<rest>\S.*)$")


def _name_appendices(entries: list[TocEntry], texts: Sequence[str]) -> None:
    """An entry "B VP3" whose next entry is numbered "B.1", on a page headed "Appendix B", becomes "Appendix B VP3".

    LaTeX's and Texinfo's contents print an appendix by its letter alone, as a chapter by its number, while its page
    heads it "Appendix B": the bare letter reads as a word of the title ("B VP3" is no title a reader names), the
    word the page prints says what the letter is. The next entry's "B.1" and the page's heading are the evidence; a
    title that merely opens with a capital letter and a space ("A Tour of ...") has neither."""
    for i, e in enumerate(entries[:-1]):
        m = _LETTERED.match(e.title.strip())
        if m is None or not e.physical or not (1 <= e.physical <= len(texts)):
            continue
        letter = m.group("letter")
        if not re.match(rf"{letter}\.1\b", entries[i + 1].title.strip()):
            continue
        head = re.compile(rf"^\s*appendix\s+{letter}\b", re.I)
        if any(head.match(ln) for ln in texts[e.physical - 1].splitlines()[:12]):
            e.title = f"Appendix {letter} {m.group('rest')}"


# A chapter's entry as DocBook's contents prints it, its number ended by a full stop ("2. Antes de empezar"), and the
# line its page opens with when the page names what the number is ("Capítulo 2. Antes de empezar").
_DOTTED_CHAPTER = re.compile(r"^(?P<num>\d{1,3}|[A-Z])\.\s+(?P<rest>\S.*)$")
_NAMED_HEAD = re.compile(r"^(?P<word>[^\W\d_]{4,16})\s+(?P<num>\d{1,3}|[A-Z])\.\s+(?P<rest>\S.*)$")


def _name_chapters(entries: list[TocEntry], texts: Sequence[str]) -> None:
    """Entries "2. Antes de empezar" whose pages open with "Capítulo 2. Antes de empezar" take the page's words, when
    two or more entries of the listing are so headed.

    DocBook's contents prints a chapter or an appendix by its number and a full stop, while the chapter's page heads
    it with the word that says what the number is, on the title's own line ("Chapter 1. Introduction", "Apéndice A.
    Historia de revisiones"), and the author's outline names it so. The same word heading two entries' pages is the
    generator's style, not one page's wording; a LaTeX chapter sets "Chapter 1" on a line of its own, above its
    title, and is left as it is. Only top-level entries: under a Part, a filing's "1. Business" heads its page
    "ITEM 1. BUSINESS", an Item the filing reader names itself."""
    named: list[tuple[TocEntry, str]] = []
    for e in entries:
        m = _DOTTED_CHAPTER.match(" ".join(e.title.split()))
        if m is None or e.level != 1 or not e.physical or not (1 <= e.physical <= len(texts)):
            continue  # a chapter is at the listing's top; a filing's "1. Business" under "PART I" is no chapter
        lines = [" ".join(ln.replace("\u00a0", " ").split()) for ln in texts[e.physical - 1].splitlines()[:4]]
        for ln in [x for pair in zip(lines, [f"{a} {b}" for a, b in zip(lines, lines[1:])] + [""]) for x in pair]:
            h = _NAMED_HEAD.match(ln)  # the head's line, or it and the next (a long title wrapped)
            if (h is not None and h.group("num") == m.group("num") and h.group("word")[0].isupper()
                    and spaced_words(h.group("rest")) == spaced_words(m.group("rest"))):
                named.append((e, f"{h.group('word')} {m.group('num')}. {m.group('rest')}"))
                break
    if len(named) >= 2:
        for e, title in named:
            e.title = title


HEAD_WINDOW = 5  # pages either side of the listed page where a numbered heading is looked for


def _headed_near(finder: _Finder, label: str, key: str, page: int, prev: int, toc_set: set[int]) -> int | None:
    """The first page within HEAD_WINDOW of ``page`` (not before ``prev``) that sets the numbered title as a heading,
    when ``page`` itself sets it neither numbered nor as a line of its own; None otherwise. The first: a running head
    repeats a section's title on the pages after its heading, never before it."""
    if not label or len(key) < 3 or finder.numbered_on(label, key, page) or finder.titled(key, page):
        return None
    for q in range(max(1, prev, page - HEAD_WINDOW), page + HEAD_WINDOW + 1):
        if q != page and q not in toc_set and finder.headed(label, key, q):
            return q
    return None


def _same_page_run(entries: list[TocEntry], i: int, page: int) -> bool:
    """Whether the entries just before entry ``i`` list its printed page too, and the nearest of them whose title
    was found was found on ``page``: the page of a run of entries listed with one number (Doxygen's dozens of short
    file references on one page), some of whose titles the text layer lost."""
    if entries[i].page is None:
        return False
    for j in range(i - 1, -1, -1):
        e = entries[j]
        if e.page != entries[i].page:
            return False
        if e.status in CHECKED:
            return e.physical == page
    return False


def _next_listed(entries: list[TocEntry], i: int, offset: int) -> int:
    """The physical page the next entry with an arabic page number is listed on, under ``offset`` (a large number when
    none follows)."""
    for e in entries[i + 1:]:
        if e.page is not None and e.page.kind == "arabic":
            return e.page.value + offset
    return 10 ** 9


def _bare(text: str) -> bool:
    """A page with no text of its own: at most a running head and a folio. A figure's caption is not a running head:
    a page of one figure is the content of the section before it."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    return len(lines) <= 2 and sum(len(ln) for ln in lines) < 80 and not any(_CAPTION.match(ln) for ln in lines)


_CAPTION = re.compile(r"^\s*(?:figure|fig\.|table|plate|abbildung|tableau)\s*\d", re.I)


def _next_agrees(entries: list[TocEntry], keys: list[str], i: int, offset: int, finder: _Finder,
                 repeated: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    """The next numbered entry with a title of its own is found under the new offset too (or there is none)."""
    for j in range(i + 1, len(entries)):
        e = entries[j]
        if e.page is None or e.page.kind != "arabic" or len(keys[j]) < 4 or keys[j] in repeated:
            continue
        return finder.on(keys[j], e.page.value + offset)
    return True


def _segments(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(printed, physical) at each point where the offset changes for good (two entries in a row)."""
    out: list[tuple[int, int]] = []
    last = None
    pending: tuple[int, int] | None = None
    for printed, phys in pairs:
        off = phys - printed
        if last is None:
            out.append((printed, phys))
            last = off
        elif off != last:
            if pending is not None and pending[1] - pending[0] == off:
                out.append(pending)
                last = off
                pending = None
            else:
                pending = (printed, phys)
        else:
            pending = None
    return out
