"""Bottom-up node summaries; the offline extractive summarizer is the default.

A leaf is summarized from its own text; a parent from its own text plus its
children's summaries (never from its title alone). The extractive summarizer
picks the sentence that best covers the section's distinctive terms and names
the terms, codes and parameters the section is about, in at most ~30 words.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Protocol

from index_store.model import Node

MAX_WORDS = 30
SHORT_LEAF_CHARS = 200  # a leaf this short is its own summary: no call needed

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-\.]*[A-Za-z0-9]|[A-Za-z]")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z0-9\"'(])|\n{2,}")
_CODE = re.compile(r"\b(?:[A-Z]{2,}[A-Z0-9_\-]*|[a-z]+_[a-z0-9_]+|--?[a-z][a-z0-9\-]+|[A-Z][a-z]+[A-Z]\w*)\b")
STOP = frozenset(
    """a about above after again all also an and any are as at be because been before being below between both but by can
    could did do does doing down during each few for from further had has have having he her here hers him his how i if in
    into is it its itself just may me might more most must my no nor not now of off on once only or other our out over own
    same shall she should so some such than that the their them then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your yours see page section chapter
    table contents figure used use using one two also e g i e etc""".split()
)


@dataclass
class SummaryRequest:
    node_id: str
    title: str
    text: str  # the node's own text
    child_summaries: list[str]


class Summarizer(Protocol):
    name: str

    def summarize(self, request: SummaryRequest) -> tuple[str, str]:
        """Return (summary, summary_source)."""


def _terms(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text) if w.lower() not in STOP and len(w) > 2]


def _clip_words(text: str, limit: int = MAX_WORDS) -> str:
    words = text.split()
    if len(words) <= limit:
        return " ".join(words)
    return " ".join(words[:limit]).rstrip(",;:") + "\u2026"


class ExtractiveSummarizer:
    """Deterministic, offline. Document frequencies make terms distinctive per section."""

    name = "extractive"

    def __init__(self, doc_freq: Counter[str] | None = None, n_docs: int = 1):
        self.doc_freq = doc_freq or Counter()
        self.n_docs = max(1, n_docs)

    @classmethod
    def for_sections(cls, texts: list[str]) -> "ExtractiveSummarizer":
        df: Counter[str] = Counter()
        for text in texts:
            df.update(set(_terms(text)))
        return cls(df, len(texts))

    def _idf(self, term: str) -> float:
        return math.log((1 + self.n_docs) / (1 + self.doc_freq.get(term, 0))) + 1.0

    def summarize(self, request: SummaryRequest) -> tuple[str, str]:
        own = " ".join(request.text.split())
        if not own and not request.child_summaries:
            return "", "none"
        if len(own) <= SHORT_LEAF_CHARS and not request.child_summaries:
            return _clip_words(own), "text"
        body = request.text + "\n\n" + "\n\n".join(request.child_summaries)
        tf = Counter(_terms(body))
        weight = {t: (1 + math.log(c)) * self._idf(t) for t, c in tf.items()}
        key_terms = [t for t, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))]
        sentences = [" ".join(s.split()) for s in _SENTENCE.split(request.text) if len(s.split()) >= 5]
        best = ""
        if sentences:
            def score(item: tuple[int, str]) -> float:
                idx, s = item
                terms = set(_terms(s))
                return sum(weight.get(t, 0.0) for t in terms) / math.sqrt(len(s.split()) + 4) - 0.02 * idx

            best = max(enumerate(sentences[:80]), key=score)[1]
        codes = []
        for code in _CODE.findall(body):
            if code.lower() not in STOP and code not in codes:
                codes.append(code)
            if len(codes) >= 4:
                break
        chosen = [t for t in key_terms if t not in best.lower()][:6]
        covers = ", ".join(dict.fromkeys(codes[:3] + chosen))
        if request.child_summaries and not best:
            best = request.child_summaries[0]
        summary = best
        if covers:
            room = MAX_WORDS - len(best.split())
            prefix = "Covers " + covers + ". " if room < 6 else ""
            summary = (prefix + best) if prefix else (best + (" Covers: " + covers + "." if best else "Covers " + covers + "."))
        return _clip_words(summary.strip()), "extractive"


def summarize_tree(
    root: Node,
    own_text: dict[str, str],
    summarizer: Summarizer,
    progress: Callable[[int, int], None] | None = None,
) -> None:
    """Fill ``summary`` and ``summary_source`` on every node, children before parents."""
    order = list(root.walk())
    total = len(order)
    done = 0
    for node in reversed(order):  # reversed pre-order visits every child before its parent
        request = SummaryRequest(
            node_id=node.node_id,
            title=node.title,
            text=own_text.get(node.node_id, ""),
            child_summaries=[c.summary for c in node.nodes if c.summary],
        )
        node.summary, node.summary_source = summarizer.summarize(request)
        done += 1
        if progress and (done % 50 == 0 or done == total):
            progress(done, total)
