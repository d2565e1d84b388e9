"""The letter groups of a back-of-book index ("Symbols", "A", "B", ...), for the headings fallback.

LaTeX package manuals (doc/ltxdoc/l3doc with hyperref) carry no printed contents, and their outline lists the
index's letter groups below "Index". The letters are too short to pass the heading detector (a title has two
letters or more) and share their baseline with the other column's entries, so they are read here from word
positions instead: a capital letter standing alone in its column, in alphabetical order through the index. Another
alphabetical listing ("List of macros") may hang its letters in the margin before each group's first entry.
Pure over PageLayouts.
"""

from __future__ import annotations

import re
import statistics
from typing import Sequence

from parsers.headings import BOOK_INDEX, MARGIN, Heading
from parsers.layout import Line, PageLayout, Word
from parsers.offsets import title_key

# The group before "A" in makeindex/xindy styles.
_LEAD_GROUPS = {"symbols", "numbers", "digits"}
MIN_GROUPS = 3  # letters in order before the index is taken to be grouped (a stray "A" or "I" is not)
# Letters set this much taller than the index's entries are display heads (Texinfo's 14-pt letters over 9-pt entries,
# Sphinx's), which those formats' outlines do not list; LaTeX's doc/l3doc set them in the entries' size and list them.
DISPLAY = 1.25
ALONE = 1.5  # space on each side of a group letter, in font sizes: it stands alone in its column


# Another alphabetical listing that may be grouped by letter: "List of macros", "Glossary".
LISTING = re.compile(r"^(?:glossary(?: of [a-z ]+)?|(?:alphabetical )?list of [a-z ]+)$")


def index_heading(heads: Sequence[Heading]) -> int | None:
    """Position of the last back-of-book index heading among ``heads``, else of the last alphabetical listing's
    ("List of macros", "Glossary"), if any."""
    keys = [title_key(h.title) for h in heads]
    for pattern in (BOOK_INDEX, LISTING):
        for i in range(len(heads) - 1, -1, -1):
            if pattern.match(keys[i]):
                return i
    return None


def letter_groups(layouts: Sequence[PageLayout], index: Heading, until: Heading | None = None) -> list[Heading]:
    """The index's letter groups, one Heading each a level below ``index``, in order; [] when fewer than
    MIN_GROUPS letters run in alphabetical order (an index without group heads)."""
    found: list[tuple[tuple, str, int, float, float, float]] = []  # (reading order, title, page, y0, size, height)
    read: list[Line] = []  # the lines on the index's pages, whose words' height is the entries': asked for last
    for lay in layouts:
        if lay.number < index.page or (until is not None and lay.number > until.page):
            continue
        on_page: list[tuple[float, str, float, float, float]] = []  # (x0, title, y0, size, height)
        for ln in lay.lines:
            if ln.y1 < lay.height * MARGIN or ln.y0 > lay.height * (1 - MARGIN):
                continue
            if lay.number == index.page and ln.y0 <= index.y0:
                continue
            if until is not None and lay.number == until.page and ln.y0 >= until.y0:
                continue
            size = max(ln.size, 1.0)
            read.append(ln)
            if ln.words_follow_text() and not any(map(_group_word, ln.text.split())):
                continue  # no letter nor "Symbols" among its words: their boxes are not made (an index's many lines)
            words = ln.words
            for i, w in enumerate(words):
                text = w.text.strip()
                if not (len(text) == 1 and "A" <= text <= "Z") and text.casefold() not in _LEAD_GROUPS:
                    continue
                before = w.x0 - words[i - 1].x1 if i else None
                after = words[i + 1].x0 - w.x1 if i + 1 < len(words) else None
                if before is not None and before < ALONE * size:
                    continue
                if after is not None and after < ALONE * size and not (i == 0 and _hanging(lay, words, size)):
                    continue
                on_page.append((w.x0, text, w.y0, ln.size, w.y1 - w.y0))
        columns = _columns([c[0] for c in on_page], max((c[3] for c in on_page), default=1.0))
        for (x0, text, y0, size, height) in on_page:
            found.append(((lay.number, columns[x0], y0), text, lay.number, y0, size, height))
    found.sort(key=lambda f: f[0])
    chain = _alphabetical_chain([f[1] for f in found])
    if sum(1 for i in chain if len(found[i][1]) == 1) < MIN_GROUPS:
        return []
    entry = statistics.median([w.y1 - w.y0 for ln in read for w in ln.words])  # only for an index with letters
    if sum(found[i][5] > DISPLAY * entry for i in chain) * 2 > len(chain):
        return []  # display letters: not in the outline
    return [Heading(found[i][2], found[i][1], found[i][4], True, found[i][3], level=index.level + 1) for i in chain]


def _group_word(text: str) -> bool:
    """A word that may be a group's head: a capital letter, or a lead group's name ("Symbols")."""
    return (len(text) == 1 and "A" <= text <= "Z") or text.casefold() in _LEAD_GROUPS


def _columns(starts: list[float], size: float) -> dict[float, int]:
    """The column (0, 1, ...) of each group letter of a page, from where the letters start: letters of one column
    start together, and a new column starts more than COLUMN_GAP sizes to the right (an index set in two columns,
    or in three as LaTeX's doc package sets it)."""
    out: dict[float, int] = {}
    column, last = -1, None
    for x in sorted(set(starts)):
        if last is None or x - last > COLUMN_GAP * max(size, 1.0):
            column += 1
        out[x] = column
        last = x
    return out


COLUMN_GAP = 3.0  # letters of one column start within this many font sizes of each other


def _hanging(lay: PageLayout, words: list[Word], size: float) -> bool:
    """The line's first word is a letter hung in the margin before the first entry of its group: left of every other
    line of the page by a size or more, the entry starting where the page's other lines do, a space or more after
    the letter (a listing of macros with its letters out in the margin)."""
    if len(words) < 2 or words[1].x0 - words[0].x1 < HANG_GAP * size:
        return False
    others = [ln.x0 for ln in lay.lines if lay.height * MARGIN <= ln.y0 <= lay.height * (1 - MARGIN)
              and not _LETTER_FIRST.match(ln.text)]
    return bool(others) and words[0].x0 <= min(others) - size and abs(words[1].x0 - min(others)) <= 2


_LETTER_FIRST = re.compile(r"^\s*[A-Z]\s")  # a line opening with a capital standing alone: another group's letter
HANG_GAP = 0.75  # a hung letter's space before its entry, in font sizes (a word space is a third of one)


def _alphabetical_chain(titles: list[str]) -> list[int]:
    """Positions of the longest run of titles in strictly increasing letter order (a lead group such as
    "Symbols" only first): the group heads, with stray capitals left out."""
    def rank(t: str) -> int:
        return 0 if t.casefold() in _LEAD_GROUPS else ord(t) - ord("A") + 1

    best: list[list[int]] = []
    for i, t in enumerate(titles):
        r = rank(t)
        prev = [c for c in best if rank(titles[c[-1]]) < r]
        if r == 0:
            prev = []
        chain = (max(prev, key=len) if prev else []) + [i]
        best.append(chain)
    return max(best, key=len, default=[])
