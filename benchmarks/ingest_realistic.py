"""The realistic ingest workload (issue 19): real filings and manuals, 1 vs 2 workers on an existing Dask cluster.

The FinanceBench filings (74 PDFs, 100-300 pages each) and the manuals corpus are read in place (never copied)
and indexed with the offline models into a fresh local store, through the flow that ``pagetree index`` runs
(``flows.ingest.index_files``) on a Dask cluster that is already up (``--dask-address``, the deployment for
scale-out). Each timed run is a child process: it starts the cluster with the code's own settings
(``flows.runners``), warms every worker (imports, one tiny document, one small flow run; none of it timed), then
times the call. With ``--baseline REV`` the same runs are made with the code of git revision REV too,
interleaved with ours (A-B-B-A), so a change is measured against what it replaces in one benchmark run.

    .venv/bin/python benchmarks/ingest.py --workload realistic                      # all 87 documents, best of 3
    .venv/bin/python benchmarks/ingest.py --workload realistic --filings 20 --manuals-count 4 --baseline main --ours HEAD

Writes benchmarks/results/ingest-realistic.{json,md}.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FINANCEBENCH = ROOT.parent / "shared/corpus/financebench/pdfs"
MANUALS = ROOT / ".corpus"


def corpus(financebench: Path, manuals: Path, filings: int | None, manual_count: int | None) -> list[Path]:
    """The documents of the workload: the ``filings`` largest filings (all by default) and ``manual_count``
    manuals spread evenly over the manuals sorted by size, smallest and largest included (all by default)."""
    fb = sorted(financebench.glob("*.pdf"), key=lambda p: (-p.stat().st_size, p.name))
    mans = sorted(manuals.glob("*.pdf"), key=lambda p: (p.stat().st_size, p.name))
    if filings is not None:
        fb = fb[:filings]
    if manual_count is not None and manual_count < len(mans):
        if manual_count <= 1:
            mans = mans[:manual_count]
        else:
            step = (len(mans) - 1) / (manual_count - 1)
            mans = [mans[round(i * step)] for i in range(manual_count)]
    return fb + mans


def baseline_tree(rev: str) -> Path:
    """The code of git revision ``rev`` exported (``git archive``, no checkout) under benchmarks/.work/."""
    sha = subprocess.run(["git", "-C", str(ROOT), "rev-parse", rev], capture_output=True, text=True,
                         check=True).stdout.strip()
    dest = ROOT / "benchmarks/.work" / f"baseline-{sha[:12]}"
    if not (dest / "flows").is_dir():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", sha], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


# -- one timed run, in a child process whose imports come from the tree under test ----------------------
def _tiny_pdf(path: Path, title: str) -> None:
    import pymupdf

    doc = pymupdf.open()
    for n in range(1, 4):
        page = doc.new_page()
        page.insert_text((72, 72), f"{title} section {n}", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 100, 540, 760), "Warm-up text for the worker. " * 40, fontsize=10)
    doc.save(str(path))
    doc.close()


def _warm_worker(pdf: str) -> int:
    """Index and publish one tiny document in this worker process: imports and first-use set-up are done."""
    from index_store.publish import publish_document
    from index_store.store import Store
    from parsers.pipeline import PipelineSettings, index_document

    settings = PipelineSettings()
    index = index_document(pdf, "warm", settings)
    publish_document(Store(tempfile.mkdtemp(prefix="warm-worker-")), tree=index.tree, nodes=index.nodes,
                     pages=index.pages, source={"uri": "file://" + pdf}, pipeline={"fingerprint": settings.fingerprint()},
                     stats=index.stats, decisions=index.decisions)
    return os.getpid()


def one_run(paths: list[str], workers: int) -> dict[str, Any]:
    """Start an 'existing' cluster as ``flows.runners`` configures one, warm it, time ``index_files`` over ``paths``."""
    from distributed import Client

    from flows.ingest import index_files
    from flows.runners import local_cluster, make_task_runner, with_runner

    work = Path(tempfile.mkdtemp(prefix="realistic-"))
    warm = []
    for i in range(2 * workers):
        warm.append(work / f"warm{i}.pdf")
        _tiny_pdf(warm[-1], f"Warm {i}")
    with local_cluster(**make_task_runner("dask", workers).cluster_kwargs) as cluster, Client(cluster) as client:
        client.run(_warm_worker, str(warm[0]))
        with_runner(index_files, "dask", workers, cluster.scheduler_address)(
            [str(p) for p in warm], store=str(work / "warm-index"))
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        report = with_runner(index_files, "dask", workers, cluster.scheduler_address)(paths, store=str(work / "index"))
        wall = time.perf_counter() - t0
    docs = report["documents"]
    return {"workers": workers, "seconds": round(wall, 2), "report_seconds": report["duration_seconds"],
            "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
            "counts": {k: report["counts"].get(k) for k in ("new", "failed", "unchanged")},
            "pages": sum(d.get("pages") or 0 for d in docs), "ocr_pages": sum(d.get("ocr_pages") or 0 for d in docs),
            "doc_seconds": round(sum(d.get("seconds") or 0 for d in docs), 2),
            "failed": [f"{d['doc_id']}: {d.get('error')}" for d in docs if d.get("status") == "failed"]}


def child_run(code: Path, paths: list[str], workers: int) -> dict[str, Any]:
    """``one_run`` in a child process importing the code under ``code`` (its workers inherit the path)."""
    env = dict(os.environ, PYTHONPATH=str(code))
    env.pop("PAGETREE_MODEL", None)  # offline models: the default
    env.pop("PAGETREE_VISION_MODEL", None)
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", str(code), str(workers),
                           json.dumps(paths)], capture_output=True, text=True, env=env, cwd=str(code))
    if proc.returncode != 0:
        raise RuntimeError(f"run with {workers} worker(s) of {code} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the benchmark: ABBA pairs, best of each side -----------------------------------------------------
def bench_realistic(paths: list[Path], repeat: int = 3, baseline: str | None = None,
                    ours: str | None = None) -> dict[str, Any]:
    """1 vs 2 workers, ``repeat`` rounds; with ``baseline`` each round runs ours and the baseline's code
    interleaved. Each (code, workers) side keeps its best wall time. ``ours``: a git revision to measure
    instead of the working tree (exported like the baseline: edits during a long run do not leak in)."""
    codes = {"ours": baseline_tree(ours) if ours else ROOT}
    if baseline:
        codes = {"baseline": baseline_tree(baseline), **codes}
    names = [str(p) for p in paths]
    sides = [(c, w) for w in (1, 2) for c in codes]
    runs: list[dict[str, Any]] = []
    for n in range(repeat):
        for code, workers in (sides if n % 2 == 0 else list(reversed(sides))):  # ABBA: a drift hurts both alike
            run = child_run(codes[code], names, workers) | {"code": code}
            runs.append(run)
            print(f"  {code} {workers} worker(s): {run['seconds']} s (report {run['report_seconds']} s, load "
                  f"{run['load_before']}, {run['counts']})", file=sys.stderr, flush=True)
    best: dict[str, Any] = {}
    for code in codes:
        side = {w: min((r for r in runs if r["code"] == code and r["workers"] == w), key=lambda r: r["seconds"])
                for w in (1, 2)}
        best[code] = {"1_worker_s": side[1]["seconds"], "2_workers_s": side[2]["seconds"],
                      "ratio": round(side[2]["seconds"] / side[1]["seconds"], 3),
                      "report_1_worker_s": side[1]["report_seconds"], "report_2_workers_s": side[2]["report_seconds"]}
    out: dict[str, Any] = {
        "documents": len(paths), "files": [p.name for p in paths],
        "bytes": sum(p.stat().st_size for p in paths), "pages": runs[0]["pages"], "ocr_pages": runs[0]["ocr_pages"],
        "repeat": repeat, "best": best, "runs": runs,
        "codes": {k: (baseline if k == "baseline" else ours or _head()) for k in codes},
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
    }
    if baseline:
        out["ours_vs_baseline"] = {f"{w}_worker{'s' if w > 1 else ''}": round(
            best["ours"][f"{w}_worker{'s' if w > 1 else ''}_s"] / best["baseline"][f"{w}_worker{'s' if w > 1 else ''}_s"], 3)
            for w in (1, 2)}
    return out


def _head() -> str:
    rev = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return rev.stdout.strip() + ("+dirty" if dirty else "")


def table(r: dict[str, Any]) -> str:
    loads = [run["load_before"] for run in r["runs"]]
    rows = [f"{r['documents']} documents ({r['pages']} pages, {r['ocr_pages']} OCR'd, {r['bytes'] / 1e6:.1f} MB), "
            f"dask-existing, best of {r['repeat']}, load {min(loads)}-{max(loads)}", "",
            "| code | 1 worker | 2 workers | 2 vs 1 | report 1 / 2 |", "|---|---|---|---|---|"]
    for code, b in r["best"].items():
        rows.append(f"| {code} ({r['codes'][code]}) | {b['1_worker_s']} s | {b['2_workers_s']} s | x{b['ratio']} | "
                    f"{b['report_1_worker_s']} s / {b['report_2_workers_s']} s |")
    if "ours_vs_baseline" in r:
        v = r["ours_vs_baseline"]
        rows.append(f"| ours vs baseline | x{v['1_worker']} | x{v['2_workers']} | | |")
    return "\n".join(rows)


def main(args: Any) -> int:
    """``benchmarks/ingest.py --workload realistic``: run, print the table, write the results."""
    paths = corpus(Path(args.financebench), Path(args.manuals), args.filings, args.manuals_count)
    if not paths:
        raise SystemExit(f"no PDFs under {args.financebench} or {args.manuals}")
    import socket

    from prefect.server.api.server import SubprocessASGIServer

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    os.environ["PREFECT_API_URL"] = f"http://127.0.0.1:{port}/api"  # one API server for every child run
    server = SubprocessASGIServer(port=port)
    server.start(timeout=180)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        result = bench_realistic(paths, args.repeat, args.baseline, args.ours)
    finally:
        server.stop()
    command = " ".join([Path(sys.executable).name, "benchmarks/ingest.py"] + sys.argv[1:])
    result |= {"command": command, "started": started, "ended": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    text = table(result)
    print(text)
    out = Path(args.out or ROOT / "benchmarks/results/ingest-realistic.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")
    md = out.with_suffix(".md")
    if not md.exists():  # the .md is a log of sessions, written by hand around the latest table
        md.write_text(f"# Realistic ingest benchmark (issue 19)\n\n`{command}`, {started}-{result['ended']}\n\n{text}\n")
    return 0


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "--child":
    code_dir, n_workers, file_list = sys.argv[2], int(sys.argv[3]), json.loads(sys.argv[4])
    sys.path.insert(0, code_dir)
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
    print(json.dumps(one_run(file_list, n_workers)))
