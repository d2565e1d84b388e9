"""Tree search over one or many documents: ranked sections with citations, and the trace of steps taken.

``search(question, doc_ids=None, store=..., navigator="lexical"|"llm")`` first
picks documents (the given ``doc_ids``, else the catalog entries whose titles
and top-level outline match the question), then lets the navigator descend each
tree, and merges the hits best first.
"""

from __future__ import annotations

import math
import os
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from query import periods
from query.errors import InvalidRequest, NotFoundError
from query.index import DocIndex, open_index, open_store
from query.lexical import Hit, add_snippets, lexical_index, lexical_search, naming_of
from query.names import mend_small_caps, short_forms
from query.text import BM25, tokenize
from query.xref import refs_with_targets

NAVIGATORS = ("lexical", "llm")
OUTLINE_DESCRIPTION_LIMIT = 200  # catalogs up to this size describe documents by their outline too
OUTLINE_LEVELS = 2  # how deep that outline goes
CITATION_KEYS = ("doc_id", "node_id", "path", "start_page", "end_page", "pages", "score")
TITLE_FIELD_WEIGHT = 3.0  # catalog selection: a title match counts three description matches
DESC_SHARE = 0.3  # catalog selection: the best description match counts this share of the best name match
PERIOD_WEIGHT = 1.0  # catalog selection: share of a document's name match added for fitting the period asked (query.periods)
NAME_K1 = 0.2  # catalog selection: BM25 k1 of the names field; a name either names a document or not, so
#                a title and a 'Company:' line that repeat it count little more than once
# Catalog selection: documents of the company first in line whose scores are within this share of its score are
# told apart by their own text too (the catalog knows a filing's period, not what it reports), adding up to
# CONTENT_WEIGHT of that score. Chosen on one half of the FinanceBench companies and reported on the other, both
# ways (benchmarks/results/retrieval.md).
CONTENT_MARGIN = 0.3
CONTENT_WEIGHT = 0.3
# Catalog selection when a question names no document ("Where does the manual explain tail recursion?"): the
# catalog's title, description and outline know a manual's chapters, not the terms on its pages, so each
# candidate's own text is read too: ROUTE_WEIGHT x the idf-weighted share of the question's words that its best
# page prints, beside the description match scaled to 0..1. Every document is read when the catalog is at most
# ROUTE_ALL documents (the document cache holds 32, so each lexical index is built once); a larger catalog reads
# only its ROUTE_TOP best by description. Chosen on the manuals development set and confirmed on the held-out
# manuals (benchmarks/results/retrieval.md).
ROUTE_WEIGHT = 16.0
ROUTE_ALL = 32
ROUTE_TOP = 8
_COMPANY = re.compile(r"Company: ([^.]*(?:\.(?! )[^.]*)*)")
_NAMED = re.compile(r"(?:Company|Also called|Trading symbols): ([^.]*(?:\.(?! )[^.]*)*)")


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
               provider: Any = None, weight: float = 1.0, weights: dict[str, float] | None = None) -> SearchResult:
    """Search one loaded document; ``weights`` overrides the lexical navigator's (query.lexical.score)."""
    _check(question, navigator, max_steps, top_k)
    if navigator == "llm":
        from query.llm import llm_search

        hits, trace = llm_search(doc, question, provider=provider, max_steps=max_steps, top_k=top_k)
        add_snippets(doc, question, hits)
        return SearchResult(question, hits, trace)
    hits, trace = lexical_search(doc, question, top_k=top_k, max_steps=max_steps, weight=weight, **(weights or {}))
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


def _describe_row(st: Any, row: dict[str, Any], outline_ok: bool) -> tuple[str, str] | None:
    """(name text, description text) of a catalog row: the title and description indexing wrote
    (parsers/describe.py); rows published before descriptions existed fall back to their tree."""
    name = f'{row["doc_id"].replace("_", " ").replace("-", " ")} {mend_small_caps(periods.without_period(str(row.get("title") or "")))}'
    desc = str(row.get("description") or "")
    if outline_ok:
        # A small catalog also reads each tree once: its section titles two levels deep say what a manual
        # covers far better than one line ("Where does the manual explain sources.list?").
        try:
            doc = open_index(st, row["doc_id"], row.get("version"))
        except NotFoundError:
            return None
        if not desc or not row.get("doc_kind"):  # published before descriptions existed
            name = f"{name} {doc.tree.title}"
            desc = " ".join([doc.tree.description or desc, doc.tree.root.summary])
        desc = " ".join([desc, *(n.title for n in doc.tree.root.walk() if 1 <= n.level <= OUTLINE_LEVELS)])
    # The issuer and its tickers name a filing as much as its title does ("JnJ", "JPM"): parsers/describe.py
    # writes them into the description as "Company: …" and "Trading symbols: …".
    names = _NAMED.findall(desc)
    company = _COMPANY.search(desc)
    if company:  # and the short forms a question may use ("JnJ", "AMD", "Footlocker"): query.names
        names += [mend_small_caps(company.group(1)), *short_forms(company.group(1))]
    return " ".join([name, *names]), desc


@dataclass
class _Catalog:
    """What selection scores a catalog by: doc ids, BM25 over names and over descriptions, the period each
    document covers and its company's latest year (query.periods)."""

    ids: list[str]
    versions: list[str | None]
    names: BM25
    descs: BM25
    covers: list[periods.Covered]
    latest: list[int | None]


_FIELDS: dict[tuple[str, tuple[tuple[str, str], ...]], _Catalog] = {}
_FIELDS_LOCK = threading.Lock()


def _catalog_fields(st: Any, rows: list[dict[str, Any]]) -> _Catalog:
    """Names, descriptions and periods of these catalog rows, built once per catalog state (the rows'
    versions): selection then costs one catalog listing and a few scorings."""
    key = (st.uri, tuple(sorted((r["doc_id"], str(r.get("version"))) for r in rows)))
    with _FIELDS_LOCK:
        hit = _FIELDS.get(key)
    if hit is not None:
        return hit
    ids, versions, names, descs, covers = [], [], [], [], []
    for row in rows:
        described = _describe_row(st, row, len(rows) <= OUTLINE_DESCRIPTION_LIMIT)
        if described is None:
            continue
        ids.append(row["doc_id"])
        versions.append(row.get("version"))
        names.append(tokenize(described[0]))
        descs.append(tokenize(described[1]))
        covers.append(periods.covered(str(row.get("title") or ""), str(row.get("description") or "")))
    periods.place_quarters(covers)
    latest = periods.latest_years(covers)
    built = _Catalog(ids, versions, BM25(names, k1=NAME_K1), BM25(descs), covers, [latest.get(c.company) for c in covers])
    with _FIELDS_LOCK:
        if len(_FIELDS) >= 16:
            _FIELDS.clear()
        _FIELDS[key] = built
    return built


def select_documents(store: Any, question: str, max_docs: int = 3,
                     doc_filter: Callable[[str], bool] | None = None,
                     settings: dict[str, float] | None = None) -> tuple[list[tuple[str, float]], dict[str, Any]]:
    """Documents worth searching, best first: BM25F-style over catalog titles (x3) and descriptions, the period
    and kind of report asked, and among one company's close candidates their own text. ``settings`` overrides
    the selection constants by lower-case name (``content_margin``, ``content_weight``, ``release_miss``, …)."""
    settings = settings or {}
    st = open_store(store)
    rows = [r for r in st.catalog() if doc_filter is None or doc_filter(r["doc_id"])]
    if not rows:
        raise NotFoundError(f"no documents in {st.uri}")
    cat = _catalog_fields(st, rows)
    ids = cat.ids
    # Years, quarters and forms are read as a period (query.periods), not as words: every filing of a
    # year shares "2022", and the latest year a question names is the one its report covers.
    q = [t for t in tokenize(question) if not periods.time_token(t)]
    # Names (title, id, issuer, tickers) weigh three times the description: "3M" in a question should beat a
    # shared phrase like "cash flows"; each field is its own BM25 so a long description cannot drown a title.
    # Names are matched by the question's names only: capitalised words and numbers ("Adobe", "JnJ", "3M").
    # A headline title ("… Reports Fourth Quarter and Full Year 2022 Financial and Operating Results") would
    # otherwise win on "operating" and "financial", words rare among titles but not names of anything.
    named = [t for t in tokenize(" ".join(w for w in question.split() if w[:1].isupper() or any(c.isdigit() for c in w)))
             if not periods.time_token(t)]
    name_scores = [TITLE_FIELD_WEIGHT * s for s in cat.names.scores(named)] if ids else []
    # A company's documents all name it: each takes the best name match among them, so that the length of a
    # title (a release's headline, a 10-K's form clause) does not order them; period, kind and text do.
    best_of: dict[str, float] = {}
    for cov, sc in zip(cat.covers, name_scores):
        if cov.company:
            best_of[cov.company] = max(best_of.get(cov.company, 0.0), sc)
    name_scores = [best_of.get(cov.company, sc) if sc > 0 else sc for cov, sc in zip(cat.covers, name_scores)]
    desc_scores = cat.descs.scores(q) if ids else []
    # Among the documents a question names, the period decides: the bonus is a share of each document's own
    # name match, so a period never lifts a document of another company.
    asked = periods.asked(question)
    release_miss = settings.get("release_miss")
    named_scores = [a * (1 + settings.get("period_weight", PERIOD_WEIGHT) * periods.fit(asked, cov, latest, release_miss=release_miss))
                    for a, cov, latest in zip(name_scores, cat.covers, cat.latest)]
    top_name, top_desc = max(named_scores, default=0.0), max(desc_scores, default=0.0)
    if top_name > 0 and top_desc > 0:
        # When the question names documents, the description only orders them: scaled to a share of the best
        # name match, a long description that shares many words with a long question cannot outvote the name.
        desc_scores = [settings.get("desc_share", DESC_SHARE) * top_name * d / top_desc for d in desc_scores]
    scores = [a + b for a, b in zip(named_scores, desc_scores)]
    scores = _by_content(st, cat, question, scores, settings, max_docs)
    if top_name <= 0:
        scores = _by_text(st, cat, question, scores, settings)
    ranked = sorted(zip(ids, scores), key=lambda x: (-x[1], x[0]))
    # Always search max_docs documents: a short catalog description misses most of what a document
    # covers, so a document that scores 0 here may still hold the best section (it keeps half weight).
    chosen = ranked[:max_docs]
    best = max((s for _, s in chosen), default=0.0)
    # A document's hits are weighted by how well it matched, never below half: the catalog
    # picks where to look, the sections decide what to read.
    weighted = [(d, 0.5 + 0.5 * (s / best) if best > 0 else 1.0) for d, s in chosen]
    step = {"action": "select_documents", "candidates": [{"doc_id": d, "score": round(s, 4)} for d, s in ranked[:10]],
            "chosen": [d for d, _ in weighted], "named": top_name > 0}
    return weighted, step


def _by_content(st: Any, cat: _Catalog, question: str, scores: list[float], settings: dict[str, float],
                max_docs: int) -> list[float]:
    """Scores with the content evidence added for the close candidates of the leading document's company (at most
    ``max_docs``, the best).

    A company's 10-K, its earnings release of the same year and a 10-Q may all fit a question's name and period;
    what they report differs. Each close candidate gets the share of the question's words (idf-weighted over the
    candidates' pages together, so a word every candidate prints counts little) printed on its best page for
    them. Only documents of one company are compared, and only when they are close: the text never lifts a
    document the name and period did not already put in line."""
    margin = settings.get("content_margin", CONTENT_MARGIN)
    weight = settings.get("content_weight", CONTENT_WEIGHT)
    if not scores or weight <= 0:
        return scores
    lead = max(range(len(scores)), key=lambda i: scores[i])
    company, top = cat.covers[lead].company, scores[lead]
    if not company or top <= 0:
        return scores
    # Only the documents that would be searched anyway: the text reorders them and builds no other index.
    close = sorted((i for i, sc in enumerate(scores) if cat.covers[i].company == company and sc >= (1 - margin) * top),
                   key=lambda i: -scores[i])[:max_docs]
    if len(close) < 2:
        return scores
    indexes = _lexical_indexes(st, cat, close)
    if indexes is None:
        return scores
    coverage = content_coverage(_content_terms(question), [ix.page_bm25 for ix in indexes])
    out = list(scores)
    for i, c in zip(close, coverage):
        out[i] += weight * top * c
    return out


def _by_text(st: Any, cat: _Catalog, question: str, scores: list[float], settings: dict[str, float]) -> list[float]:
    """Scores of a question that names no document: the description match scaled to 0..1, plus ``route_weight``
    x each candidate's content coverage (content_coverage over the candidates' pages together). Candidates are
    every document of a catalog of at most ROUTE_ALL, else the ROUTE_TOP best by description."""
    weight = settings.get("route_weight", ROUTE_WEIGHT)
    terms = _content_terms(question)
    if weight <= 0 or not scores or not terms:
        return scores
    top = max(scores)
    out = [sc / top if top > 0 else 0.0 for sc in scores]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], cat.ids[i]))
    picked = order if len(order) <= ROUTE_ALL else order[:ROUTE_TOP]
    read = _page_terms(st, cat, picked, terms)
    if read is None:
        return scores
    # Each candidate is read for the question less the words that name it (its title, its kind: "manual" of
    # "Where does the manual explain …?"), as the navigator reads inside it (query.lexical): every page of a
    # manual is about "the manual", so a page that also says "manual" is no better evidence. Most candidates
    # leave out the same words, so the coverage of each distinct set of words is computed once.
    pages = [postings for postings, _ in read]
    coverage: dict[tuple[str, ...], list[float]] = {}
    for at, (i, (_, naming)) in enumerate(zip(picked, read)):
        own = tuple(t for t in terms if t not in naming) or tuple(terms)
        if own not in coverage:
            coverage[own] = content_coverage(list(own), pages)
        out[i] += weight * coverage[own][at]
    return out


def _content_terms(question: str) -> list[str]:
    """The question's distinct search tokens less its time words (years and periods pick the document by name)."""
    return [t for t in dict.fromkeys(tokenize(question)) if not periods.time_token(t)]


def _open_picked(st: Any, cat: _Catalog, picked: list[int]) -> list[DocIndex] | None:
    """The catalog's documents ``picked``, opened; None when one of them has gone from the store."""
    docs = []
    for i in picked:
        try:
            docs.append(open_index(st, cat.ids[i], cat.versions[i]))
        except NotFoundError:
            return None
    return docs


def _lexical_indexes(st: Any, cat: _Catalog, picked: list[int]) -> list[Any] | None:
    """The lexical indexes of the catalog's documents ``picked``; None when one of them has gone from the store."""
    docs = _open_picked(st, cat, picked)
    try:
        return None if docs is None else [lexical_index(doc) for doc in docs]
    except NotFoundError:
        return None


def _page_terms(st: Any, cat: _Catalog, picked: list[int], terms: list[str]) -> list[tuple[Any, frozenset[str]]] | None:
    """(page postings of ``terms``, naming tokens) for the catalog's documents ``picked``; None when one of them
    has gone from the store. A lexical index already built in this process serves as it is; else the version's
    terms.parquet (query.terms) is read for the question's words only; a version without one builds its index."""
    docs = _open_picked(st, cat, picked)
    if docs is None:
        return None
    out: list[tuple[Any, frozenset[str]]] = []
    for doc in docs:
        built = doc.memoized("lexical")
        postings = None if built is not None else doc.page_postings(terms)
        if postings is None:
            built = built or lexical_index(doc)
            out.append((built.page_bm25, built.naming))
        else:
            out.append((postings, naming_of(doc)))
    return out


def content_coverage(terms: list[str], docs: list[BM25]) -> list[float]:
    """For each document (a BM25 over its pages), the idf-weighted share of ``terms`` its best page prints, the idf
    taken over all the documents' pages together; 0..1."""
    pages = sum(d.n for d in docs) or 1
    idf = {}
    for t in terms:
        df = sum(len(d.postings.get(t, ())) for d in docs)
        if df:
            idf[t] = math.log(1 + (pages - df + 0.5) / (df + 0.5))
    total = sum(idf.values())
    if total <= 0:
        return [0.0] * len(docs)
    out = []
    for d in docs:
        on_page: dict[int, float] = {}
        for t, w in idf.items():
            for page, _ in d.postings.get(t, ()):
                on_page[page] = on_page.get(page, 0.0) + w
        out.append(max(on_page.values(), default=0.0) / total)
    return out


def search(question: str, doc_ids: list[str] | None = None, *, store: Any = None, navigator: str = "lexical",
           max_steps: int = 60, top_k: int = 10, max_docs: int = 3, provider: Any = None,
           version: str | None = None, doc_filter: Callable[[str], bool] | None = None,
           weights: dict[str, float] | None = None) -> SearchResult:
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
                           provider=provider, weight=weight, weights=weights)
        hits.extend(found.results)
        trace.extend(found.trace)
    hits.sort(key=lambda h: -h.score)  # stable: within a document the navigator's order is kept
    return SearchResult(question, hits[:top_k], trace)


def answer(question: str, doc_ids: list[str] | None = None, *, store: Any = None, provider: Any = None,
           navigator: str = "lexical", top_k: int = 5, max_steps: int = 60,
           doc_filter: Callable[[str], bool] | None = None) -> dict[str, Any]:
    """Search, then let the model answer from the hits' pages; claims cite node ids and pages."""
    from query.llm import answer as llm_answer

    store = store if store is not None else os.environ.get("PAGETREE_STORE", "./index")
    found = search(question, doc_ids, store=store, navigator=navigator, top_k=top_k, max_steps=max_steps, provider=provider,
                   doc_filter=doc_filter)
    out = llm_answer(question, found.results, store=store, provider=provider)
    out["results"] = [h.to_dict() for h in found.results]
    out["trace"] = found.trace
    return out
