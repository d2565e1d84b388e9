"""Bottom-up node summaries; the offline extractive summarizer is the default.

A leaf is summarized from its own text; a parent from its own text plus its
children's summaries (never from its title alone). The extractive summarizer
picks the sentence that best covers the section's distinctive terms and names
the terms, codes and parameters the section is about, in at most ~30 words.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Callable, Protocol, Sequence

from index_store.model import SUMMARY_MAX_WORDS, Node, title_paths
from parsers.errors import ModelError
from parsers.toc import DOT_LEADERS

SHORT_LEAF_CHARS = 200  # a leaf this short is its own summary: no call needed

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-\.]*[A-Za-z0-9]|[A-Za-z]")
# The words of _WORD that _terms keeps (three characters or more), found directly: a shorter match of _WORD is
# never part of a longer one, so the matches of three or more characters are the same.
_WORD3 = re.compile(r"[A-Za-z][A-Za-z0-9_\-\.]+[A-Za-z0-9]")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z0-9\"'(])|\n{2,}")
# Codes: short acronyms (GNU, VCS), letters+digits (E42, X200, P_IN), snake_case, --options, CamelCase.
_CODE = re.compile(
    r"(?<![\w\-])(?:[A-Z][A-Z0-9_]{1,5}|[A-Z]+[0-9]+[A-Z0-9_]*|[A-Z]+_[A-Z0-9_]+|[a-z]+_[a-z0-9_]+|--?[a-z][a-z0-9\-]+"
    r"|[A-Z][a-z]+[A-Z]\w*)(?![\w\-])"
)
_ROMAN = frozenset("II III IV VI VII VIII IX XI XII XIII XIV XV XX".split())
_NOISY_TERM = re.compile(r"[./]|^-|-$|\d{3,}")  # urls, file names, dangling hyphens, numbers: poor keywords
_URL = re.compile(r"\(?<?(?:https?://|www\.)[^\s)>]+>?\)?")
_SPACED_DOT = re.compile(r"\.\s\.")  # any run of DOT_LEADERS holds ".." or this
_HYPHEN_BREAK = re.compile(r"(?<=[a-z])- (?=[a-z])")  # "Main- tainers": a word broken at a line end
STOP = frozenset(
    """a about above after again all also an and any are as at be because been before being below between both but by can
    could did do does doing down during each few for from further had has have having he her here hers him his how i if in
    into is it its itself just may me might more most must my no nor not now of off on once only or other our out over own
    same shall she should so some such than that the their them then there these they this those through to too under until
    up very was we were what when where which while who whom why will with would you your yours see page section chapter
    table contents figure used use using one two also e g i e etc covers sections""".split()
)


@dataclass
class SummaryRequest:
    node_id: str
    title: str
    text: str  # the node's own text
    child_summaries: list[str]
    path: str = ""  # "Chapter > Section" (for the model prompt)
    doc_title: str = ""
    child_titles: list[str] = field(default_factory=list)


class Summarizer(Protocol):
    name: str

    def summarize(self, request: SummaryRequest) -> tuple[str, str]:
        """Return (summary, summary_source). May raise parsers.errors.ModelError (-> fallback)."""


class SummaryCache(Protocol):
    """Summaries by content key, for one (model, prompt version); see index_store/cache.py."""

    def get_many(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    def put(self, key: str, entry: dict[str, Any]) -> None: ...

    def flush(self) -> None:
        """Wait until every put is stored."""


def _words(text: str) -> list[str]:
    """The lower-case words of three letters or more, stop words included (callers drop them with set and
    Counter operations, in C)."""
    # This runs over every text: lower the whole of an ASCII text once (words then match alike); otherwise
    # lower word by word, as lowering some non-ASCII letters makes ASCII ones (the Kelvin sign makes "k").
    if text.isascii():
        return _WORD3.findall(text.lower())
    return [w for w in map(str.lower, _WORD3.findall(text)) if len(w) > 2]


def _terms(text: str) -> list[str]:
    return [w for w in _words(text) if w not in STOP]


def _drop_stop_words(counts: Counter[str]) -> Counter[str]:
    for word in STOP & counts.keys():
        del counts[word]
    return counts


def _clean(text: str, title: str = "") -> str:
    """Text for picking sentences: no URLs or dot leaders, broken words joined, the heading itself dropped."""
    # Each pattern is tried at every position of a long text: only where its fixed characters occur.
    if "http" in text or "www." in text:
        text = _URL.sub(" ", text)
    if ".." in text or _SPACED_DOT.search(text):
        text = DOT_LEADERS.sub(" ", text)
    text = " ".join(text.split())
    if "- " in text:
        text = _HYPHEN_BREAK.sub("", text)
    head = " ".join(title.split())
    if head and text.lower().startswith(head.lower()):
        text = text[len(head):].lstrip(" :.-")
    return text


def _clip_words(text: str, limit: int = SUMMARY_MAX_WORDS) -> str:
    words = text.split()
    if len(words) <= limit:
        return " ".join(words)
    return " ".join(words[: max(1, limit)]).rstrip(",;:.") + "\u2026"


class ExtractiveSummarizer:
    """Deterministic, offline. Document frequencies make terms distinctive per section."""

    name = "extractive"

    def __init__(self, doc_freq: Counter[str] | None = None, n_docs: int = 1):
        self.doc_freq = doc_freq or Counter()
        self.n_docs = max(1, n_docs)
        self._idfs: dict[str, float] = {}

    @classmethod
    def for_sections(cls, texts: list[str]) -> "ExtractiveSummarizer":
        df: Counter[str] = Counter()
        for text in texts:
            df.update(set(_words(text)) - STOP)
        return cls(df, len(texts))

    def _idf(self, term: str) -> float:
        idf = self._idfs.get(term)
        if idf is None:  # the same terms recur in every section of a document
            idf = self._idfs[term] = math.log((1 + self.n_docs) / (1 + self.doc_freq.get(term, 0))) + 1.0
        return idf

    def summarize(self, request: SummaryRequest) -> tuple[str, str]:
        own = " ".join(request.text.split())
        if not own and not request.child_summaries:
            return "", "none"
        if len(own) <= SHORT_LEAF_CHARS and not request.child_summaries:
            return _clip_words(own), "text"
        children = [" ".join(c.split()) for c in request.child_summaries]  # their "Covers:" codes are the parent's too
        text = _clean(request.text, request.title)
        body = text + "\n\n" + "\n\n".join(children)
        # The text is cut into its first sentences (the candidates) and the rest, and each part is tokenised once
        # for both the term counts and the scoring: no word crosses the whitespace a cut is made at.
        sentences, pieces_words, rest = _sentences(text)
        tf = Counter(_words(rest))
        for words in pieces_words:
            tf.update(words)
        for child in children:
            tf.update(_words(child))
        _drop_stop_words(tf)
        weight = {t: (1 + math.log(c)) * self._idf(t) for t, c in tf.items()}
        if len(own) <= SHORT_LEAF_CHARS and request.child_titles:
            # A parent with (almost) no text of its own: its sections say best what it holds.
            lead = "Sections: " + "; ".join(" ".join(t.split()) for t in request.child_titles) + "."
        else:
            lead = self._best_sentence(sentences, weight) or (children[0] if children else text)
        covers = self._covers(body, weight, lead)
        while covers and SUMMARY_MAX_WORDS - len(lead.split()) < 12 and len(covers) > 2:
            covers.pop()  # keep room for the sentence: it carries more than a keyword list
        tail = f" Covers: {', '.join(covers)}." if covers else ""
        room = SUMMARY_MAX_WORDS - len(tail.split())
        return (_clip_words(lead, room) + tail).strip(), "extractive"

    def _best_sentence(self, sentences: list[tuple[str, int, set[str]]], weight: dict[str, float]) -> str:
        if not sentences:
            return ""

        def score(item: tuple[int, tuple[str, int, set[str]]]) -> float:
            idx, (_, words, terms) = item
            fit = 1.0 if words <= 25 else 0.75  # a sentence that must be clipped says less
            return fit * sum(weight.get(t, 0.0) for t in terms) / math.sqrt(words + 4) - 0.02 * idx

        return max(enumerate(sentences), key=score)[1][0]

    def _covers(self, body: str, weight: dict[str, float], lead: str) -> list[str]:
        """Up to 5 distinctive codes/terms not already in ``lead``: codes (E42, --force, P_IN) first."""
        seen_lower = lead.lower()
        counts: Counter[str] = Counter(c for c in _CODE.findall(body) if c.lower() not in STOP and c not in _ROMAN)
        # Filters run lazily down the ranking: only until enough are found, not over every term of a long section.
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1] * self._idf(kv[0].lower()), kv[0]))
        codes = list(islice((c for c, _ in ranked if c.lower() not in seen_lower), 3))
        taken = {c.lower() for c in codes}
        terms = islice((t for t, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))
                        if t not in seen_lower and t not in taken and not _NOISY_TERM.search(t)), 5 - len(codes))
        return codes + list(terms)


MAX_SENTENCES = 80  # candidates scored: a long section's text is hundreds of kilobytes


def _sentences(text: str) -> tuple[list[tuple[str, int, set[str]]], list[list[str]], str]:
    """The first 80 candidate sentences (5-60 words) as (sentence, word count, distinct terms), the words of
    every piece read on the way, and the text after them (not split further)."""
    sentences: list[tuple[str, int, set[str]]] = []
    pieces_terms: list[list[str]] = []
    at = 0
    for m in _SENTENCE.finditer(text):
        _add_sentence(sentences, pieces_terms, text[at:m.start()])
        at = m.end()
        if len(sentences) >= MAX_SENTENCES:
            return sentences, pieces_terms, text[at:]
    _add_sentence(sentences, pieces_terms, text[at:])
    return sentences, pieces_terms, ""


def _add_sentence(out: list[tuple[str, int, set[str]]], pieces_words: list[list[str]], piece: str) -> None:
    found = _words(piece)
    pieces_words.append(found)
    if piece and 5 <= len(words := piece.split()) <= 60:
        out.append((" ".join(words), len(words), set(found) - STOP))


def subtree_keys(root: Node, own_text: dict[str, str]) -> dict[str, str]:
    """A content key per node: sha256 over its title, own text and its children's keys (a Merkle hash).

    Why: a parent's summary is made from its children's, so it must be redone
    exactly when any text below it changes, and reused when nothing below changed,
    whatever node ids, page numbers or pipeline settings did.
    """
    keys: dict[str, str] = {}
    for node in reversed(list(root.walk())):
        digest = hashlib.sha256()
        digest.update(" ".join(node.title.split()).encode())
        digest.update(b"\x00")
        digest.update(" ".join(own_text.get(node.node_id, "").split()).encode())
        for child in node.nodes:
            digest.update(b"\x01" + keys[child.node_id].encode())
        keys[node.node_id] = digest.hexdigest()
    return keys


@dataclass
class SummaryRun:
    """What summarize_tree did, for manifest stats and decisions."""

    nodes: int = 0
    short: int = 0  # short leaves / empty nodes: own text kept, no call
    summarized: int = 0  # by the primary summarizer
    cache_hits: int = 0
    cache_misses: int = 0
    fallbacks: int = 0  # primary failed -> fallback summarizer
    first_error: str | None = None
    sources: Counter[str] = field(default_factory=Counter)

    def to_stats(self) -> dict[str, Any]:
        return {"nodes": self.nodes, "short": self.short, "summarized": self.summarized, "cache_hits": self.cache_hits,
                "cache_misses": self.cache_misses, "fallbacks": self.fallbacks, "summary_sources": dict(self.sources)}


def summarize_tree(
    root: Node,
    own_text: dict[str, str],
    summarizer: Summarizer,
    progress: Callable[[int, int], None] | None = None,
    *,
    fallback: Summarizer | None = None,
    cache: SummaryCache | None = None,
    concurrency: int = 1,
    doc_title: str = "",
) -> SummaryRun:
    """Fill ``summary`` and ``summary_source`` on every node, children before parents.

    Short leaves keep their own text (no call). With a cache, a node whose content key
    is cached is not summarized again. Nodes run concurrently as soon as all their
    children are done; when ``summarizer`` raises ModelError, ``fallback`` answers.
    """
    order = list(root.walk())
    run = SummaryRun(nodes=len(order))
    keys = subtree_keys(root, own_text) if cache is not None else {}
    paths = title_paths(root)
    degraded: set[str] = set()  # nodes whose subtree used a fallback: never cached
    lock = threading.Lock()

    def short(node: Node) -> tuple[str, str] | None:
        own = " ".join(own_text.get(node.node_id, "").split())
        if node.nodes:
            return None
        if not own:
            return "", "none"
        return (_clip_words(own), "text") if len(own) <= SHORT_LEAF_CHARS else None

    todo = [n for n in order if short(n) is None]
    cached: dict[str, dict[str, Any]] = {}
    if cache is not None and todo:
        cached = cache.get_many(sorted({keys[n.node_id] for n in todo}))

    def work(node: Node) -> tuple[str, str, str]:
        """(summary, source, how) with how in short | cache | primary | fallback."""
        quick = short(node)
        if quick is not None:
            return quick[0], quick[1], "short"
        hit = cached.get(keys[node.node_id]) if cache is not None else None
        if hit and hit.get("summary"):
            return str(hit["summary"]), str(hit.get("summary_source") or "model"), "cache"
        request = SummaryRequest(node.node_id, node.title, own_text.get(node.node_id, ""),
                                 [c.summary for c in node.nodes if c.summary], paths[node.node_id], doc_title,
                                 [c.title for c in node.nodes])
        try:
            summary, source = summarizer.summarize(request)
            # Written here, in the worker, so slow stores overlap; a summary built on a fallback is not cached.
            if cache is not None and not any(c.node_id in degraded for c in node.nodes):
                cache.put(keys[node.node_id], {"summary": summary, "summary_source": source, "title": node.title})
            return summary, source, "primary"
        except ModelError as exc:
            if fallback is None:
                raise
            with lock:
                run.first_error = run.first_error or f"{type(exc).__name__}: {exc}"
            summary, source = fallback.summarize(request)
            return summary, source, "fallback"

    def finish(node: Node, result: tuple[str, str, str]) -> None:
        node.summary, node.summary_source, how = result
        run.sources[node.summary_source] += 1
        if how == "short":
            run.short += 1
        elif how == "cache":
            run.cache_hits += 1
        elif how == "primary":
            run.summarized += 1
            run.cache_misses += cache is not None
        else:
            run.fallbacks += 1
            run.cache_misses += cache is not None
            degraded.add(node.node_id)
        if any(c.node_id in degraded for c in node.nodes):
            degraded.add(node.node_id)
        done = sum(run.sources.values())
        if progress and (done % 10 == 0 or done == run.nodes):
            progress(done, run.nodes)

    try:
        if concurrency <= 1:
            for node in reversed(order):  # reversed pre-order visits every child before its parent
                finish(node, work(node))
            return run
        parent: dict[int, Node] = {id(c): n for n in order for c in n.nodes}
        waiting = {id(n): len(n.nodes) for n in order}
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="summarize") as pool:
            futures = {pool.submit(work, n): n for n in order if not n.nodes}
            while futures:
                done_set, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in done_set:
                    node = futures.pop(future)
                    finish(node, future.result())
                    up = parent.get(id(node))
                    if up is not None:
                        waiting[id(up)] -= 1
                        if waiting[id(up)] == 0:
                            futures[pool.submit(work, up)] = up
        return run
    finally:
        if cache is not None:
            cache.flush()  # every summary asked for is stored, even if a later node failed


def describe_document(root: Node, summarizer: Summarizer, *, doc_title: str, page_count: int,
                      cache: SummaryCache | None = None, key: str | None = None) -> tuple[str, str]:
    """(description, source) for the catalog: from the model if it can, else the root summary and its source."""
    describe = getattr(summarizer, "describe", None)
    if describe is not None:
        ckey = f"description:{key}" if key else None
        if cache is not None and ckey:
            hit = cache.get_many([ckey]).get(ckey)
            if hit and hit.get("summary"):
                return str(hit["summary"]), "model"
        children = [c.summary for c in root.nodes if c.summary] or [root.summary]
        try:
            text = describe(doc_title, page_count, children)
            if cache is not None and ckey:
                cache.put(ckey, {"summary": text, "summary_source": "model", "title": doc_title})
                cache.flush()
            return text, "model"
        except ModelError:
            pass
    return root.summary, root.summary_source


@dataclass
class DocumentSummaries:
    """What the summary stage adds to a DocumentIndex: catalog description, stats["model"], decisions."""

    description: str
    description_source: str
    model_stats: dict[str, Any]
    decisions: dict[str, Any]


def summarize_document(
    root: Node,
    own_text: dict[str, str],
    summarizer: Summarizer | None,
    *,
    doc_title: str,
    page_count: int,
    usage: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> DocumentSummaries:
    """Summarize the tree (model if given, extractive otherwise or as fallback) and describe the document.

    ``usage`` (providers.usage.Usage, default: the summarizer's) accounts every model call of the
    document, including vision and the structure fallback when they share it.
    """
    extractive = ExtractiveSummarizer.for_sections(list(own_text.values()))
    primary = summarizer or extractive
    cache = getattr(primary, "cache", None)
    run = summarize_tree(root, own_text, primary, progress, fallback=extractive, cache=cache,
                         concurrency=int(getattr(primary, "concurrency", 1) or 1), doc_title=doc_title)
    root_key = subtree_keys(root, own_text)[root.node_id] if cache is not None else None
    # A description built on fallback summaries is not cached (nor looked up): the next run asks again.
    description, description_source = describe_document(root, primary, doc_title=doc_title, page_count=page_count,
                                                        cache=cache if not run.fallbacks else None, key=root_key)
    usage = usage if usage is not None else getattr(primary, "usage", None)
    stats: dict[str, Any] = usage.to_stats() if usage is not None else {
        "provider": "offline", "model": None, "calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    stats.update(run.to_stats())  # fallbacks, cache_hits/misses and summary_sources are counted by the tree walk
    stats["summarizer"] = primary.name
    stats["description_source"] = description_source
    decisions: dict[str, Any] = {"summarizer": primary.name, "prompt_version": getattr(primary, "prompt_version", None),
                                 "cache": cache is not None, "short_leaf_chars": SHORT_LEAF_CHARS}
    if run.fallbacks:
        decisions["fallback"] = {"nodes": run.fallbacks, "to": extractive.name, "first_error": run.first_error}
    return DocumentSummaries(description, description_source, stats, decisions)
