"""Losing the worker host mid-run (issue 21, item 3), measured with the real pieces.

A local Prefect server (own PREFECT_HOME, free loopback port), the `pagetree` process pool, `prefect deploy --all`
from this checkout, the zombie-run automation (infra/automations/crash-zombie-runs.yaml), and worker A. Run 1 of
ingest/nightly indexes a folder of generated PDFs into a local store; once ``--kill-after`` documents are
published, worker A and every process under it (the flow-run process) are SIGKILLed: a lost host. Then, as the
next night would: worker B starts and run 2 of ingest/nightly is created at once (it waits for run 1's
concurrency slot, `concurrency_limit: 1`).

Measured from the kill: when run 1 is marked Crashed (by the automation), when run 2 starts Running, when it
completes; and from the store: documents published before the kill (kept, one version each, `unchanged` in
run 2), the rest indexed by run 2, run 1's partial report (marked crashed, recovered by run 2) and run 2's note.

    .venv/bin/python benchmarks/deploy_recovery.py                    # 30 documents x 30 pages, kill after 8
    .venv/bin/python benchmarks/deploy_recovery.py --docs 30 --kill-after 8 --repeat 2

Prints a markdown table; writes benchmarks/results/deploy_recovery.{json,md}. Target: kill -> run 2 Running
<= 120 s. Scratch files under benchmarks/.work/deploy_recovery (git-ignored).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

from tests.support.prefect_stack import LocalStack  # noqa: E402

TARGET_SECONDS = 120.0
#: As docs/operations.md sets the server up: a run waiting for its deployment's slot asks again every 10 s.
SERVER_ENV = {"PREFECT_SERVER_DEPLOYMENTS_CONCURRENCY_SLOT_WAIT_SECONDS": "10"}
#: Prefect's defaults for a worker (tests/support/prefect_stack.py polls every second to keep tests short).
WORKER_ENV = {"PREFECT_WORKER_QUERY_SECONDS": "10", "PREFECT_WORKER_PREFETCH_SECONDS": "10"}
WORK = ROOT / "benchmarks" / ".work" / "deploy_recovery"


def make_pdfs(folder: Path, docs: int, pages: int) -> None:
    import pymupdf

    folder.mkdir(parents=True)
    for i in range(docs):
        doc = pymupdf.open()
        for n in range(1, pages + 1):
            page = doc.new_page()
            page.insert_text((72, 72), f"Part {n}: topic {i}-{n}", fontsize=16)
            for line in range(40):
                page.insert_text((72, 100 + 16 * line), f"Document {i}, page {n}, line {line}: body text " * 2, fontsize=8)
        doc.save(folder / f"doc{i:03d}.pdf")
        doc.close()


def published(store: Path) -> set[str]:
    return {p.parent.name for p in (store / "docs").glob("*/latest.json")} if (store / "docs").exists() else set()


def state_of(stack: LocalStack, flow_run_id: str) -> str:
    with stack.client() as client:
        state = client.read_flow_run(flow_run_id).state
    return state.name if state else "?"


def create_run(stack: LocalStack, source: Path, store: Path, batch_size: int) -> str:
    out = stack.prefect("deployment", "run", "ingest/nightly", "--param", f"source={source}", "--param",
                        f"store={store}", "--param", f"batch_size={batch_size}").stdout
    for line in out.splitlines():
        if "UUID:" in line:
            return line.split("UUID:")[1].strip()
    raise RuntimeError(f"no flow run id in: {out}")


def wait_for(predicate: Any, timeout: float, every: float = 0.5) -> float | None:
    """Monotonic time at which ``predicate()`` became true, or None after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return time.monotonic()
        time.sleep(every)
    return None


def trial(work: Path, docs: int, pages: int, kill_after: int, batch_size: int) -> dict[str, Any]:
    source, store = work / "source", work / "store"
    make_pdfs(source, docs, pages)
    with LocalStack(work) as stack:
        t0 = time.monotonic()
        stack.start_server(**SERVER_ENV)
        stack.prefect("work-pool", "create", "pagetree", "--type", "process")
        stack.prefect("--no-prompt", "deploy", "--all", cwd=ROOT)
        stack.prefect("automation", "create", "--from-file", str(ROOT / "infra/automations/crash-zombie-runs.yaml"))
        setup_s = time.monotonic() - t0
        worker_a = stack.start_worker("worker-a", PAGETREE_APP_DIR=str(ROOT), **WORKER_ENV)
        run1 = create_run(stack, source, store, batch_size)
        if wait_for(lambda: len(published(store)) >= kill_after, 600) is None:
            raise RuntimeError("run 1 published nothing: " + stack.log("worker-a"))
        stack.kill_worker(worker_a)
        t_kill = time.monotonic()
        before_kill = published(store)
        state_at_kill = state_of(stack, run1)
        stack.start_worker("worker-b", PAGETREE_APP_DIR=str(ROOT), **WORKER_ENV)
        run2 = create_run(stack, source, store, batch_size)
        t_crashed = wait_for(lambda: state_of(stack, run1) == "Crashed", 600)
        waiting = ("Scheduled", "AwaitingConcurrencySlot", "Late")
        t_slot = wait_for(lambda: state_of(stack, run2) not in waiting, 600, every=0.25)  # picked up, slot granted
        run2_states_seen = state_of(stack, run2)
        t_run2 = wait_for(lambda: state_of(stack, run2) not in waiting + ("Pending", "Submitting"), 600, every=0.25)
        t_done = wait_for(lambda: state_of(stack, run2) in ("Completed", "Failed", "Crashed"), 900)
        final_state = state_of(stack, run2)
        worker_log = stack.log("worker-b", 6000)

    reports = {p.stem: json.loads(p.read_text()) for p in (store / "runs").glob("*.json")}
    partial = [r for r in reports.values() if r.get("partial")]
    finished = [r for r in reports.values() if not r.get("partial")]
    report2 = finished[0] if len(finished) == 1 else {}
    versions = {d.name: len(list((d / "versions").iterdir())) for d in (store / "docs").iterdir()}
    counts = report2.get("counts", {})
    since = lambda t: round(t - t_kill, 1) if t else None  # noqa: E731
    return {
        "docs": docs, "pages": pages, "batch_size": batch_size, "setup_seconds": round(setup_s, 1),
        "run1_state_at_kill": state_at_kill, "published_before_kill": len(before_kill),
        "kill_to_run1_crashed_s": since(t_crashed), "kill_to_run2_submitted_s": since(t_slot), "kill_to_run2_running_s": since(t_run2),
        "kill_to_run2_done_s": since(t_done), "run2_state_when_submitted": run2_states_seen, "run2_final_state": final_state,
        "run2_counts": counts,
        "run1_partial_report": {k: partial[0].get(k) for k in ("status", "recovered_by", "checkpoint_at")} | {
            "published_in_it": partial[0]["counts"]["published"]} if partial else None,
        "run2_notes": report2.get("notes", []),
        "all_documents_published": len(versions) == docs,
        "kept_documents_with_one_version": sum(versions.get(d) == 1 for d in before_kill),
        "kept_unchanged_in_run2": sum(1 for d in report2.get("documents", []) if d["doc_id"] in before_kill
                                      and d["status"] == "unchanged"),
        "met": bool(t_run2 and t_run2 - t_kill <= TARGET_SECONDS and final_state == "Completed"
                    and len(versions) == docs),
        "worker_b_log_tail": worker_log[-1500:] if final_state != "Completed" else "",
        "flow_runs": [run1, run2],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=30)
    parser.add_argument("--pages", type=int, default=30)
    parser.add_argument("--kill-after", type=int, default=8, help="published documents before the kill")
    parser.add_argument("--batch-size", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "deploy_recovery.json"))
    args = parser.parse_args()

    import prefect

    trials = []
    for i in range(args.repeat):
        work = WORK / f"trial{i}"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        result = trial(work, args.docs, args.pages, args.kill_after, args.batch_size)
        result["uptime_before"] = load
        result["uptime_after"] = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        trials.append(result)
        print(json.dumps({k: v for k, v in result.items() if k != "worker_b_log_tail"}, indent=1))

    out = Path(args.out)
    payload = {"benchmark": "deploy_recovery", "prefect": prefect.__version__, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "target_seconds": TARGET_SECONDS, "args": vars(args), "trials": trials}
    out.write_text(json.dumps(payload, indent=1) + "\n")
    rows = ["| trial | published before kill (in run 1's partial report) | kill -> run 1 Crashed | kill -> run 2 "
            "submitted | kill -> run 2 Running | kill -> run 2 done | run 2: new / unchanged / failed | kept (1 version, "
            "unchanged) | met (<= 120 s) | uptime |", "|---|---|---|---|---|---|---|---|---|---|"]
    for i, t in enumerate(trials):
        c = t["run2_counts"]
        listed = (t["run1_partial_report"] or {}).get("published_in_it")
        rows.append(f"| {i} | {t['published_before_kill']}/{t['docs']} ({listed}) | {t['kill_to_run1_crashed_s']} s | "
                    f"{t['kill_to_run2_submitted_s']} s | {t['kill_to_run2_running_s']} s | {t['kill_to_run2_done_s']} s | {c.get('new')} / "
                    f"{c.get('unchanged')} / {c.get('failed')} | {t['kept_documents_with_one_version']}, "
                    f"{t['kept_unchanged_in_run2']} | {'yes' if t['met'] else 'no'} | {t['uptime_before']} |")
    table = "\n".join(rows)
    print(table)
    out.with_suffix(".md").write_text(f"# Losing the worker host mid-run (issue 21)\n\n{payload['at']}, Prefect "
                                      f"{prefect.__version__}, `{' '.join(sys.argv)}`\n\n{table}\n")


if __name__ == "__main__":
    main()
