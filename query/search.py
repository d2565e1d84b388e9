"""Tree search over one or many documents: ranked sections with citations, and the trace of steps taken.

``search(question, doc_ids=None, store=..., navigator="lexical"|"llm")`` first
picks documents (the given ``doc_ids``, else the catalog entries whose titles
and top-level outline match the question), then lets the navigator descend each
tree, and merges the hits best first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from query.errors import InvalidRequest, NotFoundError
from query.index import DocIndex, open_index, open_store
from query.lexical import Hit, lexical_search
from query.text import BM25, tokenize
from query.xref import refs_with_targets

NAVIGATORS = ("lexical", "llm")
OUTLINE_DESCRIPTION_LIMIT = 200  # catalogs up to this size describe documents by their top-level outline too
CITATION_KEYS = ("doc_id", "node_id", "path", "start_page", "end_page", "pages", "score")


@dataclass
class SearchResult:
    """Hits best first, and what the navigator did to find them."""

    question: str
    results: list[Hit]
    trace: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self, full: bool = True) -> dict[str, Any]:
        """``full=False`` gives the stable CLI contract: only the citation keys per result."""
        rows = [h.to_dict() for h in self.results]
        if not full:
            rows = [{k: r[k] for k in CITATION_KEYS} for r in rows]
        return {"results": rows, "trace": self.trace}


def _check(question: str, navigator: str, max_steps: int, top_k: int) -> None:
    if not question or not question.strip():
        raise InvalidRequest("question must not be empty")
    if len(question) > 4000:
        raise InvalidRequest("question longer than 4000 characters")
    if navigator not in NAVIGATORS:
        raise InvalidRequest(f"unknown navigator {navigator!r}: use one of {', '.join(NAVIGATORS)}")
    if not 1 <= max_steps <= 500:
        raise InvalidRequest("max_steps must be between 1 and 500")
    if not 1 <= top_k <= 100:
        raise InvalidRequest("top_k must be between 1 and 100")


def search_doc(doc: DocIndex, question: str, *, navigator: str = "lexical", max_steps: int = 60, top_k: int = 10,
               provider: Any = None, weight: float = 1.0) -> SearchResult:
    """Search one loaded document."""
    _check(question, navigator, max_steps, top_k)
    if navigator == "llm":
        from query.llm import llm_search

        hits, trace = llm_search(doc, question, provider=provider, max_steps=max_steps, top_k=top_k)
        return SearchResult(question, hits, trace)
    hits, trace = lexical_search(doc, question, top_k=top_k, max_steps=max_steps, weight=weight)
    _offer_xrefs(doc, hits[:3], trace)
    return SearchResult(question, hits, trace)


def _offer_xrefs(doc: DocIndex, hits: list[Hit], trace: list[dict[str, Any]]) -> None:
    """Record the cross-references found in the best hits' pages (resolved to nodes where possible)."""
    pages = doc.pages()
    for hit in hits:
        text = "\n".join(pages[p - 1]["text"] or "" for p in hit.pages[:3])
        refs = [r for r in refs_with_targets(doc, text, exclude=hit.node_id) if r["node_id"]]
        if refs:
            trace.append({"action": "xrefs", "doc_id": doc.doc_id, "node_id": hit.node_id, "refs": refs[:5]})


def select_documents(store: Any, question: str, max_docs: int = 3,
                     doc_filter: Callable[[str], bool] | None = None) -> tuple[list[tuple[str, float]], dict[str, Any]]:
    """Documents worth searching, best first, by BM25 over catalog descriptions (title, id, top-level outline)."""
    st = open_store(store)
    rows = [r for r in st.catalog() if doc_filter is None or doc_filter(r["doc_id"])]
    if not rows:
        raise NotFoundError(f"no documents in {st.uri}")
    descriptions = []
    for row in rows:
        # Names (id, title) are repeated: "3M" in a question should beat a shared phrase like "cash flows".
        name = f'{row["doc_id"].replace("_", " ").replace("-", " ")} {row.get("title") or ""} '
        words = [name * 3, str(row.get("description") or "")]
        # latest.json carries a description for documents published since it was added; older ones are
        # described by their top-level outline, while one tree.json per document stays affordable.
        if not row.get("description") and len(rows) <= OUTLINE_DESCRIPTION_LIMIT:
            try:
                doc = open_index(st, row["doc_id"], row.get("version"))
                words.append(doc.tree.root.summary)
                words.extend(n.title for n in doc.tree.root.nodes)
            except NotFoundError:
                continue
        descriptions.append((row["doc_id"], tokenize(" ".join(words))))
    bm25 = BM25([d for _, d in descriptions])
    scores = bm25.scores(tokenize(question))
    ranked = sorted(zip((d for d, _ in descriptions), scores), key=lambda x: (-x[1], x[0]))
    # Always search max_docs documents: a short catalog description misses most of what a document
    # covers, so a document that scores 0 here may still hold the best section (it keeps half weight).
    chosen = ranked[:max_docs]
    best = max((s for _, s in chosen), default=0.0)
    # A document's hits are weighted by how well it matched, never below half: the catalog
    # picks where to look, the sections decide what to read.
    weighted = [(d, 0.5 + 0.5 * (s / best) if best > 0 else 1.0) for d, s in chosen]
    step = {"action": "select_documents", "candidates": [{"doc_id": d, "score": round(s, 4)} for d, s in ranked[:10]],
            "chosen": [d for d, _ in weighted]}
    return weighted, step


def search(question: str, doc_ids: list[str] | None = None, *, store: Any = None, navigator: str = "lexical",
           max_steps: int = 60, top_k: int = 10, max_docs: int = 3, provider: Any = None,
           version: str | None = None, doc_filter: Callable[[str], bool] | None = None) -> SearchResult:
    """Search the given documents (or the best-matching ones of the catalog); hits best first.

    ``store`` defaults to $PAGETREE_STORE; ``version`` pins the version when a single doc is given;
    ``doc_filter`` limits which catalog documents may be picked (an API key's prefixes).
    """
    _check(question, navigator, max_steps, top_k)
    store = store if store is not None else os.environ.get("PAGETREE_STORE", "./index")
    trace: list[dict[str, Any]] = []
    if doc_ids:
        if version and len(doc_ids) != 1:
            raise InvalidRequest("version can only be pinned when searching a single document")
        targets = [(d, 1.0) for d in dict.fromkeys(doc_ids)]
    else:
        targets, step = select_documents(store, question, max_docs=max_docs, doc_filter=doc_filter)
        trace.append(step)
    hits: list[Hit] = []
    for doc_id, weight in targets:
        doc = open_index(store, doc_id, version if doc_ids else None)
        found = search_doc(doc, question, navigator=navigator, max_steps=max_steps, top_k=top_k,
                           provider=provider, weight=weight)
        hits.extend(found.results)
        trace.extend(found.trace)
    hits.sort(key=lambda h: -h.score)  # stable: within a document the navigator's order is kept
    return SearchResult(question, hits[:top_k], trace)


def answer(question: str, doc_ids: list[str] | None = None, *, store: Any = None, provider: Any = None,
           navigator: str = "lexical", top_k: int = 5, max_steps: int = 60) -> dict[str, Any]:
    """Search, then let the model answer from the hits' pages; claims cite node ids and pages."""
    from query.llm import answer as llm_answer

    store = store if store is not None else os.environ.get("PAGETREE_STORE", "./index")
    found = search(question, doc_ids, store=store, navigator=navigator, top_k=top_k, max_steps=max_steps, provider=provider)
    out = llm_answer(question, found.results, store=store, provider=provider)
    out["results"] = [h.to_dict() for h in found.results]
    out["trace"] = found.trace
    return out
