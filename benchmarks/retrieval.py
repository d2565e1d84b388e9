"""Retrieval benchmark, FinanceBench and the manuals sets side by side: tree search vs page-BM25 vs chunk-BM25.

    python benchmarks/retrieval.py [--financebench DIR] [--manuals DIR] [--pdfs DIR] [--heldout DIR]
                                   [--extra-pdfs DIR] [--only financebench|manuals|manuals-heldout]
                                   [--weight NAME=X ...] [--tune-on financebench|manuals] [--reindex] [--llm]

Each set is indexed with parsers.pipeline.index_document into its own git-ignored store under
benchmarks/.work/ (re-indexed only when a PDF or the indexing code changes). Documents are stored under
opaque ids ("d-" + a hash of the file name), so document selection without --doc reads only what indexing
found (title, description), never a telling file name. hit@k counts a target page among the first k
distinct pages *read*: results expand into their own ``pages`` ranking, else start..end. For the manuals,
the back-of-book index and contents pages are skipped (retrieval_pages.json), and both the term form
("reboot, signaling") and the question form ("Where does the manual explain reboot, signaling?") are
scored. "manuals-heldout" is the same kind of set read by rule (benchmarks/index_questions.py) from the
indexes of manuals no one tuned search on (benchmarks/manuals_heldout/README.md); its documents are split
into two halves fixed before any result was seen (sorted doc ids, alternating), reported apart. All methods share query/text.py's tokenizer and BM25: the differences are the tree.

--tune-on SET runs a small grid over the navigator's weights on SET only, picks the best (mean of hit@1
and hit@5 over SET's question forms), and reports every set with it: the other set is then held out.
Prints markdown tables; writes benchmarks/results/retrieval.json and retrieval.md (text below the
"<!-- notes -->" line of retrieval.md is kept).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import platform
import shutil
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FINANCEBENCH = ROOT.parent / "shared" / "corpus" / "financebench"
MANUALS = ROOT.parent / "shared" / "corpus" / "manuals"
HELDOUT = ROOT / "benchmarks" / "manuals_heldout"
EXTRA_PDFS = ROOT / "benchmarks" / ".work" / "corpus_extra"
WORK = ROOT / "benchmarks" / ".work"
RESULTS = ROOT / "benchmarks" / "results"
KS = (1, 3, 5)
NOTES = "<!-- notes -->"
# The grid --tune-on searches: small on purpose (every point is one full pass over a set).
GRID = {"pair_weight": (0.0, 0.6, 1.0), "section_weight": (0.0, 0.3), "name_weight": (0.0, 1.0)}


def opaque_id(name: str) -> str:
    return "d-" + hashlib.sha256(name.encode()).hexdigest()[:12]


def code_hash() -> str:
    """Hash of the code that shapes an index: a parser change means a re-index."""
    digest = hashlib.sha256()
    for folder in ("parsers", "index_store", "providers"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _index_one(args: tuple[str, str, str]) -> tuple[str, str, float, str, str]:
    pdf, doc_id, store = args
    from index_store.publish import publish_document
    from index_store.store import Store
    from parsers.pipeline import PipelineSettings, index_document

    t0 = time.perf_counter()
    settings = PipelineSettings()
    try:
        idx = index_document(pdf, doc_id, settings)
    except Exception as exc:  # a parser failure is a benchmark result, not a crash
        return doc_id, "", time.perf_counter() - t0, f"{type(exc).__name__}: {exc}", ""
    publish_document(Store(store), tree=idx.tree, nodes=idx.nodes, pages=idx.pages,
                     source={"uri": pdf, "sha256": idx.sha256, "bytes": idx.size},
                     pipeline={"fingerprint": settings.fingerprint(), "settings": settings.to_dict()},
                     stats=idx.stats, decisions=idx.decisions)
    return doc_id, idx.tree.structure_source, time.perf_counter() - t0, "", str(idx.tree.extra.get("doc_kind"))


def ensure_index(name: str, pdfs: dict[str, Path], reindex: bool, workers: int,
                 reuse: bool = False) -> tuple[Path, dict[str, Any]]:
    """Index what is missing or stale into WORK/retrieval-<name>; returns (store, {doc name: entry}).
    ``reuse`` keeps trees built by older indexing code (iterating on query/ only; never for reported figures)."""
    store = WORK / f"retrieval-{name}"
    cache_path = WORK / f"retrieval-{name}.json"
    WORK.mkdir(parents=True, exist_ok=True)
    cache = json.loads(cache_path.read_text()) if cache_path.exists() and not reindex else {}
    current = code_hash()
    todo = [(str(pdf), opaque_id(doc), str(store)) for doc, pdf in pdfs.items()
            if (e := cache.get(doc) or {}).get("size") != pdf.stat().st_size or e.get("error")
            or (e.get("code") != current and not reuse)]
    by_id = {opaque_id(doc): doc for doc in pdfs}
    if todo:
        print(f"indexing {len(todo)} {name} documents into {store} ...", file=sys.stderr)
        # Publishing an existing version id writes nothing: drop the old folder so a parser change shows.
        for _, doc_id, _ in todo:
            shutil.rmtree(store / "docs" / doc_id, ignore_errors=True)
        with ProcessPoolExecutor(workers) as pool:
            for doc_id, source, seconds, error, kind in pool.map(_index_one, todo):
                doc = by_id[doc_id]
                cache[doc] = {"code": current, "size": pdfs[doc].stat().st_size, "doc_id": doc_id, "structure": source,
                              "doc_kind": kind, "seconds": round(seconds, 3), "error": error}
                cache_path.write_text(json.dumps(cache, indent=1))
    return store, cache


def expand(results: list[Any], k: int, skip: set[int] = frozenset()) -> list[Any]:
    """First k distinct pages read going through ranked results (pages in ``skip`` are passed over)."""
    seen: list[Any] = []
    for r in results:
        if isinstance(r, list):
            pages = r
        else:
            own = r.get("pages") or list(range(r["start_page"], r["end_page"] + 1))
            pages = [(r["doc_id"], p) for p in own] if r.get("_keyed") else own
        for p in pages:
            if p not in seen and (p[1] if isinstance(p, tuple) else p) not in skip:
                seen.append(p)
                if len(seen) >= k:
                    return seen
    return seen


class FlatBaselines:
    """Page-BM25 and 500-char-chunk BM25 over the same pages.parquet text, and page-BM25 with the identifiers tree
    search matches whole (query.text.identifiers; a page's qualified names also by their suffixes) added to each
    page's and question's words: the flat baseline given the same tokenizer, so that a gain of the identifier channel
    is not counted as the tree's."""

    def __init__(self, doc: Any):
        from query.text import BM25, chunk_text, identifiers, qualified_parts, tokenize

        pages = doc.pages()
        words = [tokenize(p["text"] or "") for p in pages]
        self.page_bm25 = BM25(words)
        self.ident_bm25 = BM25([w + qualified_parts(identifiers(p["text"] or "")) for w, p in zip(words, pages)])
        self.chunk_page: list[int] = []
        chunks: list[list[str]] = []
        for p in pages:
            for chunk in chunk_text(p["text"] or "", 500):
                chunks.append(tokenize(chunk))
                self.chunk_page.append(p["page_number"])
        self.chunk_bm25 = BM25(chunks)

    def pages(self, question: str, k: int) -> list[list[int]]:
        from query.text import tokenize, top

        return [[i + 1] for i in top(self.page_bm25.scores(tokenize(question)), k)]

    def pages_ident(self, question: str, k: int) -> list[list[int]]:
        from query.text import identifiers, tokenize, top

        return [[i + 1] for i in top(self.ident_bm25.scores(tokenize(question) + identifiers(question)), k)]

    def chunks(self, question: str, k: int) -> list[list[int]]:
        from query.text import tokenize, top

        return [[self.chunk_page[i]] for i in top(self.chunk_bm25.scores(tokenize(question)), k * 8)]


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def load_set(name: str, args: argparse.Namespace) -> tuple[list[dict[str, Any]], dict[str, Path], dict[str, set[int]]]:
    """(questions as {doc, forms: {form: text}, targets}, {doc: pdf}, {doc: excluded pages})."""
    if name == "financebench":
        rows = [json.loads(x) for x in (args.financebench / "questions.jsonl").read_text().splitlines() if x.strip()]
        qs = [{"id": r["id"], "doc": r["doc_name"], "forms": {"question": r["question"]}, "targets": r["evidence_pages"],
               "company": r.get("company") or r["doc_name"]} for r in rows]
        pdfs = {q["doc"]: args.financebench / "pdfs" / f"{q['doc']}.pdf" for q in qs}
        if args.all_filings:  # the selection figures are meant over every filing in one store
            pdfs.update({p.stem: p for p in (args.financebench / "pdfs").glob("*.pdf")})
        return qs, pdfs, {}
    folder = args.heldout if name == "manuals-heldout" else args.manuals
    rows = [json.loads(x) for x in (folder / "retrieval.jsonl").read_text().splitlines() if x.strip()]
    qs = [{"id": f"{r['doc_id']}:{i}", "doc": r["doc_id"], "forms": {"term": r["query"], "question": r["question"]},
           "targets": r["target_pages"]} for i, r in enumerate(rows)]
    excluded = {d: set(v.get("excluded_pages") or []) for d, v in
                json.loads((folder / "retrieval_pages.json").read_text())["documents"].items()}
    if name == "manuals-heldout":  # the documents with questions, wherever they were fetched
        docs = sorted({q["doc"] for q in qs})
        found = {d: p for d in docs for p in (args.pdfs / f"{d}.pdf", args.extra_pdfs / f"{d}.pdf") if p.exists()}
        if len(found) < len(docs):  # scored on what is there, and said so
            print(f"retrieval: {name}: no PDF for {', '.join(d for d in docs if d not in found)} in {args.pdfs} or "
                  f"{args.extra_pdfs} (../shared/corpus/manuals/fetch.sh, benchmarks/fetch_extra.sh); their questions "
                  "are left out", file=sys.stderr)
        return [q for q in qs if q["doc"] in found], found, excluded
    pdfs = {p.stem: p for p in sorted(args.pdfs.glob("*.pdf"))}  # every manual: selection and the large-manual latency
    return qs, pdfs, excluded


def score_set(name: str, questions: list[dict[str, Any]], docs: dict[str, Any], excluded: dict[str, set[int]],
              weights: dict[str, float], provider: Any = None, baselines: bool = True,
              snippets: bool = True) -> dict[str, Any]:
    """hit@k and latency per (method, form) over one set's questions."""
    from query.lexical import lexical_search

    from query.lexical import lexical_index

    flats: dict[str, FlatBaselines] = {}
    build_ms = []
    for name_ in sorted({q["doc"] for q in questions if q["doc"] in docs}):
        # Indexes are built before the clock runs: latency is per search on a loaded document (build: below).
        t0 = time.perf_counter()
        idx = lexical_index(docs[name_])
        if weights.get("pair_weight", 1.0):
            idx.pair_bm25
        if weights.get("section_weight", 1.0):
            idx.own_bm25
        build_ms.append((time.perf_counter() - t0) * 1000)
        if baselines:
            flats[name_] = FlatBaselines(docs[name_])
    methods = ["tree"] + (["page_bm25", "page_bm25_ident", "chunk_bm25"] if baselines else []) + (["tree_llm"] if provider else [])
    forms = list(questions[0]["forms"]) if questions else []
    hits = {(m, f): {k: 0 for k in KS} for m in methods for f in forms}
    latency: dict[tuple[str, str], list[float]] = {key: [] for key in hits}
    rows, n = [], 0
    for q in questions:
        doc = docs.get(q["doc"])
        if doc is None:
            continue
        n += 1
        skip, targets = excluded.get(q["doc"], set()), set(q["targets"])
        row: dict[str, Any] = {"id": q["id"], "doc": q["doc"], "targets": sorted(targets)}
        for method in methods:
            for form, text in q["forms"].items():
                t0 = time.perf_counter()
                if method == "tree":
                    results = [h.to_dict() for h in lexical_search(doc, text, top_k=10, snippets=snippets, **weights)[0]]
                elif method == "tree_llm":
                    from query.llm import llm_search
                    results = [h.to_dict() for h in llm_search(doc, text, provider=provider, max_steps=12)[0]]
                elif method == "page_bm25":
                    results = flats[q["doc"]].pages(text, 10 + len(skip))
                elif method == "page_bm25_ident":
                    results = flats[q["doc"]].pages_ident(text, 10 + len(skip))
                else:
                    results = flats[q["doc"]].chunks(text, 10 + len(skip))
                latency[(method, form)].append((time.perf_counter() - t0) * 1000)
                read = expand(results, max(KS), skip)
                row[f"{method}/{form}"] = read
                for k in KS:
                    hits[(method, form)][k] += bool(targets & set(read[:k]))
        rows.append(row)
    return {"set": name, "questions": n, "forms": forms, "methods": methods,
            "per_document": per_document(rows, methods, forms, docs),
            "lexical_build_ms": {"p50": round(pct(build_ms, 0.5), 1), "p95": round(pct(build_ms, 0.95), 1)},
            "hit": {f"{m}/{f}": {f"@{k}": round(hits[(m, f)][k] / n, 3) if n else 0.0 for k in KS} for m, f in hits},
            "latency_ms": {f"{m}/{f}": {"p50": round(pct(v, 0.5), 3), "p95": round(pct(v, 0.95), 3)}
                           for (m, f), v in latency.items()},
            "per_question": rows}


def per_document(rows: list[dict[str, Any]], methods: list[str], forms: list[str],
                 docs: dict[str, Any] | None = None) -> dict[str, Any]:
    """hit@1/@5 per document, method and form, from the per-question rows; with the loaded ``docs``, also why
    tree search missed at hit@1 (tree_misses)."""
    out: dict[str, Any] = {}
    for doc in sorted({r["doc"] for r in rows}):
        mine = [r for r in rows if r["doc"] == doc]
        out[doc] = {"questions": len(mine), **{
            f"{m}/{f}": {f"@{k}": round(sum(bool(set(r["targets"]) & set(r[f"{m}/{f}"][:k])) for r in mine) / len(mine), 3)
                         for k in (1, 5)} for m in methods for f in forms}}
        if docs and doc in docs and "tree" in methods:
            out[doc]["tree_misses"] = {f: miss_classes(mine, docs[doc], f, "page_bm25" in methods) for f in forms}
    return out


def miss_classes(rows: list[dict[str, Any]], doc: Any, form: str, bm25: bool) -> dict[str, int]:
    """Tree search's misses at hit@1 on one document, counted by kind: its first page in the target's own deepest
    section (``same_section``) or another (``other_section``); a target still among its first five pages
    (``in_top5``); page-BM25's first page a target (``bm25_hit``: a loss to the baseline)."""
    nodes = [n for n in doc.tree.root.walk() if n.level >= 1]

    def leaf(page: int) -> Any:
        inside = [n for n in nodes if n.start_page <= page <= n.end_page]
        return max(inside, key=lambda n: (n.level, -(n.end_page - n.start_page)), default=None)

    out = {"misses": 0, "same_section": 0, "other_section": 0, "in_top5": 0, "bm25_hit": 0}
    for r in rows:
        targets, read = set(r["targets"]), r[f"tree/{form}"]
        if targets & set(read[:1]):
            continue
        out["misses"] += 1
        first = leaf(read[0]) if read else None
        same = first is not None and any((t := leaf(p)) is not None and t.node_id == first.node_id for p in targets)
        out["same_section" if same else "other_section"] += 1
        out["in_top5"] += bool(targets & set(read[:5]))
        out["bm25_hit"] += bm25 and bool(targets & set(r[f"page_bm25/{form}"][:1]))
    return out


def doc_halves(docs: list[str]) -> dict[str, list[str]]:
    """The held-out set's two halves, fixed before any result was seen: sorted doc ids, alternating."""
    docs = sorted(docs)
    return {"A": docs[0::2], "B": docs[1::2]}


def half_hits(rows: list[dict[str, Any]], keys: list[str], docs: list[str]) -> dict[str, Any]:
    """hit@1/3/5 over the questions of some documents, for each method/form key."""
    mine = [r for r in rows if r["doc"] in docs]
    n = len(mine) or 1
    return {"questions": len(mine), "documents": sorted(docs), **{
        key: {f"@{k}": round(sum(bool(set(r["targets"]) & set(r[key][:k])) for r in mine) / n, 3) for k in KS}
        for key in keys}}


def selection(store: Path, questions: list[dict[str, Any]], ids: dict[str, str], weights: dict[str, float]) -> dict[str, Any]:
    """Document selection without --doc: the evidence document's rank among those searched, and page hit@k
    over the merged results (a page of another document takes a slot and is a miss)."""
    from query.search import search, select_documents

    first = top3 = 0
    page_hits = {k: 0 for k in KS}
    times, rows = [], []
    for q in questions:
        text, target = q["forms"]["question"], ids[q["doc"]]
        t0 = time.perf_counter()
        ranked, step = select_documents(str(store), text, max_docs=3)
        found = search(text, store=str(store), top_k=10, max_docs=3, weights=weights)
        times.append((time.perf_counter() - t0) * 1000)
        chosen = [d for d, _ in ranked]
        first += chosen[:1] == [target]
        top3 += target in chosen
        read = expand([{**h.to_dict(), "_keyed": True} for h in found.results], max(KS))
        wanted = {(target, p) for p in q["targets"]}
        for k in KS:
            page_hits[k] += bool(wanted & set(read[:k]))
        rows.append({"id": q["id"], "doc": q["doc"], "chosen": chosen, "named": step["named"]})
    n = len(questions) or 1
    return {"questions": len(questions), "documents_in_store": len(ids), "first": round(first / n, 3),
            "top3": round(top3 / n, 3), "page_hit": {f"@{k}": round(page_hits[k] / n, 3) for k in KS},
            "latency_ms": {"p50": round(pct(times, 0.5), 2), "p95": round(pct(times, 0.95), 2)},
            "halves": selection_halves(questions, rows, ids), "unnamed": unnamed(rows, ids), "per_question": rows,
            "cross_validation": selection_cv(store, questions, ids)}


def unnamed(rows: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, Any]:
    """The questions in which no catalog name matched (no company named): how many, and how selection fared."""
    rows = [r for r in rows if not r.get("named")]
    return {"questions": len(rows), "first": sum(r["chosen"][:1] == [ids[r["doc"]]] for r in rows),
            "top3": sum(ids[r["doc"]] in r["chosen"] for r in rows)}


def selection_halves(questions: list[dict[str, Any]], rows: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, Any]:
    """Selection figures on each half of the questions, split by company alphabetically (A: the first half of the
    companies, B: the rest; selection_cv tunes on one and reports on the other). {} without companies."""
    halves = company_halves(questions)
    if not halves:
        return {}
    companies, tuning = sorted(halves["A"] | halves["B"]), halves["A"]
    out = {}
    for half, keep in (("A", True), ("B", False)):
        picked = [(q, r) for q, r in zip(questions, rows) if (q["company"].casefold() in tuning) == keep]
        n = len(picked) or 1
        out[half] = {"questions": len(picked), "companies": f"{min(c for c in companies if (c in tuning) == keep)} .. "
                                                            f"{max(c for c in companies if (c in tuning) == keep)}",
                     "first": round(sum(r["chosen"][:1] == [ids[q["doc"]]] for q, r in picked) / n, 3),
                     "top3": round(sum(ids[q["doc"]] in r["chosen"] for q, r in picked) / n, 3)}
    return out


# The selection constants the two-fold cross-validation searches (query/search.py, query/periods.py); every point
# is scored on both company halves, so the same runs give tuned-on-A-reported-on-B and the reverse.
SELECTION_GRID = {"release_miss": (1.0, 0.85, 0.7, 0.5), "content_weight": (0.0, 0.15, 0.3, 0.6),
                  "content_margin": (0.15, 0.3, 0.5)}


def company_halves(questions: list[dict[str, Any]]) -> dict[str, set[str]]:
    """{"A": companies of the first half alphabetically, "B": the rest} ({} without companies)."""
    companies = sorted({q["company"].casefold() for q in questions if q.get("company")})
    if len(companies) < 2:
        return {}
    return {"A": set(companies[: len(companies) // 2]), "B": set(companies[len(companies) // 2:])}


def selection_cv(store: Path, questions: list[dict[str, Any]], ids: dict[str, str]) -> dict[str, Any]:
    """Two-fold cross-validation of the selection constants by company halves: every SELECTION_GRID point on
    every question; the point best on one half (first, then within three; ties: the earlier point) is reported
    on the other half, both ways, beside the defaults."""
    from query.search import select_documents

    halves = company_halves(questions)
    if not halves:
        return {}
    keys = list(SELECTION_GRID)
    points = [dict(zip(keys, v)) for v in itertools.product(*(SELECTION_GRID[k] for k in keys))]

    # Question by question, every point at once: the few documents a question compares stay loaded (the
    # document cache holds 32), so each lexical index is built once, not once per point.
    counts = [{h: [0, 0, 0] for h in ("A", "B")} for _ in range(len(points) + 1)]
    for q in questions:
        h = "A" if q["company"].casefold() in halves["A"] else "B"
        for at, settings in enumerate([*points, None]):
            chosen = [d for d, _ in select_documents(str(store), q["forms"]["question"], 3, settings=settings)[0]]
            row = counts[at][h]
            row[0] += 1
            row[1] += chosen[:1] == [ids[q["doc"]]]
            row[2] += ids[q["doc"]] in chosen

    def rates(out: dict[str, list[int]]) -> dict[str, dict[str, float]]:
        res = {h: {"questions": n, "first": round(f / max(n, 1), 3), "top3": round(t / max(n, 1), 3)}
               for h, (n, f, t) in out.items()}
        n = sum(v[0] for v in out.values()) or 1
        res["all"] = {"questions": n, "first": round(sum(v[1] for v in out.values()) / n, 3),
                      "top3": round(sum(v[2] for v in out.values()) / n, 3)}
        return res

    grid = [{"settings": p, **rates(c)} for p, c in zip(points, counts)]
    folds = {}
    for tune_on, report_on in (("A", "B"), ("B", "A")):
        best = max(grid, key=lambda g: (g[tune_on]["first"], g[tune_on]["top3"], -grid.index(g)))
        folds[f"tuned_on_{tune_on}"] = {"settings": best["settings"], "tuning": best[tune_on], "held_out": best[report_on]}
    return {"halves": {h: f"{min(c)} .. {max(c)}" for h, c in halves.items()}, "defaults": rates(counts[-1]),
            "folds": folds, "grid_points": len(grid), "grid": grid}


def large_latency(docs: dict[str, Any], questions: list[dict[str, Any]], weights: dict[str, float]) -> list[dict[str, Any]]:
    """Search latency on every loaded document of 1,000 pages or more, over every question text of the set."""
    from query.lexical import lexical_search

    out = []
    for name, doc in docs.items():
        if doc.tree.page_count < 1000:
            continue
        times, flat = [], FlatBaselines(doc)
        base, cpu = [], []
        for q in questions:
            for text in q["forms"].values():
                t0 = time.perf_counter()
                flat.pages(text, 10)
                base.append((time.perf_counter() - t0) * 1000)
                t0, c0 = time.perf_counter(), time.process_time()
                lexical_search(doc, text, top_k=10, **weights)
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
        out.append({"doc": name, "pages": doc.tree.page_count, "nodes": len(doc.nodes()), "searches": len(times),
                    "p50_ms": round(pct(times, 0.5), 3), "p95_ms": round(pct(times, 0.95), 3),
                    "page_bm25_p50_ms": round(pct(base, 0.5), 3),
                    # CPU time of this process: what a search costs, less disturbed by other processes' load.
                    "cpu_p50_ms": round(pct(cpu, 0.5), 3), "cpu_p95_ms": round(pct(cpu, 0.95), 3)})
    return out


def objective(result: dict[str, Any]) -> float:
    """What --tune-on maximises: mean of tree hit@1 and hit@5 over the set's question forms."""
    vals = [result["hit"][f"tree/{f}"][k] for f in result["forms"] for k in ("@1", "@5")]
    return sum(vals) / len(vals) if vals else 0.0


def tune(name: str, questions: list[dict[str, Any]], docs: dict[str, Any], excluded: dict[str, set[int]],
         base: dict[str, float]) -> tuple[dict[str, float], list[dict[str, Any]]]:
    keys = list(GRID)
    tried = []
    for values in itertools.product(*(GRID[k] for k in keys)):
        w = {**base, **dict(zip(keys, values))}
        r = score_set(name, questions, docs, excluded, w, baselines=False, snippets=False)
        tried.append({"weights": w, "objective": round(objective(r), 4),
                      "hit": {k: v for k, v in r["hit"].items() if k.startswith("tree/")}})
    tried.sort(key=lambda t: -t["objective"])
    return tried[0]["weights"], tried


def import_seconds() -> float:
    """Median wall time of `import query` in a fresh interpreter."""
    import subprocess

    code = "import time; t = time.perf_counter(); import query; print(time.perf_counter() - t)"
    runs = sorted(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                                       check=True).stdout) for _ in range(3))
    return round(runs[1], 3)


LABELS = {"tree": "**tree search (offline)**", "page_bm25": "page BM25",
          "page_bm25_ident": "page BM25 + identifiers", "chunk_bm25": "BM25, 500-char chunks",
          "tree_llm": "tree search (LLM navigator)"}


def table(r: dict[str, Any]) -> str:
    lines = []
    for name, s in r["sets"].items():
        head = "| method | form | hit@1 | hit@3 | hit@5 | p50 ms | p95 ms |"
        lines += [f"### {name}: {s['questions']} questions, {s['documents']} documents "
                  f"(doc_kind: {', '.join(f'{k} {v}' for k, v in sorted(s['doc_kinds'].items()))}; "
                  f"structure: {', '.join(f'{k} {v}' for k, v in sorted(s['structure'].items()))})", "",
                  head, "|---|---|---|---|---|---|---|"]
        for m in s["methods"]:
            for f in s["forms"]:
                h, lat = s["hit"][f"{m}/{f}"], s["latency_ms"][f"{m}/{f}"]
                lines.append(f"| {LABELS.get(m, m)} | {f} | {h['@1']:.3f} | {h['@3']:.3f} | {h['@5']:.3f} | "
                             f"{lat['p50']} | {lat['p95']} |")
        for half, h in (s.get("halves") or {}).items():
            lines.append(f"\nHalf {half} ({h['questions']} questions; {', '.join(h['documents'])}): " + "; ".join(
                f"{LABELS.get(k.split('/')[0], k.split('/')[0])} {k.split('/')[1]} "
                f"{h[k]['@1']:.3f}/{h[k]['@3']:.3f}/{h[k]['@5']:.3f}" for k in h if "/" in k))
        if s["set"] == "manuals-heldout":
            keys = [f"{m}/{f}" for m in ("tree", "page_bm25", "page_bm25_ident") for f in s["forms"] if f"{m}/{f}" in s["hit"]]
            lines += ["", "| document | questions | " + " | ".join(f"{k} @1 / @5" for k in keys)
                      + " | tree term misses @1: other section / same section / page-BM25 got it |",
                      "|---|---|" + "---|" * (len(keys) + 1)]
            for doc, d in s["per_document"].items():
                why = (d.get("tree_misses") or {}).get("term") or {}
                lines.append(f"| {doc} | {d['questions']} | " + " | ".join(
                    f"{d[k]['@1']:.3f} / {d[k]['@5']:.3f}" for k in keys) + (
                    f" | {why['misses']}: {why['other_section']} / {why['same_section']} / {why['bm25_hit']} |" if why else " | |"))
        sel = s.get("selection")
        if sel:
            lines += ["", f"Document selection without `--doc` ({sel['questions']} questions, {sel['documents_in_store']} "
                      f"documents in one store, opaque ids): evidence document first {sel['first']:.3f}, among the "
                      f"first three {sel['top3']:.3f}; page hit@1/3/5 over the merged results "
                      f"{sel['page_hit']['@1']:.3f} / {sel['page_hit']['@3']:.3f} / {sel['page_hit']['@5']:.3f}; "
                      f"select + search p50 {sel['latency_ms']['p50']} ms, p95 {sel['latency_ms']['p95']} ms"]
            for half, h in (sel.get("halves") or {}).items():
                lines.append(f"- half {half} ({h['questions']} questions, companies {h['companies']}): "
                             f"first {h['first']:.3f}, among the first three {h['top3']:.3f}")
            if (un := sel.get("unnamed")) and un["questions"]:
                lines.append(f"- {un['questions']} questions name no document the catalog knows (no company, title or "
                             f"short form matched): evidence document first for {un['first']}, within three for {un['top3']}")
            cv = sel.get("cross_validation") or {}
            for name_, fold in (cv.get("folds") or {}).items():
                lines.append(f"- cross-validation, {name_.replace('_', ' ')} ({json.dumps(fold['settings'])}, best of "
                             f"{cv['grid_points']} points there): tuning half first {fold['tuning']['first']:.3f} / "
                             f"three {fold['tuning']['top3']:.3f}; **held-out half first {fold['held_out']['first']:.3f} / "
                             f"three {fold['held_out']['top3']:.3f}**")
        for big in s.get("large_documents", []):
            lines.append(f"\nSearch on {big['doc']} ({big['pages']} pages, {big['nodes']} nodes, {big['searches']} "
                         f"searches, snippets included): wall p50 {big['p50_ms']} ms, p95 {big['p95_ms']} ms; CPU p50 "
                         f"{big['cpu_p50_ms']} ms, p95 {big['cpu_p95_ms']} ms; page BM25 in the same loop p50 "
                         f"{big['page_bm25_p50_ms']} ms")
        lines.append(f"\nLexical index build per document (before the first search): p50 {s['lexical_build_ms']['p50']} ms, "
                     f"p95 {s['lexical_build_ms']['p95']} ms")
        lines.append("")
    tuned = r.get("tuned_on")
    lines.append(f"Weights: {json.dumps(r['weights'])} — " + (f"tuned on **{tuned}** (grid of {r['grid_points']}); the "
                 "other set is held out." if tuned else "the navigator's defaults (query/lexical.py)."))
    lines.append(f"`import query`: {r['import_query_s']} s; load at start: `{r['uptime']}`")
    return "\n".join(lines)


def write_md(path: Path, r: dict[str, Any], command: str) -> None:
    old = path.read_text() if path.exists() else ""
    notes = old[old.index(NOTES):] if NOTES in old else NOTES + "\n"
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    path.write_text(f"# Retrieval benchmark: FinanceBench and the manuals sets\n\nGenerated by `{command}` at {when} "
                    f"({r['machine']['cpus']} cpus, {r['seconds']} s).\n\n{table(r)}\n\n{notes}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--financebench", type=Path, default=FINANCEBENCH)
    ap.add_argument("--manuals", type=Path, default=MANUALS, help="folder with retrieval.jsonl, retrieval_pages.json")
    ap.add_argument("--pdfs", type=Path, default=ROOT / ".corpus", help="the manuals' PDFs (fetch.sh's target)")
    ap.add_argument("--heldout", type=Path, default=HELDOUT,
                    help="folder with the held-out manuals' retrieval.jsonl, retrieval_pages.json")
    ap.add_argument("--extra-pdfs", type=Path, default=EXTRA_PDFS, help="corpus_extra's PDFs (fetch_extra.sh's target)")
    ap.add_argument("--only", choices=("financebench", "manuals", "manuals-heldout"), action="append")
    ap.add_argument("--all-filings", action=argparse.BooleanOptionalAction, default=True,
                    help="index every FinanceBench PDF (the selection figures need them all in one store)")
    ap.add_argument("--reindex", action="store_true", help="ignore the index cache")
    ap.add_argument("--reuse-index", action="store_true",
                    help="keep trees indexed by older parser code (for iterating on query/; not for reported figures)")
    ap.add_argument("--workers", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    ap.add_argument("--weight", action="append", default=[], metavar="NAME=X", help="override a lexical_search weight")
    ap.add_argument("--tune-on", choices=("financebench", "manuals"), help="grid-search weights on this set only")
    ap.add_argument("--no-selection", action="store_true", help="skip the document-selection figures")
    ap.add_argument("--llm", action="store_true", help="also run the LLM navigator (PAGETREE_MODEL, OPENAI_*)")
    ap.add_argument("--out", type=Path, default=RESULTS / "retrieval.json")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    uptime = " ".join(os.popen("uptime").read().split())
    provider = None
    if args.llm:
        from query.llm import provider_from_env

        provider = provider_from_env()
        if provider is None:
            print("retrieval: --llm needs PAGETREE_MODEL (and OPENAI_API_KEY / OPENAI_BASE_URL)", file=sys.stderr)
            return 2
    from query import open_index

    weights = {k: float(v) for k, v in (w.split("=", 1) for w in args.weight)}
    sets = args.only or ["financebench", "manuals", "manuals-heldout"]
    loaded = {}
    for name in sets:
        marker = {"financebench": args.financebench / "questions.jsonl", "manuals": args.manuals / "retrieval.jsonl",
                  "manuals-heldout": args.heldout / "retrieval.jsonl"}[name]
        if not marker.exists():
            print(f"retrieval: {marker} not found (the corpora are read in place, never fetched)", file=sys.stderr)
            return 2
        questions, pdfs, excluded = load_set(name, args)
        # A store is one catalog: selection ranks every document in it, so another question set's documents
        # (--heldout pointing elsewhere) get a store of their own instead of joining this set's.
        key = name if name != "manuals-heldout" or args.heldout.resolve() == HELDOUT.resolve() \
            else f"{name}-{args.heldout.resolve().name}"
        store, cache = ensure_index(key, pdfs, args.reindex, args.workers, args.reuse_index)
        docs = {d: open_index(str(store), e["doc_id"]) for d, e in cache.items() if d in pdfs and not e.get("error")}
        loaded[name] = (questions, pdfs, excluded, store, cache, docs)
    result: dict[str, Any] = {"sets": {}, "weights": weights, "uptime": uptime}
    if args.tune_on and args.tune_on in loaded:
        questions, _, excluded, _, _, docs = loaded[args.tune_on]
        weights, tried = tune(args.tune_on, questions, docs, excluded, weights)
        result.update(weights=weights, tuned_on=args.tune_on, grid_points=len(tried), grid=tried)
    for name, (questions, pdfs, excluded, store, cache, docs) in loaded.items():
        s = score_set(name, questions, docs, excluded, weights, provider)
        s["documents"] = len(docs)
        s["doc_kinds"], s["structure"] = {}, {}
        for d in pdfs:
            e = cache.get(d) or {}
            s["doc_kinds"][e.get("doc_kind") or "failed"] = s["doc_kinds"].get(e.get("doc_kind") or "failed", 0) + 1
            s["structure"][e.get("structure") or "failed"] = s["structure"].get(e.get("structure") or "failed", 0) + 1
        if name == "manuals-heldout":
            keys = [f"{m}/{f}" for m in s["methods"] for f in s["forms"]]
            s["halves"] = {h: half_hits(s["per_question"], keys, ds)
                           for h, ds in doc_halves(sorted({q["doc"] for q in questions})).items()}
        s["large_documents"] = large_latency(docs, questions, weights)
        if not args.no_selection:
            ids = {d: e["doc_id"] for d, e in cache.items() if d in pdfs and not e.get("error")}
            s["selection"] = selection(store, [q for q in questions if q["doc"] in ids], ids, weights)
        result["sets"][name] = s
    result["import_query_s"] = import_seconds()
    result["seconds"] = round(time.perf_counter() - t0, 1)
    result["machine"] = {"python": platform.python_version(), "platform": platform.platform(), "cpus": os.cpu_count()}
    print(table(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1))
    if args.out.suffix == ".json":
        command = "python benchmarks/retrieval.py " + " ".join(argv if argv is not None else sys.argv[1:])
        write_md(args.out.with_suffix(".md"), result, command.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
