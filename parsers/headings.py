"""Headings from font statistics, for documents without a usable TOC and for splitting long leaves.

A heading is a short line set larger than the body text, or bold at body size
and standing alone; lines in the top/bottom margins (running headers, folios),
monospace lines (code) and sentences are excluded. Levels come from numbering
depth where present, else from the rank of the heading's style (size, weight).
Pure over PageLayouts.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from parsers.layout import Line, PageLayout
from parsers.numbering import Numbering, parse_numbering, parse_page_number

_MONO = re.compile(r"mono|courier|consol|typewriter|\btt|cmtt|t1xtt|menlo|inconsolata", re.I)
_LABEL_ONLY = re.compile(
    r"^(?:chapter|part|appendix|section|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|\d+|[ivxlcdm]+)$",
    re.I,
)
_LEADERS = re.compile(r"(?:\.\s?){4,}")
# "Note 7. Income taxes" / "NOTE 7 — INCOME TAXES": the notes to financial statements are numbered sections.
_NOTE = re.compile(r"^note\s+\d{1,3}[A-Za-z]?\b\s*[.:\u2013\u2014-]?\s*\S", re.I)
MARGIN = 0.075  # share of page height treated as header/footer band


@dataclass
class Heading:
    page: int
    title: str
    size: float
    bold: bool
    y0: float
    level: int = 1
    numbering: Numbering | None = None


def body_size(layouts: Sequence[PageLayout]) -> float:
    """The font size most characters are set in."""
    counts: Counter[float] = Counter()
    for lay in layouts:
        for ln in lay.lines:
            counts[round(ln.size, 1)] += len(ln.text)
    return counts.most_common(1)[0][0] if counts else 0.0


def _is_candidate(ln: Line, lay: PageLayout, body: float, gap_above: float, strong_only: bool = False) -> bool:
    text = ln.text.strip()
    if not text or len(text) > 120 or len(text.split()) > 16:
        return False
    if ln.y1 < lay.height * MARGIN or ln.y0 > lay.height * (1 - MARGIN):
        # Running heads and folios live here; a numbered heading set larger than the body at the very
        # top of a page ("Note 2 - Fair value measurement") is still a heading (repeats are dropped later).
        if not (ln.y0 < lay.height * MARGIN and ln.size >= body + 0.9 and _numbered(text)):
            return False
    if not re.search(r"[^\W\d_]{2,}", text) or _LEADERS.search(text):
        return False
    if _MONO.search(ln.font or ""):
        return False
    if body <= 0 or ln.size <= 0:
        return False
    if ln.max_gap > 3 * max(ln.size, body):
        return False  # two columns side by side, not a heading
    bigger = ln.size >= body + 0.9
    numbered = parse_numbering(text) or (_NOTE.match(text) and "note")
    if strong_only and (len(text.split()) > 12 or re.search(r"[a-z]\. [A-Z]", text)):
        return False  # a sentence, or two columns merged into one line
    if not bigger:
        if strong_only and numbered is None:
            return False
        if not ln.bold or ln.size < body - 0.6:
            return False
        # Bold at body size: only a short line set apart from the text above, not bold words in a paragraph.
        if (ln.x1 - ln.x0) > 0.75 * lay.width or text.endswith((".", ":", ",", ";")) and numbered is None:
            return False
        if gap_above < 0.6 * max(ln.y1 - ln.y0, 1.0):
            return False
    if text[-1:] in ",;/&(" or (text.endswith(".") and numbered is None):
        return False  # a sentence or the tail of one, or a fragment ("Increase /" over a table column)
    first = text.lstrip("\"'\u201c(\u2018[")[:1]
    if first.islower():
        return False  # a paragraph continuing from the line above
    if len(text.split()) > 12 and numbered is None:
        return False
    return True


def detect_headings(layouts: Sequence[PageLayout], body: float | None = None, strong_only: bool = False) -> list[Heading]:
    """Headings in reading order over the given pages, with levels.

    ``strong_only`` keeps only headings set larger than the body or numbered (used when
    splitting a section, where bold run-in labels would add noise rather than structure).
    """
    if body is None:
        body = body_size(layouts)
    found: list[Heading] = []
    for lay in layouts:
        prev: Heading | None = None
        prev_line: Line | None = None
        last_y1: float | None = None
        for ln in lay.lines:
            gap_above = ln.y0 - last_y1 if last_y1 is not None else lay.height
            last_y1 = ln.y1
            text = " ".join(ln.text.split())
            if (
                prev is not None and prev_line is not None and text[:1].islower() and len(text.split()) <= 12
                and abs(prev.size - ln.size) < 0.5 and prev.bold == ln.bold and gap_above < 0.8 * max(ln.y1 - ln.y0, 1.0)
            ):
                # A heading wrapped in a narrow column: the second line starts lower-case, in the same style.
                prev.title = f"{prev.title} {text}"
                prev_line = ln
                continue
            if not _is_candidate(ln, lay, body, gap_above, strong_only):
                prev, prev_line = None, None
                continue
            text = " ".join(ln.text.split())
            if _LABEL_ONLY.match(text) and ln.size < 30:
                # "CHAPTER" / "ONE" above the real title: a label, not the title.
                prev, prev_line = None, None
                continue
            if (
                prev is not None and prev_line is not None
                and abs(prev.size - ln.size) < 0.5 and prev.bold == ln.bold
                and ln.y0 - prev_line.y1 < 0.8 * max(ln.y1 - ln.y0, 1.0)
                and parse_numbering(text) is None
                # A short numbered heading ("Note 3. Acquisitions") did not run out of room: the line below is
                # the next heading, not its second line.
                and (not _numbered(prev.title) or prev_line.x1 - prev_line.x0 >= 0.55 * lay.width)
            ):
                prev.title = f"{prev.title} {text}"  # a heading wrapped onto a second line
                prev_line = ln
                continue
            h = Heading(lay.number, text, round(ln.size, 1), ln.bold, ln.y0, numbering=parse_numbering(text))
            found.append(h)
            prev, prev_line = h, ln
    found = [h for h in found if parse_page_number(h.title) is None]
    _drop_repeats(found, len(layouts))
    assign_heading_levels(found)
    return found


def _numbered(title: str) -> bool:
    return parse_numbering(title) is not None or bool(_NOTE.match(title))


def _drop_repeats(found: list[Heading], pages: int) -> None:
    """Drop titles repeated on many pages (running heads set large, table headers)."""
    if pages < 4:
        return
    counts = Counter(re.sub(r"\d+", "#", h.title.lower()) for h in found)
    limit = 3
    found[:] = [h for h in found if counts[re.sub(r"\d+", "#", h.title.lower())] < limit]


def assign_heading_levels(found: list[Heading]) -> None:
    """Level 1 for the largest style, then down by size and weight; decimal numbering wins."""
    styles = sorted({(-h.size, not h.bold) for h in found})
    rank = {s: i + 1 for i, s in enumerate(styles)}
    for h in found:
        n = h.numbering
        if n is not None and n.kind in ("decimal", "letter") and n.depth >= 1:
            h.level = n.depth
        else:
            h.level = rank[(-h.size, not h.bold)]
    # Keep levels dense (1, 2, 3...) so the tree has no empty tiers.
    used = sorted({h.level for h in found})
    remap = {lv: i + 1 for i, lv in enumerate(used)}
    for h in found:
        h.level = remap[h.level]
