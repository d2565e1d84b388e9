"""Rebuild benchmark: what a stage bump costs on a store of real manuals and scanned excerpts.

Builds a store (Prefect flows in-process under Prefect's test harness, a local folder source) from the
manuals corpus (born-digital) and scanned excerpts of some of them (the first N pages rasterised as in
benchmarks/ocr.py), then measures, each against the same store:

- a comment/docstring change to every module of parsers/ and providers/ (in a scratch copy of the
  code, through the CLI in a subprocess): stale documents in ``rebuild-stale --dry-run``;
- a ``summaries`` stage bump (offline): pages parsed, pages OCR'd, model calls, wall;
- switching to a model (the local OpenAI-compatible test server), then a prompt version bump: the same;
- a ``structure`` stage bump: the same, and its wall time against the cold build's;
- the scanned excerpts built cold, then into a fresh store whose OCR cache was copied: wall side by side.

Every rebuild is dry-run first; the estimate and the measured work are printed side by side. A stage
bump is made the way a release makes one: the declared version in parsers/stages.py changes.

    python benchmarks/rebuild.py [--docs a,b] [--scan-docs a,b] [--scan-pages 15]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from benchmarks.ocr import make_scanned  # noqa: E402
from parsers import stages  # noqa: E402
from providers.prompts import PROMPT_VERSION  # noqa: E402

DEFAULT_DOCS = "debian-policy,developers-reference,freefem,gap-tutorial,live-manual,maint-guide,mpich-user,ubuntu-packaging-guide"
DEFAULT_SCAN = "debian-policy,developers-reference,maint-guide,live-manual"


def uptime() -> str:
    try:
        return Path("/proc/loadavg").read_text().split()[0]
    except OSError:
        return "?"


def reply(rec: Any) -> str:
    """The model server's answers: a description for description requests, else a summary naming the section."""
    if rec.json_schema and "description" in (rec.json_schema.get("properties") or {}):
        return json.dumps({"description": "A manual."})
    line = next((ln for ln in rec.user_text().splitlines() if ln.startswith("Section: ")), "Section: ?")
    return json.dumps({"summary": "Model summary of " + line.removeprefix("Section: ")})


def comment_only_stale(store: str, work: Path) -> int:
    """Stale documents seen by ``rebuild-stale --dry-run`` from a copy of the code with a comment and a
    reworded docstring in every module of parsers/ and providers/."""
    copy = work / "code-with-comments"
    shutil.rmtree(copy, ignore_errors=True)
    for name in ("parsers", "providers", "flows", "index_store", "query"):
        shutil.copytree(ROOT / name, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    for path in list((copy / "parsers").rglob("*.py")) + list((copy / "providers").rglob("*.py")):
        text = path.read_text().replace('"""', '"""Reworded. ', 1)
        path.write_text("# a comment added by a refactor\n" + text + "\n# another comment\n")
    from prefect.settings import PREFECT_API_URL

    # the subprocess talks to this process's Prefect API (an ephemeral server of its own may not start in time
    # on a loaded machine)
    env = {**os.environ, "PYTHONPATH": str(copy), "PREFECT_HOME": str(work / "prefect-sub"),
           "PREFECT_API_URL": str(PREFECT_API_URL.value())}
    out = subprocess.run([sys.executable, "-m", "flows.cli", "rebuild-stale", "--dry-run", "--json", "--store", store],
                         cwd=copy, env=env, capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        raise SystemExit(f"rebuild-stale in the scratch copy failed: {out.stderr[-2000:]}")
    report = json.loads(out.stdout[out.stdout.index("{"):])
    return int(report["counts"]["seen"])


def run_step(name: str, fn: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
    load = uptime()
    t0 = time.perf_counter()
    report = fn(*args, **kwargs)
    wall = time.perf_counter() - t0
    print(f"  {name}: {wall:.1f}s, load {load}, work {report.get('work')}, counts {report['counts']}", flush=True)
    return {"step": name, "wall_s": round(wall, 2), "load": load, "work": report.get("work"),
            "counts": {k: report["counts"][k] for k in ("seen", "new", "rebuilt", "unchanged", "failed")},
            "model_calls": report["model_usage"]["calls"]}


def bumped(stage: str, version: str) -> None:
    stages.STAGES[stage] = (version, stages.STAGES[stage][1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT / ".corpus"))
    ap.add_argument("--docs", default=DEFAULT_DOCS, help="born-digital manuals (file stems)")
    ap.add_argument("--scan-docs", default=DEFAULT_SCAN, help="manuals whose first pages are also indexed as scans")
    ap.add_argument("--scan-pages", type=int, default=15)
    ap.add_argument("--scan-dpi", type=int, default=200)
    ap.add_argument("--work", default=str(HERE / ".work" / "rebuild"))
    ap.add_argument("--out", default=str(HERE / "results" / "rebuild.json"))
    ap.add_argument("--resume", action="store_true",
                    help="keep WORK's store and the cold-build steps recorded in WORK/progress.json (skip the cold build)")
    args = ap.parse_args(argv)

    from prefect.testing.utilities import prefect_test_harness

    from flows.ingest import ingest
    from flows.rebuild import rebuild_stale
    from tests.support.openai_server import FakeOpenAI

    work = Path(args.work)
    manuals, scans = work / "src" / "manuals", work / "src" / "scanned"
    progress = work / "progress.json"
    store = str(work / "store")
    if not args.resume:
        shutil.rmtree(work, ignore_errors=True)
        manuals.mkdir(parents=True)
        scans.mkdir(parents=True)
        corpus = Path(args.corpus)
        for stem in args.docs.split(","):
            shutil.copy(corpus / f"{stem}.pdf", manuals / f"{stem}.pdf")
        for stem in args.scan_docs.split(","):
            make_scanned(corpus / f"{stem}.pdf", scans / f"{stem}-scan.pdf", args.scan_pages, args.scan_dpi)
    else:
        shutil.rmtree(work / "store-warm", ignore_errors=True)
    results: dict[str, Any] = {"params": vars(args), "steps": [], "estimates": {}}
    steps = results["steps"]
    if args.resume:
        steps.extend(json.loads(progress.read_text())["steps"][:2])

    def rebuild(name: str, settings: dict[str, Any] | None = None) -> None:
        dry = rebuild_stale(store=store, settings=settings, dry_run=True)
        results["estimates"][name] = dry["work"]
        stale = sorted({s["stage"] for d in dry["documents"] for s in d.get("stale") or []})
        print(f"  {name} (dry run): {dry['counts']['seen']} stale, stages {stale}, estimated {dry['work']}", flush=True)
        steps.append({**run_step(name, rebuild_stale, store=store, settings=settings), "estimated": dry["work"],
                      "stale_documents": dry["counts"]["seen"]})

    with prefect_test_harness(server_startup_timeout=180), FakeOpenAI() as server:
        server.reply_fn = reply
        os.environ.update(OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="bench", PAGETREE_MODEL_MAX_RETRIES="1")
        if not args.resume:
            print(f"cold build into {store}", flush=True)
            steps.append(run_step("cold: scanned excerpts", ingest, str(scans), store=store))
            steps.append(run_step("cold: born-digital manuals", ingest, str(manuals), store=store))
            progress.write_text(json.dumps(results, indent=1))
        cold_wall = steps[0]["wall_s"] + steps[1]["wall_s"]

        print("comment-only change (scratch copy, CLI subprocess)", flush=True)
        results["comment_only_stale"] = comment_only_stale(store, work)
        print(f"  stale documents: {results['comment_only_stale']}", flush=True)

        bumped("summaries", "bench-2")
        rebuild("summaries bump (offline)")
        model = {"summarizer": "model", "model": "fake-model", "prompt_version": PROMPT_VERSION}
        rebuild("model switched on (summaries stale)", model)
        rebuild("prompt version bump", {**model, "prompt_version": PROMPT_VERSION + "-bench"})
        bumped("structure", "bench-2")
        rebuild("structure bump", {**model, "prompt_version": PROMPT_VERSION + "-bench"})
        structure = steps[-1]
        results["structure_over_cold"] = round(structure["wall_s"] / cold_wall, 3)

        print("scanned excerpts: warm OCR cache in a fresh store", flush=True)
        warm = str(work / "store-warm")
        shutil.copytree(Path(store) / "cache" / "ocr", Path(warm) / "cache" / "ocr")
        steps.append(run_step("warm OCR cache: scanned excerpts", ingest, str(scans), store=warm))
        results["model_server_calls"] = server.calls

    results["machine"] = {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version()}
    print()
    print("| step | wall s | load | stale docs | pages parsed (est./measured) | pages OCR'd (est./measured) | model calls (est./measured) |")
    print("|---|---:|---:|---:|---|---|---|")
    for s in steps:
        est, got = s.get("estimated") or {}, s["work"]
        cell = (lambda k: f"{est.get(k, '-')} / {got[k]}") if est else (lambda k: f"- / {got[k]}")
        print(f"| {s['step']} | {s['wall_s']} | {s['load']} | {s.get('stale_documents', '-')} | {cell('pages_parsed')} | "
              f"{cell('ocr_pages')} | {cell('model_calls')} |")
    print(f"\ncomment-only change: {results['comment_only_stale']} stale documents; structure bump wall / cold build wall = "
          f"{results['structure_over_cold']}")
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
