"""Structure benchmark: how much of each PDF's own outline the indexer recovers, and at what cost.

Runs the metric of /work/shared/corpus/manuals/README.md (benchmarks/metric.py) over
the manuals corpus in variants A / B1 / B2 / B3 and over the FinanceBench filings
that carry bookmarks (bookmarks removed), side by side with pymupdf4llm's heading
detection and PageIndex's offline "flash" mode, with plain PyMuPDF text extraction
as the time floor. Prints a markdown table; writes benchmarks/results/structure.json.

    .venv/bin/python benchmarks/structure.py [--corpus .corpus] [--filings DIR] [--peers pymupdf4llm,pageindex]

Peers run in subprocesses: importing pymupdf4llm switches PyMuPDF into its layout
mode process-wide, and PageIndex lives in its own venv (benchmarks/.work/pageindex-venv)
because its dependencies (litellm, openai 2.x) would downgrade the project's openai.
Module-level imports are stdlib only so the peer workers can run under any interpreter.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FETCH = "/work/shared/corpus/manuals/fetch.sh"
DEFAULT_FILINGS = "/work/shared/corpus/financebench/pdfs"
EXTRA_TSV = ROOT / "benchmarks" / "corpus_extra.tsv"
DEFAULT_EXTRA = ROOT / "benchmarks" / ".work" / "corpus_extra"
# Kind of each development manual (../shared/corpus/manuals/README.md); a document may be of several kinds.
# The held-out set's kinds are in benchmarks/corpus_extra.tsv. "reference" = generated reference manual,
# "no-toc" = no printed contents (README: live-manual), "parts" = outline with Parts above chapters.
DEV_KINDS = {"pgfmanual": "parts", "live-manual": "parts,no-toc", "gnuplot": "parts", "ubuntu-packaging-guide": "parts"}
KIND_ORDER = ("parts", "reference", "no-toc", "plain")
PAGEINDEX_VENV = ROOT / "benchmarks" / ".work" / "pageindex-venv"


# -- peer workers (stdlib + the peer library only) ------------------------------------------


def _save(cache: str, f: str, result: dict) -> None:
    """One result file per input, written as soon as it is known: a killed run keeps its progress."""
    Path(cache).mkdir(parents=True, exist_ok=True)
    (Path(cache) / (Path(f).name + ".json")).write_text(json.dumps(result))


def _worker_pymupdf4llm(files: list[str], cache: str) -> dict:
    import pymupdf
    import pymupdf4llm

    pymupdf4llm.use_layout(False)  # the font-statistics header detector (IdentifyHeaders), ~0.1 s/page
    out = {}
    for f in files:
        t0 = time.perf_counter()
        try:
            with pymupdf.open(f) as doc:
                hdr = pymupdf4llm.IdentifyHeaders(doc)
                chunks = pymupdf4llm.to_markdown(doc, page_chunks=True, hdr_info=hdr, show_progress=False)
            preds = []
            for i, chunk in enumerate(chunks):
                page = int(chunk.get("metadata", {}).get("page", i + 1))
                for line in chunk["text"].splitlines():
                    m = re.match(r"^(#{1,6})\s+(.*\S)\s*$", line)
                    if m:
                        title = re.sub(r"[*_`]+", "", m.group(2)).strip()
                        if title:
                            preds.append((len(m.group(1)), title, page))
            out[f] = {"pred": preds, "seconds": time.perf_counter() - t0}
        except Exception as exc:  # a peer failing on a document scores zero, as ours would
            out[f] = {"error": f"{type(exc).__name__}: {exc}", "seconds": time.perf_counter() - t0}
        _save(cache, f, out[f])
    return out


def _worker_pageindex(files: list[str], cache: str) -> dict:
    from pageindex.flash import page_index_flash

    out = {}
    for f in files:
        t0 = time.perf_counter()
        try:
            # The fully LLM-free configuration (layout statistics only), per its docstring.
            result = page_index_flash(f, summary=False, optimize=False, use_embedded_toc=False)
            preds: list = []

            def walk(nodes: list, level: int) -> None:
                for node in nodes or []:
                    page = node.get("start_index", node.get("page_index", node.get("physical_index")))
                    if page is not None:
                        preds.append((level, str(node.get("title", "")), int(page)))
                    walk(node.get("nodes") or [], level + 1)

            walk(result.get("structure") or [], 1)
            out[f] = {"pred": preds, "seconds": time.perf_counter() - t0, "toc_source": result.get("toc_source")}
        except Exception as exc:
            out[f] = {"error": f"{type(exc).__name__}: {exc}", "seconds": time.perf_counter() - t0}
        _save(cache, f, out[f])
    return out


def _run_peer(name: str, files: list[str], timeout: float, cache: Path, cached_only: bool = False) -> dict:
    """Peer results per file; files already in ``cache`` (from an earlier, possibly killed, run) are not redone.

    With ``cached_only`` nothing is run and files without a cached result are left out.
    """
    cache = cache / name
    todo = [f for f in files if not (cache / (Path(f).name + ".json")).exists()]
    if cached_only:
        files, todo = [f for f in files if f not in todo], []
    python = sys.executable
    if name == "pageindex":
        python = str(PAGEINDEX_VENV / "bin" / "python")
        if todo and not Path(python).exists():
            return {"_unavailable": f"not run: no PageIndex venv at {PAGEINDEX_VENV}: create it with "
                                    f"`.venv/bin/python -m venv {PAGEINDEX_VENV} && {PAGEINDEX_VENV}/bin/pip install pageindex==0.4.7`"}
    if todo:
        proc = subprocess.run([python, __file__, "--peer-worker", name, str(cache), *todo], capture_output=True, text=True,
                              timeout=timeout, env={**os.environ, "PYTHONPATH": ""}, cwd="/tmp")
        if proc.returncode != 0:
            return {"_unavailable": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return {f: json.loads((cache / (Path(f).name + ".json")).read_text()) for f in files}


# -- our side ---------------------------------------------------------------------------------


def _floor_seconds(path: Path, clock=time.perf_counter) -> float:
    """Plain PyMuPDF text extraction of every page: the time floor (wall clock, or ``clock``)."""
    import pymupdf

    t0 = clock()
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
    return clock() - t0


def _ours(path: Path, max_leaf_pages: int) -> dict:
    """Structure as the pipeline builds it (texts read first, then recover_structure + build_tree)."""
    from benchmarks.metric import predictions_from_tree
    from parsers.pdf import PdfSource
    from parsers.ranges import build_tree, page_groups
    from parsers.structure import recover_structure

    calls = {"n": 0}

    def counting_hook(pdf):  # the LLM seam: counts calls, never answers (no model here)
        calls["n"] += 1
        return [], {"reason": "benchmark: no model"}

    t0 = time.perf_counter()
    with PdfSource(path) as pdf:
        for n in range(1, pdf.page_count + 1):
            pdf.text(n)
        t1, c1 = time.perf_counter(), time.process_time()
        result = recover_structure(pdf, llm_hook=counting_hook, max_leaf_pages=max_leaf_pages)
        root = build_tree(result.entries, pdf.page_count, path.stem) if result.entries else page_groups(pdf.page_count, path.stem)
        t2, c2 = time.perf_counter(), time.process_time()
        pages = pdf.page_count
    tree = {"root": root.to_dict()}
    toc = result.decisions.get("toc", {})
    return {
        "pred": predictions_from_tree(tree),
        "pred_sections": predictions_from_tree(tree, synthetic=False),
        "source": result.source,
        "page_offset": result.page_offset,
        "model_calls": calls["n"],
        "pages": pages,
        "text_seconds": t1 - t0,
        "structure_seconds": t2 - t1,
        "structure_cpu_seconds": c2 - c1,  # this process's CPU time: what the other engineers' load disturbs least
        "toc": {k: toc.get(k) for k in ("pages", "entries", "verified", "corrected", "linked", "located", "unverifiable", "offset_method") if k in toc},
    }


def _ensure_corpus(corpus: Path) -> None:
    if corpus.is_dir() and any(corpus.glob("*.pdf")):
        return
    corpus.mkdir(parents=True, exist_ok=True)
    subprocess.run(["bash", FETCH, str(corpus)], check=True)


def _tsv_toc_pages(doc_id: str) -> list[int]:
    """printed_toc_pages of a development manual in ../shared/corpus/manuals/corpus.tsv ([] if unknown)."""
    tsv = Path(FETCH).with_name("corpus.tsv")
    if not tsv.exists():
        return []
    rows = [ln.split("\t") for ln in tsv.read_text().splitlines() if ln.strip()]
    head = rows[0]
    for r in rows[1:]:
        if r[head.index("doc_id")] == doc_id:
            return [int(x) for x in r[head.index("printed_toc_pages")].split(",") if x.strip().isdigit()]
    return []


def extra_notoc(src: Path, work: Path) -> tuple[Path, list[int]]:
    """The NT variant of a tuning-group document: (file, deleted 1-based pages of the original).

    B3 (bookmarks, page labels and links removed) without its printed contents pages, so that the headings fallback
    reads it. The pages come from benchmarks/index_questions.py's own contents finder, never from ``parsers/`` (which
    would test the reader with its own answer); one pass, as that finder already takes the pages that follow a
    contents page while they still look like one. No pages found: ([], no file): the document has no printed
    contents and its B3 row already tests the fallback. The deleted pages are recorded beside the file
    (``extra.<doc>.NT.json``), as the development NT variant records its own.
    """
    import pymupdf

    from benchmarks.index_questions import find_contents_pages
    from benchmarks.metric import make_variant

    dst, record = work / f"extra.{src.stem}.NT.pdf", work / f"extra.{src.stem}.NT.json"
    if record.exists() and (dst.exists() or not json.loads(record.read_text())):
        return dst, json.loads(record.read_text())
    with pymupdf.open(src) as doc:
        pages = [p + 1 for p in find_contents_pages(doc)]
    if pages:
        make_variant(src, dst, "B3")
        with pymupdf.open(dst) as doc:
            doc.select([i for i in range(doc.page_count) if i + 1 not in pages])
            doc.save(str(dst) + ".tmp", garbage=3)
        Path(str(dst) + ".tmp").replace(dst)
    record.write_text(json.dumps(pages))
    return dst, pages


def _extra_kinds(tsv: Path = EXTRA_TSV) -> dict[str, str]:
    """doc_id -> kind(s) of the held-out set, from benchmarks/corpus_extra.tsv."""
    lines = [ln.split("\t") for ln in tsv.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    head = lines[0]
    return {r[head.index("doc_id")]: r[head.index("kind")] for r in lines[1:]}


def _extra_groups(tsv: Path = EXTRA_TSV) -> dict[str, str]:
    """doc_id -> set prefix: "extra" for the first group (corpus_extra.tsv `group` = tuning), else the group's
    own name: "heldout" (the second group, tuned on since session 17n), "heldout2" (tuned on since session 17g), "heldout3" (picked by benchmarks/pick_heldout.py, tuned on since session 17h), "heldout4" (picked the same way
    on 2026-12-01, tuned on since session 17k), "heldout5" (picked the same way on 2026-12-02, tuned on since session 17l), "heldout6" (picked the same way on
    2026-12-02 at the start of session 17l, tuned on since session 17m), "heldout7" (picked the same way at the start of
    session 17m, tuned on since session 17n), "heldout8" (picked the same way in session 17m after heldout7 and
    opened by that session's lead from the start: a tuning group its helpers never saw), "heldout9" (picked the same
    way at the start of session 17n, tuned on since session 17o), "heldout10" (picked the same way at the start of
    session 17o, tuned on since session 17p), "heldout11" (picked the same way at the start of session 17p, tuned
    on since session 17q), "heldout12" (picked the same way at the start of session 17q, tuned on since session
    17r), "heldout13" (picked the same way at the start of session 17r, tuned on since session 17s), "heldout14"
    (picked the same way at the start of session 17s, tuned on since session 17t), "heldout15" (picked the same way
    at the start of session 17t, tuned on since session 17u), "heldout16" (picked the same way at the start of
    session 17u, tuned on since session 17v), "heldout17" (picked the same way at the start of session 17v, never
    tuned on: report only)."""
    lines = [ln.split("\t") for ln in tsv.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    head = lines[0]
    if "group" not in head:
        return {r[head.index("doc_id")]: "extra" for r in lines[1:]}
    return {r[head.index("doc_id")]: (r[head.index("group")] if r[head.index("group")] != "tuning" else "extra")
            for r in lines[1:]}


def kinds_of(row: dict) -> list[str]:
    """The kinds a result row counts under (a document may be of several)."""
    return [k for k in str(row.get("kind") or "plain").split(",") if k]


def kind_table(rows: list[dict]) -> tuple[list[dict], str]:
    """Per set, kind and method: mean F1 (levels <= 2 and all), precision and recall (levels <= 2)."""
    from benchmarks.metric import mean_scores

    groups: dict[tuple[str, str, str], list[dict]] = {}
    for r in rows:
        if not r["set"].startswith(("manuals-", "extra-", "heldout")):
            continue
        for kind in kinds_of(r):
            groups.setdefault((r["set"], kind, r["method"]), []).append(r)
    order = {k: i for i, k in enumerate(KIND_ORDER)}
    sets = list(dict.fromkeys(r["set"] for r in rows))
    out = []
    for key in sorted(groups, key=lambda k: (sets.index(k[0]), order.get(k[1], 99), k[2] != "pagetree", k[2])):
        sel = groups[key]
        m = mean_scores(r["score"] for r in sel)
        out.append({"set": key[0], "kind": key[1], "method": key[2], "docs": len(sel), "docs_list": [r["doc"] for r in sel],
                    "l12": m["l12"], "all": m["all"], "min_l12_f1": min(r["score"]["l12"]["f1"] for r in sel)})
    lines = ["| set | kind | method | docs | F1 l<=2 | P l<=2 | R l<=2 | F1 all | P all | R all | worst doc F1 l<=2 |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for k in out:
        lines.append(f"| {k['set']} | {k['kind']} | {k['method']} | {k['docs']} | {_fmt(k['l12']['f1'])} | "
                     f"{_fmt(k['l12']['precision'])} | {_fmt(k['l12']['recall'])} | {_fmt(k['all']['f1'])} | "
                     f"{_fmt(k['all']['precision'])} | {_fmt(k['all']['recall'])} | {_fmt(k['min_l12_f1'])} |")
    return out, "\n".join(lines)


def _fmt(x: float) -> str:
    return f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT / ".corpus"))
    ap.add_argument("--filings", default=DEFAULT_FILINGS, help="FinanceBench pdfs folder ('' to skip)")
    ap.add_argument("--variants", default="A,B1,B2,B3,excerpt,NT",
                    help="manuals variants; excerpt = first 60 pages as B2; NT = B3 without its contents pages")
    ap.add_argument("--extra", default=str(DEFAULT_EXTRA), help="held-out manuals (benchmarks/fetch_extra.sh; '' to skip)")
    ap.add_argument("--extra-variants", default="B2,B3", help="variants of the held-out manuals: B2, B3, NT (B3 without "
                    "its printed contents pages, found by benchmarks/index_questions.py; documents without one get no row)")
    ap.add_argument("--extra-groups", default="extra,heldout,heldout2,heldout3,heldout4,heldout5,heldout6,heldout7,heldout8,heldout9,heldout10,heldout11,heldout12,heldout13,heldout14,heldout15,heldout16,heldout17",
                    help="groups of corpus_extra.tsv to run: extra, heldout, heldout2, heldout3, heldout4, heldout5, heldout6, "
                         "heldout7, heldout8, heldout9, heldout10, heldout11, heldout12, heldout13, heldout14, heldout15, heldout16 (all seen while tuning), heldout17 (never tuned on: report only)")
    ap.add_argument("--peers", default="pymupdf4llm,pageindex", help="comma list, '' for none")
    ap.add_argument("--peer-variant", default="B2", help="manuals variant the peers run on")
    ap.add_argument("--peers-cached-only", action="store_true", help="use peer results cached by earlier runs, run nothing")
    ap.add_argument("--peer-sets", default="manuals,filings,extra", help="which sets the peers run on (manuals,filings,earnings,extra)")
    ap.add_argument("--docs", default="", help="comma list of doc ids to restrict to")
    ap.add_argument("--max-leaf-pages", type=int, default=10)
    ap.add_argument("--work", default=str(ROOT / "benchmarks" / ".work" / "structure"))
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "structure.json"))
    ap.add_argument("--peer-timeout", type=float, default=3600)
    ap.add_argument("--reuse-peers", default="", help="take peer rows from an earlier results JSON instead of rerunning "
                    "them (peers do not depend on our code; the variant files are rebuilt identically)")
    args = ap.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    from benchmarks.metric import (excerpt_truth, failed_score, make_notoc_variant, make_variant, mean_scores, score,
                                   truth_from_pdf, truth_without_pages)

    corpus, work = Path(args.corpus), Path(args.work)
    _ensure_corpus(corpus)
    work.mkdir(parents=True, exist_ok=True)
    only = {d for d in args.docs.split(",") if d}
    variants = [v for v in args.variants.split(",") if v]
    peers = [p for p in args.peers.split(",") if p]

    sets: list[tuple[str, str, Path, Path]] = []  # (set, doc_id, original, variant file)
    dropped: dict[str, list[int]] = {}  # doc_id -> pages deleted in its NT variant
    for src in sorted(corpus.glob("*.pdf")):
        if only and src.stem not in only:
            continue
        for v in variants:
            dst = work / f"{src.stem}.{v}.pdf"
            if v == "NT" and not _tsv_toc_pages(src.stem):
                continue  # no printed contents to delete (live-manual: no body text either)
            if v == "NT":
                # No printed contents: the headings fallback on real manuals (development set only).
                record = work / f"{src.stem}.NT.json"
                if not dst.exists() or not record.exists():
                    record.write_text(json.dumps(make_notoc_variant(src, dst, _tsv_toc_pages(src.stem))))
                dropped[src.stem] = json.loads(record.read_text())
            elif not dst.exists():
                make_variant(src, dst, v)
            sets.append((f"manuals-{v}", src.stem, src, dst))
    kinds = {d: DEV_KINDS.get(d, "plain") for d in (s[1] for s in sets)}
    if args.extra and Path(args.extra).is_dir():
        extra_kinds, groups = _extra_kinds(), _extra_groups()
        wanted_groups = {g for g in args.extra_groups.split(",") if g}
        for src in sorted(Path(args.extra).glob("*.pdf")):
            if (only and src.stem not in only) or src.stem not in extra_kinds or groups[src.stem] not in wanted_groups:
                continue
            kinds[src.stem] = extra_kinds[src.stem]
            for v in [v for v in args.extra_variants.split(",") if v]:
                dst = work / f"extra.{src.stem}.{v}.pdf"
                if v == "NT":
                    dst, pages = extra_notoc(src, work)
                    if not pages:
                        continue  # no printed contents to delete: its B3 row already reads it by headings
                    dropped[f"extra.{src.stem}"] = pages
                elif not dst.exists():
                    make_variant(src, dst, v)
                sets.append((f"{groups[src.stem]}-{v}", src.stem, src, dst))
    if args.filings and Path(args.filings).is_dir():
        for src in sorted(Path(args.filings).glob("*.pdf")):
            if only and src.stem not in only:
                continue
            if not truth_from_pdf(src):
                continue
            group = "earnings" if "EARNINGS" in src.stem.upper() else "filings"
            dst = work / f"{src.stem}.B1.pdf"  # outline removed (these carry no page labels)
            if not dst.exists():
                make_variant(src, dst, "B1")
            sets.append((f"{group}-no-outline", src.stem, src, dst))

    rows: list[dict] = []
    for set_name, doc_id, src, path in sets:
        truth = truth_from_pdf(src)
        if set_name == "manuals-excerpt":
            truth = excerpt_truth(truth)
        if set_name == "manuals-NT":
            truth = truth_without_pages(truth, dropped[doc_id])
        elif set_name.endswith("-NT"):
            truth = truth_without_pages(truth, dropped[f"extra.{doc_id}"])
        floor = min(_floor_seconds(path) for _ in range(2))
        floor_cpu = min(_floor_seconds(path, time.process_time) for _ in range(2))
        try:
            ours = _ours(path, args.max_leaf_pages)
            s, s_sec = score(truth, ours["pred"]), score(truth, ours["pred_sections"])
            err = None
        except Exception as exc:  # the document scores zero, the run goes on
            ours, s, s_sec, err = {"pages": 0}, failed_score(truth), failed_score(truth), f"{type(exc).__name__}: {exc}"
        kind = "no-toc" if set_name.endswith("-NT") else kinds.get(doc_id, "")
        row = {"set": set_name, "doc": doc_id, "kind": kind, "method": "pagetree", "score": s, "score_sections": s_sec,
               "floor_seconds": floor, "floor_cpu_seconds": floor_cpu, "error": err,
               **{k: v for k, v in ours.items() if k not in ("pred", "pred_sections")}}
        if ours.get("pages"):
            row["seconds_per_page"] = ours["structure_seconds"] / ours["pages"]
            row["floor_per_page"] = floor / ours["pages"]
            row["ratio_to_floor"] = ours["structure_seconds"] / floor if floor else None
            row["cpu_ratio_to_floor"] = ours["structure_cpu_seconds"] / floor_cpu if floor_cpu else None
        rows.append(row)
        print(f"{set_name:24s} {doc_id:34s} {ours.get('source', 'error'):9s} F1(l<=2) {s['l12']['f1']:.3f} "
              f"F1(all) {s['all']['f1']:.3f} ratio {row.get('ratio_to_floor') or 0:.2f} "
              f"cpu {row.get('cpu_ratio_to_floor') or 0:.2f}", file=sys.stderr)

    wanted = set(args.peer_sets.split(","))
    peer_sets = {name for key, name in (("manuals", f"manuals-{args.peer_variant}"), ("filings", "filings-no-outline"),
                                        ("earnings", "earnings-no-outline"), ("extra", f"extra-{args.peer_variant}"),
                                        ("extra", f"heldout-{args.peer_variant}"),
                                        ("extra", f"heldout2-{args.peer_variant}"),
                                        ("extra", f"heldout3-{args.peer_variant}"),
                                        ("extra", f"heldout4-{args.peer_variant}"),
                                        ("extra", f"heldout5-{args.peer_variant}"),
                                        ("extra", f"heldout6-{args.peer_variant}"),
                                        ("extra", f"heldout7-{args.peer_variant}"),
                                        ("extra", f"heldout8-{args.peer_variant}"),
                                        ("extra", f"heldout9-{args.peer_variant}"),
                                        ("extra", f"heldout10-{args.peer_variant}"),
                                        ("extra", f"heldout11-{args.peer_variant}"),
                                        ("extra", f"heldout12-{args.peer_variant}"),
                                        ("extra", f"heldout13-{args.peer_variant}"),
                                        ("extra", f"heldout14-{args.peer_variant}"),
                                        ("extra", f"heldout15-{args.peer_variant}"),
                                        ("extra", f"heldout16-{args.peer_variant}"),
                                        ("extra", f"heldout17-{args.peer_variant}"))
                 if key in wanted}
    peer_files = [(sn, d, src, p) for sn, d, src, p in sets if sn in peer_sets]
    peer_notes: dict[str, str] = {}
    if args.reuse_peers:
        earlier = json.loads(Path(args.reuse_peers).read_text())
        keep = {(sn, d) for sn, d, *_ in peer_files}
        rows.extend({**r, "kind": kinds.get(r["doc"], "")} for r in earlier["rows"] if r["method"] in peers and (r["set"], r["doc"]) in keep)
        peer_notes.update({k: v for k, v in earlier.get("peer_notes", {}).items() if k in peers})
        peers = []
    for peer in peers:
        t0 = time.perf_counter()
        res = _run_peer(peer, [str(p) for *_, p in peer_files], args.peer_timeout, work / "peers", args.peers_cached_only)
        print(f"peer {peer}: {time.perf_counter() - t0:.1f}s", file=sys.stderr)
        if "_unavailable" in res:
            peer_notes[peer] = res["_unavailable"]
            continue
        done = [pf for pf in peer_files if str(pf[3]) in res]
        if len(done) < len(peer_files):
            peer_notes[peer] = f"ran on {len(done)} of {len(peer_files)} documents (time budget); see rows"
        for set_name, doc_id, src, path in done:
            r = res[str(path)]
            truth = truth_from_pdf(src)
            s = score(truth, r["pred"]) if "pred" in r else failed_score(truth)
            pages = next((x["pages"] for x in rows if x["doc"] == doc_id and x["set"] == set_name), 0) or 1
            floor = next((x["floor_seconds"] for x in rows if x["doc"] == doc_id and x["set"] == set_name), 0.0)
            rows.append({"set": set_name, "doc": doc_id, "kind": kinds.get(doc_id, ""), "method": peer, "score": s, "score_sections": s,
                         "error": r.get("error"), "seconds_per_page": r["seconds"] / pages,
                         "ratio_to_floor": r["seconds"] / floor if floor else None, "pages": pages,
                         **({"toc_source": r["toc_source"]} if r.get("toc_source") else {})})

    summary = []
    for set_name in dict.fromkeys(r["set"] for r in rows):
        for method in dict.fromkeys(r["method"] for r in rows if r["set"] == set_name):
            sel = [r for r in rows if r["set"] == set_name and r["method"] == method]
            m, msec = mean_scores(r["score"] for r in sel), mean_scores(r["score_sections"] for r in sel)
            ratios = [r["ratio_to_floor"] for r in sel if r.get("ratio_to_floor") is not None]
            cpu = [r["cpu_ratio_to_floor"] for r in sel if r.get("cpu_ratio_to_floor") is not None]
            spp = [r["seconds_per_page"] for r in sel if r.get("seconds_per_page") is not None]
            fpp = [r["floor_per_page"] for r in sel if r.get("floor_per_page") is not None]
            summary.append({
                "set": set_name, "method": method, "docs": len(sel),
                "l12": m["l12"], "all": m["all"], "l12_sections": msec["l12"], "all_sections": msec["all"],
                "seconds_per_page_median": statistics.median(spp) if spp else None,
                "floor_per_page_median": statistics.median(fpp) if fpp else None,
                "ratio_to_floor_median": statistics.median(ratios) if ratios else None,
                "cpu_ratio_to_floor_median": statistics.median(cpu) if cpu else None,
                "model_calls": sum(r.get("model_calls", 0) for r in sel),
                "errors": sum(1 for r in sel if r.get("error")),
            })

    lines = ["| set | method | docs | F1 l<=2 | P l<=2 | R l<=2 | page acc l<=2 | F1 all | F1 l<=2 (no made-up nodes) | s/page (median) | floor s/page | x floor (median) | x floor CPU (median) | model calls |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    def num(x: float | None, fmt: str) -> str:
        return "" if x is None else format(x, fmt)

    for s in summary:
        lines.append(
            f"| {s['set']} | {s['method']} | {s['docs']} | {_fmt(s['l12']['f1'])} | {_fmt(s['l12']['precision'])} | "
            f"{_fmt(s['l12']['recall'])} | {_fmt(s['l12']['page_accuracy'])} | {_fmt(s['all']['f1'])} | "
            f"{_fmt(s['l12_sections']['f1'])} | "
            f"{num(s['seconds_per_page_median'], '.4f')} | {num(s['floor_per_page_median'], '.4f')} | "
            f"{num(s['ratio_to_floor_median'], '.2f')} | {num(s.get('cpu_ratio_to_floor_median'), '.2f')} | "
            f"{s['model_calls'] if s['method'] == 'pagetree' else ''} |")
    for peer, why in peer_notes.items():
        lines.append(f"\n{peer}: {why}")
    table = "\n".join(lines)
    by_kind, kinds_md = kind_table(rows)
    table += "\n\nBy kind (each document counts once per kind it has; extra-*, heldout-*, heldout2-*, heldout3-*, heldout4-*, heldout5-*, heldout6-*, heldout7-*, heldout8-*, heldout9-*, heldout10-*, heldout11-*, heldout12-*, heldout13-*, heldout14-*, heldout15-* and heldout16-* were all seen while tuning; heldout17-* never):\n\n" + kinds_md
    print(table)
    out = {
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "machine": {"platform": platform.platform(), "python": platform.python_version(), "cpus": os.cpu_count()},
        "max_leaf_pages": args.max_leaf_pages,
        "summary": summary,
        "by_kind": by_kind,
        "rows": rows,
        "peer_notes": peer_notes,
        "table": table,
    }
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--peer-worker":
        worker = {"pymupdf4llm": _worker_pymupdf4llm, "pageindex": _worker_pageindex}[sys.argv[2]]
        worker(sys.argv[4:], sys.argv[3])
        sys.exit(0)
    sys.exit(main())
