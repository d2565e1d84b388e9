"""A short snippet of the text that matched: the densest window of query terms on a hit's best page.

Every result carries one (CLI --json, HTTP, MCP), so a reader or an agent can judge a hit without
reading its pages. Matching runs on the normalised text (query.normalize), like search itself.
"""

from __future__ import annotations

import functools
import re
from typing import Sequence

from query.normalize import normalize
from query.text import tokenize

SNIPPET_CHARS = 200


def snippet(text: str, question: str, max_chars: int = SNIPPET_CHARS, *, normalized: bool = False) -> str:
    """The ``max_chars`` of ``text`` around the window with the most distinct query terms ('' for empty text).

    Query stems are found with one regex over the page (C speed): a search returns ten snippets per call."""
    flat, lower = _flattened(text if normalized else normalize(text or ""))
    if not flat:
        return ""
    rx = _matcher(question)
    found = [(m.start(), m.group(0)) for m in rx.finditer(lower)] if rx is not None else []
    start = 0
    if found:
        reach = max_chars * 3 // 5  # a window of terms that fits in the snippet with some context
        best, best_count, j = found[0][0], 0, 0
        for i, (pos, _) in enumerate(found):  # two pointers over the matches: most distinct terms per window
            while found[j][0] < pos - reach:
                j += 1
            count = len({term for _, term in found[j: i + 1]})
            if count > best_count:
                best, best_count = found[j][0], count
        start = max(0, best - max_chars // 5)
        if start:  # start on a word boundary
            space = flat.find(" ", start)
            start = space + 1 if 0 <= space < best else best
    piece = flat[start: start + max_chars]
    if start + max_chars < len(flat):
        cut = piece.rfind(" ")
        piece = (piece[:cut] if cut > max_chars // 2 else piece) + " …"
    return ("… " if start else "") + piece


@functools.lru_cache(maxsize=4096)
def _flattened(text: str) -> tuple[str, str]:
    """The text on one line, as printed and lower-cased: a page is read again by every search that hits it (a
    str caches its hash, so looking up a stored page costs nothing)."""
    flat = " ".join(text.split())
    return flat, flat.lower()


@functools.lru_cache(maxsize=256)
def _matcher(question: str) -> "re.Pattern[str] | None":
    """One regex finding the question's stems at word starts (a search asks it for ten snippets)."""
    stems = sorted(set(tokenize(question)), key=len, reverse=True)
    if not stems:
        return None
    return re.compile(r"\b(?:" + "|".join(map(re.escape, stems)) + r")")


def page_snippet(texts: Sequence[str], page_numbers: Sequence[int], question: str) -> str:
    """Snippet from the first of ``page_numbers`` (a hit's best page) that has any text; ``texts`` are normalised."""
    for p in page_numbers:
        if 1 <= p <= len(texts) and texts[p - 1].strip():
            return snippet(texts[p - 1], question, normalized=True)
    return ""
