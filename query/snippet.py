"""A short snippet of the text that matched: the densest window of query terms on a hit's best page.

Every result carries one (CLI --json, HTTP, MCP), so a reader or an agent can judge a hit without
reading its pages. Matching runs on the normalised text (query.normalize), like search itself.
"""

from __future__ import annotations

import re
from typing import Sequence

from query.normalize import normalize
from query.text import STOPWORDS, stem, tokenize

SNIPPET_CHARS = 200
WINDOW_TOKENS = 24
_WORD = re.compile(r"[^\W_]+")


def snippet(text: str, question: str, max_chars: int = SNIPPET_CHARS) -> str:
    """The ``max_chars`` of ``text`` around the window with the most distinct query terms ('' for empty text)."""
    flat = " ".join(normalize(text or "").split())
    if not flat:
        return ""
    wanted = set(tokenize(question))
    words = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(flat)]
    hits = [i for i, (_, _, w) in enumerate(words) if w not in STOPWORDS and stem(w) in wanted]
    if not hits:
        start = 0
    else:
        best, best_count, j = hits[0], 0, 0
        for i, pos in enumerate(hits):  # two pointers over the matching words: most distinct terms per window
            while hits[j] < pos - WINDOW_TOKENS:
                j += 1
            count = len({stem(words[h][2]) for h in hits[j: i + 1]})
            if count > best_count:
                best, best_count = hits[j], count
        start = max(0, words[best][0] - max_chars // 4)
        if start:  # start on a word boundary
            space = flat.find(" ", start)
            start = space + 1 if 0 <= space < words[best][0] else words[best][0]
    piece = flat[start: start + max_chars]
    if start + max_chars < len(flat):
        cut = piece.rfind(" ")
        piece = (piece[:cut] if cut > max_chars // 2 else piece) + " …"
    return ("… " if start else "") + piece


def page_snippet(pages: Sequence[dict], page_numbers: Sequence[int], question: str) -> str:
    """Snippet from the first of ``page_numbers`` (a hit's best page) that has any text."""
    for p in page_numbers:
        if 1 <= p <= len(pages) and (pages[p - 1].get("text") or "").strip():
            return snippet(pages[p - 1]["text"], question)
    return ""
