"""Tokenizing and Okapi BM25, in plain Python.

A few dozen lines beat a dependency here: documents are one PDF's pages or
nodes (hundreds of items), so dict postings score a query in well under a
millisecond, and every retrieval method in the benchmark shares this exact
scorer so comparisons measure structure, not tokenizers.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Iterable, Sequence

_TOKEN = re.compile(r"[a-z0-9]+")

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers him his how i if in into is it its itself just me more most my no nor not now of off on
    once only or other our ours out over own same she should so some such than that the their theirs them then
    there these they this those through to too under until up very was we were what when where which while who
    whom why will with would you your yours shown give response question relying details based using please
    answer provide""".split()
)


def stem(word: str) -> str:
    """A light suffix stripper (plurals, -ing, -ed): enough to join 'statements'/'statement'."""
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + repl
    return word


def tokenize(text: str) -> list[str]:
    """Lower-case word tokens, stop words removed, lightly stemmed."""
    return [stem(t) for t in _TOKEN.findall(text.lower()) if t not in STOPWORDS]


class BM25:
    """Okapi BM25 over a fixed list of token lists; ``scores(query_tokens)`` -> one float per item."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.n = len(docs)
        self.lengths = [len(d) for d in docs]
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in Counter(doc).items():
                self.postings.setdefault(term, []).append((i, tf))
        self._norm = [k1 * (1 - b + b * (dl / self.avgdl)) if self.avgdl else k1 for dl in self.lengths]

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def scores(self, query: Iterable[str]) -> list[float]:
        out = [0.0] * self.n
        for term, qtf in Counter(query).items():
            postings = self.postings.get(term)
            if not postings:
                continue
            weight = self.idf(term) * qtf
            k1 = self.k1
            norm = self._norm
            for i, tf in postings:
                out[i] += weight * tf * (k1 + 1) / (tf + norm[i])
        return out


def top(scores: Sequence[float], k: int) -> list[int]:
    """Indices of the k highest positive scores, best first (ties: earlier index first)."""
    ranked = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
    return ranked[:k]


def chunk_text(text: str, size: int = 500) -> list[str]:
    """Split into ~size-character chunks at whitespace (the flat-chunk baseline and chunk export)."""
    words = text.split()
    chunks, current, length = [], [], 0
    for word in words:
        if length + len(word) + 1 > size and current:
            chunks.append(" ".join(current))
            current, length = [], 0
        current.append(word)
        length += len(word) + 1
    if current:
        chunks.append(" ".join(current))
    return chunks
