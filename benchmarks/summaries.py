"""Summaries benchmark: model-backed summaries against a local OpenAI-compatible server with simulated latency.

Three measurements (targets of issue 5):

1. Speed: a 300-node tree summarized with the default concurrency (PAGETREE_MODEL_CONCURRENCY
   default, 16) while the server answers every request after ``--latency`` seconds (50 ms).
   Two trees: "synthetic-300" (every node needs a call: 300 calls) and "debian-policy-300"
   (the first 300 nodes, pre-order, of the debian-policy manual's real tree and text; short
   leaves keep their text). The summary cache is on (a fresh store: cold), as in ingest.
   Plus a concurrency sweep on synthetic-300.
2. Cache: the real tree again (0 calls expected), then with one leaf's text edited (calls
   expected: that leaf and its ancestors); and whole corpus documents through
   ``index_document`` twice, the second time under a new pipeline fingerprint
   (page_group_size changed): model calls expected 0.
3. Model unavailable for the whole run: the ``ingest`` flow (Prefect test harness) over a
   folder of corpus PDFs with every model request failing (HTTP 503): every document must
   publish, with only extractive/text summaries, and the run report must say so.

    python benchmarks/summaries.py [--corpus DIR] [--latency 0.05] [--repeat 3] [--docs a,b,c]

Prints markdown tables; writes benchmarks/results/summaries.json.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from flows.models import document_models, pipeline_overrides, provider_settings  # noqa: E402
from index_store.backends import LocalBackend  # noqa: E402
from index_store.cache import StoreSummaryCache  # noqa: E402
from index_store.model import Node  # noqa: E402
from index_store.store import Store  # noqa: E402
from parsers.pipeline import PipelineSettings, index_document  # noqa: E402
from parsers.summarize import SHORT_LEAF_CHARS, ExtractiveSummarizer, summarize_tree  # noqa: E402
from providers.openai_provider import OpenAIProvider  # noqa: E402
from providers.prompts import PROMPT_VERSION  # noqa: E402
from providers.settings import DEFAULT_CONCURRENCY, ProviderSettings  # noqa: E402
from providers.summarizer import ModelSummarizer  # noqa: E402
from tests.support.openai_server import Fault, Recorded, RemoteFakeOpenAI  # noqa: E402

MODEL = "gpt-4o-mini"
KEY = "sk-benchmark"


def reply(rec: Recorded) -> str:
    """About 25 words, like a cheap model's answer; descriptions for the description schema."""
    text = rec.user_text()
    section = next((ln[9:].removeprefix("<section_path>").removesuffix("</section_path>")
                    for ln in text.splitlines() if ln.startswith("Section: ")), "the document")
    words = [w for w in text.split() if w.isalpha() and len(w) > 5][:14]
    sentence = f"Explains {section}: " + ", ".join(words) + "."
    props = (rec.json_schema or {}).get("properties") or {}
    return json.dumps({"description" if "description" in props else "summary": sentence})


def ensure_corpus(folder: Path) -> Path:
    if not any(folder.glob("*.pdf")):
        subprocess.run(["bash", "/work/shared/corpus/manuals/fetch.sh", str(folder)], check=True)
    return folder


def synthetic_tree(n_nodes: int = 300) -> tuple[Node, dict[str, str]]:
    """root -> 12 chapters -> leaves; every node has text over the short-leaf limit (one call each)."""
    root = Node("0000", "Synthetic manual", 0, 1, 600)
    own = {"0000": "Synthetic manual introduction. " * 12}
    chapters = [Node(f"{i + 1:04d}", f"Chapter {i + 1}", 1, 1, 1) for i in range(12)]
    root.nodes = chapters
    count = 1 + len(chapters)
    i = 0
    while count < n_nodes:
        ch = chapters[i % len(chapters)]
        leaf = Node(f"{count:04d}", f"Topic {ch.title[8:]}.{len(ch.nodes) + 1}", 2, 1, 1)
        ch.nodes.append(leaf)
        count += 1
        i += 1
    for node in root.walk():
        if node.node_id not in own:
            own[node.node_id] = (f"{node.title} configures parameter P{node.node_id} and reports error code E{node.node_id} "
                                 "when the sensor reading leaves its range; reset it from the service menu. ") * 3
    assert count == n_nodes and len(own[chapters[0].node_id]) > SHORT_LEAF_CHARS
    return root, own


def real_tree(corpus: Path, doc: str = "debian-policy", n_nodes: int = 300) -> tuple[Node, dict[str, str]]:
    """The first ``n_nodes`` nodes (pre-order) of a corpus document's tree, with their own text."""
    index = index_document(corpus / f"{doc}.pdf", doc, PipelineSettings(ocr=False))
    keep = {n.node_id for n, _ in zip(index.tree.nodes(), range(n_nodes))}
    own = {row.node_id: row.text for row in index.nodes if row.node_id in keep}

    def prune(node: Node) -> Node:
        node.nodes = [prune(c) for c in node.nodes if c.node_id in keep]
        node.summary, node.summary_source = "", "none"
        return node

    root = prune(index.tree.root)
    assert sum(1 for _ in root.walk()) == min(n_nodes, index.stats["nodes"])
    return root, own


def fresh(tree: tuple[Node, dict[str, str]]) -> tuple[Node, dict[str, str]]:
    root, own = tree
    clone = Node.from_dict(root.to_dict())
    for node in clone.walk():
        node.summary, node.summary_source = "", "none"
    return clone, dict(own)


def provider(server: RemoteFakeOpenAI, concurrency: int) -> OpenAIProvider:
    return OpenAIProvider(ProviderSettings(provider="openai", model=MODEL, base_url=server.base_url, api_key=KEY,
                                           concurrency=concurrency))


def summarize(server: RemoteFakeOpenAI, tree: tuple[Node, dict[str, str]], cache: StoreSummaryCache | None,
              concurrency: int) -> dict[str, Any]:
    root, own = fresh(tree)
    before = server.calls
    server.reset_max()
    summarizer = ModelSummarizer(provider(server, concurrency), cache=cache, concurrency=concurrency)
    t0 = time.perf_counter()
    run = summarize_tree(root, own, summarizer, fallback=ExtractiveSummarizer.for_sections(list(own.values())),
                         cache=cache, concurrency=concurrency, doc_title="benchmark")
    wall = time.perf_counter() - t0
    return {"wall_s": round(wall, 3), "calls": server.calls - before, "max_in_flight": server.max_in_flight,
            "nodes": run.nodes, "short": run.short, "cache_hits": run.cache_hits, "fallbacks": run.fallbacks,
            "usage": summarizer.usage.to_stats(), "root": root}


def speed(server: RemoteFakeOpenAI, trees: dict[str, Any], repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {"default_concurrency": DEFAULT_CONCURRENCY, "trees": {}, "sweep": []}
    for name, tree in trees.items():
        runs = []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as tmp:
                cache = StoreSummaryCache(LocalBackend(tmp), MODEL, PROMPT_VERSION)
                runs.append(summarize(server, tree, cache, DEFAULT_CONCURRENCY))
        walls = [r["wall_s"] for r in runs]
        last = runs[-1]
        out["trees"][name] = {"nodes": last["nodes"], "calls": last["calls"], "short_leaves": last["short"],
                              "wall_s_median": statistics.median(walls), "wall_s_max": max(walls), "walls": walls,
                              "max_in_flight": last["max_in_flight"], "target_s": 3.0,
                              "met": max(walls) <= 3.0, "prompt_tokens": last["usage"]["prompt_tokens"],
                              "completion_tokens": last["usage"]["completion_tokens"],
                              "cost_usd_if_gpt-4o-mini": last["usage"]["cost_usd"]}
    for conc in (4, 8, 16, 32):
        r = summarize(server, trees["synthetic-300"], None, conc)
        out["sweep"].append({"concurrency": conc, "wall_s": r["wall_s"], "calls": r["calls"], "max_in_flight": r["max_in_flight"]})
    return out


def cache_figures(server: RemoteFakeOpenAI, tree: tuple[Node, dict[str, str]], corpus: Path, docs: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = StoreSummaryCache(LocalBackend(tmp), MODEL, PROMPT_VERSION)
        cold = summarize(server, tree, cache, DEFAULT_CONCURRENCY)
        warm = summarize(server, tree, cache, DEFAULT_CONCURRENCY)
        root, own = fresh(tree)
        leaf = next(n for n in reversed(list(root.walk())) if not n.nodes and len(own.get(n.node_id, "")) > SHORT_LEAF_CHARS)
        depth = leaf.level  # ancestors of a level-L node: L of them (root is level 0)
        own[leaf.node_id] += " An edited sentence about a new option --frobnicate."
        edited = summarize(server, (root, own), cache, DEFAULT_CONCURRENCY)
        out["tree"] = {"cold_calls": cold["calls"], "rebuild_calls": warm["calls"], "rebuild_cache_hits": warm["cache_hits"],
                       "rebuild_hit_rate": round(warm["cache_hits"] / max(1, cold["calls"]), 4),
                       "edit_one_leaf_calls": edited["calls"], "edit_expected_calls": depth + 1,
                       "met": warm["calls"] == 0 and edited["calls"] == depth + 1}
    docs_out = []
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(tmp)
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": KEY}
        base = PipelineSettings(ocr=False, **pipeline_overrides(provider_settings({"PAGETREE_MODEL": MODEL})))
        for doc in docs:
            pdf = corpus / f"{doc}.pdf"
            first = index_document(pdf, doc, base, **document_models(base, store, env))
            changed = PipelineSettings(**{**base.to_dict(), "page_group_size": base.page_group_size + 1})
            second = index_document(pdf, doc, changed, **document_models(changed, store, env))
            m1, m2 = first.stats["model"], second.stats["model"]
            docs_out.append({"doc": doc, "nodes": first.stats["nodes"], "first_calls": m1["calls"],
                             "first_cost_usd": m1["cost_usd"], "first_summaries_s": first.stats["seconds"]["summaries"],
                             "rebuild_calls": m2["calls"], "rebuild_cache_hits": m2["cache_hits"],
                             "rebuild_summaries_s": second.stats["seconds"]["summaries"],
                             "versions_differ": first.tree.version != second.tree.version})
    out["documents"] = docs_out
    out["documents_met"] = all(d["rebuild_calls"] == 0 and d["versions_differ"] for d in docs_out)
    return out


def model_down(server: RemoteFakeOpenAI, corpus: Path, docs: list[str]) -> dict[str, Any]:
    from prefect.testing.utilities import prefect_test_harness

    from flows.ingest import ingest
    from flows.report import DocOutcome, RunReport

    server.fail_all(Fault.server_error(503))
    os.environ.update({"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": KEY})
    calls_before = server.calls
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp, "src")
        src.mkdir()
        for doc in docs:
            shutil.copy(corpus / f"{doc}.pdf", src / f"{doc}.pdf")
        settings = {"ocr": False, **pipeline_overrides(provider_settings({"PAGETREE_MODEL": MODEL}))}
        t0 = time.perf_counter()
        with prefect_test_harness(server_startup_timeout=120):
            t_run = time.perf_counter()
            run = ingest(str(src), store=str(Path(tmp, "index")), settings=settings)
            wall = time.perf_counter() - t_run
        store = Store(str(Path(tmp, "index")))
        per_doc = []
        for d in run["documents"]:
            sources: dict[str, int] = {}
            for node in store.tree(d["doc_id"]).nodes():
                sources[node.summary_source] = sources.get(node.summary_source, 0) + 1
            per_doc.append({"doc": d["doc_id"], "status": d["status"], "nodes": d["nodes"], "summary_sources": sources,
                            "fallbacks": d["model"].get("fallbacks", 0)})
        report = RunReport(run["run_id"], "ingest", run["source"], run["store"], run["fingerprint"], run["started_at"],
                           documents=[DocOutcome(d["doc_id"], d["uri"], d["status"], model=d["model"]) for d in run["documents"]])
        model_line = next((ln for ln in report.to_text().splitlines() if ln.startswith("model:")), "")
    server.fail_all(None)
    return {"documents": per_doc, "published": run["counts"]["published"], "failed": run["counts"]["failed"],
            "requests_to_dead_model": server.calls - calls_before, "run_wall_s": round(wall, 2),
            "harness_and_run_s": round(time.perf_counter() - t0, 2), "report_model_line": model_line,
            "met": run["counts"]["published"] == len(docs) and all("model" not in d["summary_sources"] for d in per_doc)
            and "extractive fallbacks" in model_line}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=str(ROOT / ".corpus"))
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--docs", default="maint-guide,freefem,mpich-user")
    ap.add_argument("--out", default=str(HERE / "results" / "summaries.json"))
    args = ap.parse_args()
    corpus = ensure_corpus(Path(args.corpus))
    docs = [d for d in args.docs.split(",") if d]
    results: dict[str, Any] = {"machine": {"python": platform.python_version(), "platform": platform.platform(),
                                           "cpus": os.cpu_count(), "loadavg_at_start": os.getloadavg()},
                               "command": "python " + " ".join(sys.argv), "latency_s": args.latency, "model": MODEL}
    # The server runs in its own process, as a real one would: its CPU does not compete with the client's GIL.
    with RemoteFakeOpenAI(latency=args.latency, reply="benchmarks.summaries:reply") as server:
        trees = {"synthetic-300": synthetic_tree(300), "debian-policy-300": real_tree(corpus)}
        results["speed"] = speed(server, trees, args.repeat)
        results["cache"] = cache_figures(server, trees["debian-policy-300"], corpus, docs)
        results["model_down"] = model_down(server, corpus, docs)

    results["machine"]["loadavg_at_end"] = os.getloadavg()  # the machine is shared: other work inflates walls
    sp, ca, md = results["speed"], results["cache"], results["model_down"]
    print(f"## Summaries: {args.latency * 1000:.0f} ms simulated latency, default concurrency {sp['default_concurrency']} "
          f"(load average {results['machine']['loadavg_at_start'][0]:.1f} on {os.cpu_count()} CPUs)\n")
    print("| tree | nodes | calls | short leaves | wall median (s) | wall max (s) | max in flight | target <= 3 s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, t in sp["trees"].items():
        print(f"| {name} | {t['nodes']} | {t['calls']} | {t['short_leaves']} | {t['wall_s_median']:.2f} | {t['wall_s_max']:.2f} "
              f"| {t['max_in_flight']} | {'met' if t['met'] else 'NOT met'} |")
    print("\n| concurrency | wall (s), synthetic-300 |\n|---|---|")
    for s in sp["sweep"]:
        print(f"| {s['concurrency']} | {s['wall_s']:.2f} |")
    t = ca["tree"]
    print("\n## Cache\n\n| case | model calls | expected |\n|---|---|---|")
    print(f"| debian-policy-300 cold | {t['cold_calls']} | - |")
    print(f"| same tree again | {t['rebuild_calls']} ({t['rebuild_cache_hits']} hits) | 0 |")
    print(f"| one leaf edited | {t['edit_one_leaf_calls']} | {t['edit_expected_calls']} (leaf + ancestors) |")
    for d in ca["documents"]:
        print(f"| {d['doc']} ({d['nodes']} nodes): first index / new fingerprint | {d['first_calls']} / {d['rebuild_calls']} "
              f"({d['rebuild_cache_hits']} hits) | - / 0 |")
    print("\n## Model unavailable for the whole run (ingest flow, every request -> 503)\n")
    print("| doc | status | nodes | summary sources | fallbacks |\n|---|---|---|---|---|")
    for d in md["documents"]:
        print(f"| {d['doc']} | {d['status']} | {d['nodes']} | {d['summary_sources']} | {d['fallbacks']} |")
    print(f"\npublished {md['published']}, failed {md['failed']}, {md['requests_to_dead_model']} requests reached the dead "
          f"model, run {md['run_wall_s']} s; report: `{md['report_model_line']}`")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    print(f"\nwrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
