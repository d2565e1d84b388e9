"""Run reports that survive their run: a partial report while it runs, and recovery by the next run.

A flow process killed with its worker host (SIGKILL, OOM, a lost machine) writes nothing at the end. So a
run writes its report to the store as it goes (``Checkpoint``): once when it starts, then after a batch
at most every ``every`` seconds, each time with ``"partial": true``; its final report replaces it. What
a dead run published stays published (a version is committed by its manifest, ``latest.json`` moves
after), so its partial report lists what it published, up to its last checkpoint.

The next run of the same flow on the same source and store finds such reports (``Recovery``): those of
runs whose Prefect flow run has ended (the automation in infra/automations marks a run without heartbeat
``Crashed``) are marked ``"status": "crashed"`` with ``recovered_by`` (and ``published_after_last_checkpoint``:
documents whose latest.json says the dead run published them after its last partial report), and its own
report says what it picked up: the documents the dead run had published are ``unchanged`` now, the rest are
indexed.
A partial report whose flow run is still going (two runs at once) is only noted.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from flows.local import in_flow_run
from flows.report import RunReport
from index_store import layout
from index_store.errors import StoreError
from index_store.store import Store, utcnow

PUBLISHED = ("new", "changed", "rebuilt")
#: How many of the newest run reports the next run reads back to find unfinished ones: they sort by start time,
#: and the scan stops at the newest finished report of the same flow and source, so a normal run reads one.
SCAN_REPORTS = 20
#: Least seconds between two partial reports of a run (one PUT each): what a dead run's report may miss at most
#: (those documents are published all the same, and the next run finds them unchanged).
CHECKPOINT_SECONDS = 5.0


def prefect_flow_run_id() -> str | None:
    if not in_flow_run():  # the CLI's local mode: no flow run, and Prefect stays unimported
        return None
    try:
        from prefect.runtime import flow_run

        return str(flow_run.id) if flow_run.id else None
    except Exception:  # outside a flow run: no id, and a crashed report cannot be matched to a run state
        return None


class Checkpoint:
    """Writes ``report`` to the store with ``"partial": true``: ``write()`` now; ``__call__`` (the run calls it
    after each batch) now if ``every`` seconds have passed since the last write, else once they have, from a
    timer, so the last batches before a kill are in the report too. ``close()`` before the final report: no
    partial report is written after it."""

    def __init__(self, report: RunReport, store: Store, every: float | None = None):
        self.report, self.store = report, store
        self.every = CHECKPOINT_SECONDS if every is None else every
        self.flow_run_id = prefect_flow_run_id()
        self._last = 0.0
        self._lock = threading.Lock()
        self._timer: threading.Timer | None = None
        self._closed = False

    def record(self, status: str = "running", error: str | None = None) -> dict[str, Any]:
        record = self.report.to_dict()
        record.update(partial=True, status=status, checkpoint_at=utcnow(), prefect_flow_run_id=self.flow_run_id)
        if error:
            record["error"] = error
        return record

    def write(self, status: str = "running", error: str | None = None) -> None:
        with self._lock:
            if self._closed:
                return
            self._last = time.monotonic()
            try:
                self.store.put_run(self.report.run_id, self.record(status, error))
            except Exception as exc:  # a checkpoint is insurance: the run goes on, the final report is the record
                logging.getLogger("pagetree.flows").warning("could not write the partial run report: %s", exc)

    def __call__(self) -> None:
        wait = self._last + self.every - time.monotonic()
        if wait <= 0:
            self.write()
        elif self._timer is None or not self._timer.is_alive():
            self._timer = threading.Timer(wait, self.write)
            self._timer.daemon = True
            self._timer.start()

    def close(self, status: str | None = None, error: str | None = None) -> None:
        """No more partial reports; with ``status``, write one last (``crashed``: the run is going down)."""
        if self._timer is not None:
            self._timer.cancel()
        if status:
            self.write(status, error)
        with self._lock:
            self._closed = True


def flow_run_state(flow_run_id: str | None) -> str | None:
    """The Prefect state name of a flow run (``Crashed``, ``Running``...), or None when it cannot be asked."""
    if not flow_run_id:
        return None
    try:
        from prefect.client.orchestration import get_client

        with get_client(sync_client=True) as client:
            state = client.read_flow_run(flow_run_id).state
        return state.name if state else None
    except Exception:
        return None


class Recovery:
    """The unfinished runs of this flow on this source and store that the run found when it started."""

    FINAL = ("Crashed", "Failed", "Cancelled", "Completed", "TimedOut")

    def __init__(self, store: Store, report: RunReport):
        self.store, self.report = store, report
        self.dead: list[dict[str, Any]] = []  # partial reports of runs that ended without their final report

    def scan(self) -> "Recovery":
        keys = sorted(self.store.backend.list_keys(layout.RUNS + "/"), reverse=True)
        for key in [k for k in keys if k.endswith(".json")][:SCAN_REPORTS]:
            try:
                old = json.loads(self.store.backend.get_bytes(key))
            except (StoreError, ValueError, OSError):
                continue
            if old.get("run_id") == self.report.run_id or old.get("flow") != self.report.flow \
                    or old.get("source") != self.report.source:
                continue
            if not old.get("partial"):
                break  # the newest finished run: anything older was recovered by it or before it
            if old.get("recovered_by"):
                continue
            state = flow_run_state(old.get("prefect_flow_run_id"))
            if state in self.FINAL:
                old["prefect_state"] = state
                self.dead.append(old)
            else:
                self.report.notes.append(f"run {old.get('run_id')} has not finished (Prefect state: {state or 'unknown'};"
                                         f" last checkpoint {old.get('checkpoint_at')}): left as it is")
        return self

    def finish(self) -> None:
        """Note what this run picked up from each dead run, and mark the dead run's report ``crashed``."""
        outcome = {d.doc_id: d.status for d in self.report.documents}
        for old in self.dead:
            listed = {d["doc_id"] for d in old.get("documents", []) if d.get("status") in PUBLISHED}
            late = self.published_after_checkpoint(old, listed)
            kept = listed | set(late)
            again = sum(outcome.get(doc_id) in PUBLISHED for doc_id in kept)
            picked = sum(d.status in PUBLISHED and d.doc_id not in kept for d in self.report.documents)
            self.report.notes.append(
                f"recovered run {old.get('run_id')} ({old['prefect_state']}, last checkpoint {old.get('checkpoint_at')}):"
                f" {len(kept)} documents it had published were kept ({len(late)} of them after its last checkpoint;"
                f" {again} indexed again, changed since), {picked} others were indexed by this run")
            old.update(status="crashed", recovered_by=self.report.run_id, recovered_at=utcnow(),
                       published_after_last_checkpoint=late)
            try:
                self.store.put_run(old["run_id"], old)
            except Exception:  # its partial report stays as it was; this run's note is the record
                pass

    def published_after_checkpoint(self, old: dict[str, Any], listed: set[str]) -> list[str]:
        """Documents this run found unchanged whose latest version was published while the dead run ran, after
        its last checkpoint (at most CHECKPOINT_SECONDS before it died): one latest.json read each, only here."""
        started = str(old.get("started_at") or "")
        candidates = [d.doc_id for d in self.report.documents if d.status == "unchanged" and d.doc_id not in listed]
        if not started or not candidates:
            return []

        def published_at(doc_id: str) -> str:
            try:
                return str((self.store.latest(doc_id) or {}).get("published_at") or "")
            except Exception:
                return ""

        with ThreadPoolExecutor(max_workers=16) as pool:
            stamps = list(pool.map(published_at, candidates))
        return sorted(d for d, at in zip(candidates, stamps) if started <= at < self.report.started_at)
