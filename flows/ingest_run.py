"""An ingest run without Prefect: discover -> plan -> index -> publish -> report (flows/ingest.py wraps it in flows).

The listing is a generator consumed in chunks: each chunk is planned against
the store's catalog (latest.json per document) and only new or changed
documents are submitted, so an unchanged collection costs one small GET per
document and no downloads, and memory is bounded by the chunk size and the
number of documents in flight, not by the size of the listing.

Documents to index are submitted in small batches (``index_batch`` in
flows/document.py) on whatever task runner the flow was given (threads,
processes, Dask), or on threads without Prefect. Inside a batch each document is its own retry unit: its
download and publication retry with backoff, it has its own timeout, and its
failure is its own outcome row. A failing document never fails the run: its
error is recorded in the report and, since nothing was published for it, it is
tried again on the next run. Batches exist because a Prefect task run costs
more orchestration than parsing a small PDF (benchmarks/results/ingest.md);
they hold at most ``batch_size`` documents and ``batch_bytes`` of source objects,
two batches per worker slot are in flight (one running, one ready), each sized when one finishes,
shrinking towards the end of the run (guided self-scheduling, ``next_batch``)
so that the workers finish together. A batch that dies as a whole (its worker
was killed) is re-run one document per task, so only a document that kills its
worker fails.

This module does not import Prefect. Its two units of work, planning a chunk (``plan_objects``) and indexing a
batch (flows.document.index_batch on a ``pool``), are called directly and run on threads by the CLI's local mode
(flows/local.py); the flows in flows/ingest.py pass them in as Prefect tasks on the flow's task runner.
"""

from __future__ import annotations

import itertools
import math
import queue
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from flows.checkpoint import Checkpoint, Recovery
from flows.claims import claim_problem, collision_message, collisions, owner
from flows.document import cached_source, index_batch, open_spec, open_store, settings_from
from flows.local import LocalPool, Progress, in_flow_run, progress, run_logger
from flows.report import DocOutcome, RunReport, new_run_id
from flows.reuse import model_available
from flows.sources import LocalSource, SourceObject, default_doc_id
from index_store.errors import StoreError
from index_store.layout import check_doc_id
from index_store.store import Store

__all__ = ["DEFAULT_BATCH", "DEFAULT_CHUNK", "DEFAULT_DOC_TIMEOUT", "PlanItem", "batches", "chunks", "claim",
           "index_paths", "ingest_source", "least_batch", "next_batch", "open_spec", "open_store", "plan_objects",
           "publish_report", "removed_documents", "run_documents", "run_ingest", "settings_from", "source_spec",
           "tombstone"]

DEFAULT_CHUNK = 500
DEFAULT_DOC_TIMEOUT = 1800.0
DEFAULT_BATCH = 64  # documents per task at most: a task run costs ~0.2 s of CPU; the tail is balanced by next_batch()
DEFAULT_BATCH_BYTES = 8 * 2**20  # a larger document goes alone: it is worth its own task run
#: What a Prefect task run costs the run, in seconds: submission in the flow, the worker's task-engine start and
#: finish, dispatch (benchmarks/results/ingest.md: 0.15-0.3 s on a local Dask cluster). Sizes the least batch.
TASK_RUN_SECONDS = 0.25


@dataclass
class PlanItem:
    obj: SourceObject
    doc_id: str
    action: str  # index | unchanged | failed | skipped
    status: str  # new | changed | unchanged | rebuilt | failed | skipped
    reason: str = ""
    spec: dict[str, Any] | None = None  # the source to fetch from, when not the run's own (rebuilds)
    kind: str = ""  # the report's error kind of a failed or skipped item, when not the action's default


def source_spec(uri: str, include: list[str] | None = None, exclude: list[str] | None = None,
                endpoint_url: str | None = None, max_attempts: int = 5) -> dict[str, Any]:
    """Everything a worker needs to reopen the source (plain data: travels to processes and Dask workers)."""
    spec: dict[str, Any] = {"uri": uri}
    if include:
        spec["include"] = tuple(include)
    if exclude:
        spec["exclude"] = tuple(exclude)
    if uri.startswith("s3://"):
        spec["endpoint_url"] = endpoint_url
        spec["max_attempts"] = max_attempts
    return spec


def chunks(objects: Iterable[SourceObject], size: int) -> Iterator[list[SourceObject]]:
    it = iter(objects)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


# -- planning ----------------------------------------------------------------
def _decide(obj: SourceObject, doc_id: str, latest: dict[str, Any] | None, fingerprint: str, max_size: int | None,
            retry_degraded: bool = False) -> PlanItem:
    if max_size and obj.size > max_size:
        return PlanItem(obj, doc_id, "skipped", "skipped", f"size {obj.size} bytes exceeds the cap of {max_size}")
    if latest is None:
        return PlanItem(obj, doc_id, "index", "new")
    src = latest.get("source") or {}
    same_source = src.get("etag") == obj.etag and src.get("bytes") == obj.size
    degraded = retry_degraded and bool(latest.get("degraded"))  # extractive fallbacks, and a model is reachable now
    if latest.get("fingerprint") == fingerprint and same_source and not latest.get("removed_from_source") and not degraded:
        return PlanItem(obj, doc_id, "unchanged", "unchanged", "source etag, size and fingerprint match latest")
    if latest.get("removed_from_source"):
        why = "reappeared in the source"
    elif latest.get("fingerprint") != fingerprint:
        why = "pipeline fingerprint changed"
    elif degraded and same_source:
        why = "published with extractive fallbacks; a model is reachable now"
    else:
        why = "source changed"
    return PlanItem(obj, doc_id, "index", "changed", why)


def plan_objects(store_uri: str, objects: list[SourceObject], fingerprint: str, doc_ids: dict[str, str] | None = None,
         max_size: int | None = None, store_endpoint: str | None = None, replace: bool = False,
         retry_degraded: bool = False) -> list[PlanItem]:
    """Decide per object: skip (etag+size+fingerprint match latest), index, or reject (bad id, too large, an
    unreadable entry, an id claimed by two objects or, unless ``replace``, by another source: flows.claims).
    ``retry_degraded``: a version built with extractive fallbacks is re-indexed (a model is available now)."""
    store = open_store(store_uri, store_endpoint)
    resolved: list[tuple[SourceObject, str | None, str]] = []
    for obj in objects:
        try:
            given = (doc_ids or {}).get(obj.key)
            resolved.append((obj, check_doc_id(given) if given else default_doc_id(obj), ""))
        except StoreError as exc:
            resolved.append((obj, None, str(exc)))
    wanted = [doc_id for _, doc_id, _ in resolved if doc_id]
    # latest.json reads are small round trips: overlap them so 1,000 documents take seconds, not minutes.
    with ThreadPoolExecutor(max_workers=16) as pool:
        latest = dict(zip(wanted, pool.map(store.latest, wanted)))
    clash = collisions((doc_id, obj.uri) for obj, doc_id, _ in resolved if doc_id and not obj.problem)
    items = []
    for obj, doc_id, error in resolved:
        if doc_id is None:
            items.append(PlanItem(obj, obj.key, "failed", "failed", error))
        elif obj.problem:
            action = "skipped" if obj.problem_kind == "symlink_outside" else "failed"
            items.append(PlanItem(obj, doc_id, action, action, obj.problem, kind=obj.problem_kind or ""))
        elif doc_id in clash:
            items.append(PlanItem(obj, doc_id, "failed", "failed", collision_message(doc_id, clash[doc_id]), kind="collision"))
        elif why := claim_problem(doc_id, obj.uri, latest[doc_id], replace):
            items.append(PlanItem(obj, doc_id, "failed", "failed", why, kind="other_source"))
        else:
            item = _decide(obj, doc_id, latest[doc_id], fingerprint, max_size, retry_degraded)
            if item.action == "unchanged" and owner(latest[doc_id]) not in (None, obj.uri):  # --replace: take the id over
                item = PlanItem(obj, doc_id, "index", "changed", f"replaces {owner(latest[doc_id])} (--replace)")
            items.append(item)
    return items


# -- documents ---------------------------------------------------------------
def next_batch(pending: deque[PlanItem], size: int, max_bytes: int, slots: int = 4, least: int = 1) -> list[PlanItem]:
    """Take the next batch off the front of ``pending``: at most ``max(least, ceil(len(pending) / slots))``
    and ``size`` documents and ``max_bytes`` of source objects (a larger document goes alone).

    Guided self-scheduling (Polychronopoulos & Kuck, 1987): the first batches are large (few Prefect task
    runs: each costs ~0.2 s of CPU across the flow, the worker and the API server), the last ones small, so
    no worker is left idle while another works through a full batch. ``run_documents`` sizes a batch when
    one finishes, so the schedule does not depend on how a task runner queues work. With few documents it
    spreads them: three changed documents on a nightly run still go to three workers. ``least``
    (``least_batch``) stops the shrinking where a smaller batch would cost more in task-run overhead than it
    saves in balance.
    """
    cap = max(1, min(size, max(least, math.ceil(len(pending) / max(1, slots)))))
    group = [pending.popleft()]
    total = group[0].obj.size
    while pending and len(group) < cap and total + pending[0].obj.size <= max_bytes:
        total += pending[0].obj.size
        group.append(pending.popleft())
    return group


def batches(items: Iterable[PlanItem], size: int, max_bytes: int, slots: int = 4,
            least: int = 1) -> Iterator[list[PlanItem]]:
    """The whole schedule ``next_batch`` makes of ``items``: consecutive groups, shrinking towards the end."""
    pending = deque(items)
    while pending:
        yield next_batch(pending, size, max_bytes, slots, least)


def least_batch(overhead_s: float, doc_s: float, size: int) -> int:
    """The smallest batch worth a task run: as many documents as one task run's overhead would index.

    Below it, a last batch ends sooner, but the run pays a task run's overhead (``TASK_RUN_SECONDS``) for
    less than that much work, so the workers finish later, not sooner. ``doc_s`` is this run's mean so far.
    Small PDFs: ~0.25 s per task run, ~0.06 s per document, so 4; documents of a second or more: 1.
    """
    if doc_s <= 0 or overhead_s <= 0:
        return 1
    return max(1, min(size, int(overhead_s / doc_s + 0.5)))


def claim(item: PlanItem, claimed: dict[str, str]) -> PlanItem:
    """``item``, or a failed one when an object of an earlier chunk of this run took its id (that one may be
    published already: a listing is planned chunk by chunk; ids derived from one listing never collide)."""
    if item.action not in ("index", "unchanged"):
        return item
    first = claimed.setdefault(item.doc_id, item.obj.uri)
    if first == item.obj.uri:
        return item
    return PlanItem(item.obj, item.doc_id, "failed", "failed", collision_message(item.doc_id, [first, item.obj.uri]),
                    kind="collision")


def _job(item: PlanItem, spec: dict[str, Any]) -> dict[str, Any]:
    """What a worker needs for one document: plain data, a few hundred bytes."""
    return {"doc_id": item.doc_id, "obj": item.obj, "status": item.status, "reason": item.reason,
            "spec": item.spec or spec}


def _collect(group: list[PlanItem], future: Any) -> tuple[list[DocOutcome], bool]:
    """The outcomes of a submitted batch, and whether the batch itself failed (its worker died, it was
    cancelled...): then every document in it has a failed outcome, and the run goes on."""
    try:
        outcomes = future.result()
        if len(outcomes) == len(group):
            return list(outcomes), False
        error, kind = f"batch returned {len(outcomes)} outcomes for {len(group)} documents", "internal"
    except TimeoutError as exc:
        error, kind = f"timed out: {exc}", "timeout"
    except Exception as exc:
        error, kind = f"{type(exc).__name__}: {exc}", "internal"
    return [DocOutcome(item.doc_id, item.obj.uri, "failed", error=error, error_kind=kind, reason=item.reason or None)
            for item in group], True


def rerun_outcome(item: PlanItem, outcome: DocOutcome) -> DocOutcome:
    """A document re-run after its batch died: one the dead batch had already published comes back as
    'same content as the latest version'; it is still new (changed, rebuilt) in this run."""
    if item.status in ("new", "changed", "rebuilt") and outcome.status == "unchanged":
        outcome.status, outcome.reason = item.status, "published before its batch's worker died; confirmed on re-run"
    return outcome


# -- the run -----------------------------------------------------------------
def removed_documents(store: Store, source_uri: str, seen: set[str]) -> Iterator[str]:
    """Documents in the store that came from this source but were not listed this time."""
    root = source_uri.rstrip("/") + "/"
    for doc_id in store.doc_ids():
        if doc_id in seen:
            continue
        latest = store.latest(doc_id) or {}
        uri = str((latest.get("source") or {}).get("uri") or "")
        if uri.startswith(root) and not latest.get("removed_from_source"):
            yield doc_id


def tombstone(store: Store, doc_id: str, run_id: str) -> None:
    """Mark latest.json as removed from the source; no version is deleted (gc and the operator decide)."""
    latest = store.latest(doc_id)
    if latest is None:
        return
    record = dict(latest)
    record["removed_from_source"] = {"run_id": run_id, "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    store.update_latest(doc_id, record)


def publish_report(report: RunReport, store: Store) -> None:
    """The JSON report in the store is the record; the Prefect artifact is a convenience."""
    logger = run_logger()
    try:
        store.put_run(report.run_id, report.to_dict())
    except Exception as exc:  # a full disk, a denied write: the run's outcome still reaches the caller
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        report.report_error = f"could not write the run report runs/{report.run_id}.json: {type(exc).__name__}: {first}"
        logger.error(report.report_error)
    if not in_flow_run():  # the CLI's local mode (flows/local.py): no Prefect API to hold an artifact
        return
    from prefect.artifacts import create_markdown_artifact  # in a flow run: Prefect is loaded already

    try:
        create_markdown_artifact(key=f"{report.flow}-report", markdown=report.to_markdown(),
                                 description=f"pagetree run {report.run_id}")
    except Exception as exc:
        logger.warning("could not create the Prefect artifact: %s", exc)


def run_documents(report: RunReport, items: Iterable[list[PlanItem]], spec: dict[str, Any], store_uri: str,
                  settings: dict[str, Any], *, store_endpoint: str | None, doc_timeout: float | None,
                  max_in_flight: int, retry_base: float, batch_size: int = DEFAULT_BATCH,
                  batch_bytes: int = DEFAULT_BATCH_BYTES, pool: Any = None,
                  on_progress: Callable[[], None] | None = None) -> None:
    """Index the 'index' items of the planned chunks in batches and record every item's outcome in ``report``.

    Two batches per slot of the task runner are in flight: one running, one ready (it hides the submission and
    dispatch, ~0.1-0.2 s per task run). Each next batch is sized (``next_batch``) when one finishes, so the
    last, small batches go to whichever worker frees up first. Submitting everything at once would leave that
    to the runner, and Dask assigns the first 2 x threads tasks of a group to workers as soon as they arrive,
    so a late small batch could wait behind a large one while another worker idles. The next chunk is planned
    while batches run, once fewer than a round of full batches is left to submit; at most ``max_in_flight``
    documents are submitted and unfinished. ``pool``: where batches run, anything with ``slots`` (read once there
    is work) and ``submit(*index_batch's arguments)`` returning a future (flows.ingest.TaskPool: Prefect tasks on
    a task runner); by default a ``LocalPool`` of threads. ``on_progress``: called after each batch's outcomes are
    in ``report`` (flows.checkpoint.Checkpoint writes the partial report).
    """
    local = LocalPool(index_batch) if pool is None else None  # batches on plain threads (flows/local.py)

    def arguments(group: list[PlanItem]) -> tuple[Any, ...]:
        return [_job(item, spec) for item in group], store_uri, settings, store_endpoint, retry_base, doc_timeout

    try:
        Schedule(report, items, local or pool, arguments, batch_size, batch_bytes, max_in_flight, on_progress).run()
    finally:
        if local:
            local.shutdown()


class Schedule:
    """One run's batches (``run_documents``): planned documents waiting, batches in flight, outcomes reported.

    ``run`` keeps up to two batches per slot in flight, each taken off ``pending`` by ``next_batch`` when there
    is room, and waits for the next one to finish: its outcomes go into the report (or, for a batch that died
    as a whole, its documents go to ``reruns``, one per task). More chunks are planned whenever fewer than a
    round of full batches is waiting.
    """

    def __init__(self, report: RunReport, chunks: Iterable[list[PlanItem]], pool: Any,
                 arguments: Callable[[list[PlanItem]], tuple[Any, ...]], batch_size: int, batch_bytes: int,
                 max_in_flight: int, on_progress: Callable[[], None] | None):
        self.report, self.chunks, self.pool, self.arguments = report, iter(chunks), pool, arguments
        self.batch_size, self.batch_bytes, self.max_in_flight = batch_size, batch_bytes, max_in_flight
        self.on_progress = on_progress
        self.logger = run_logger()
        self.pending: deque[PlanItem] = deque()  # planned, to submit
        self.reruns: deque[PlanItem] = deque()  # from a batch that died as a whole: one document per task
        # id(future) -> (its documents, a re-run?, the future: held so that its id is not reused while it runs)
        self.running: dict[int, tuple[list[PlanItem], bool, Any]] = {}
        self.finished: queue.SimpleQueue[Any] = queue.SimpleQueue()  # futures, as their task runs end
        self.slots = 0  # asked of the runner only once there is work (a Dask runner starts its cluster then)
        self.planned_all = False
        self.done = 0  # documents with an outcome in the report
        self.indexed, self.indexed_seconds, self.pages = 0, 0.0, 0  # documents through a live batch, and their cost
        self.started = time.perf_counter()

    def run(self) -> None:
        self.plan_more()
        while self.pending or self.reruns or self.running:
            while (self.reruns or self.pending) and self.room():
                if self.reruns:
                    self.submit([self.reruns.popleft()], rerun=True)
                else:
                    least = least_batch(TASK_RUN_SECONDS, self.indexed_seconds / self.indexed,
                                        self.batch_size) if self.indexed else 1
                    self.submit(next_batch(self.pending, self.batch_size, self.batch_bytes, self.slots, least))
                self.plan_more()
            self.collect(self.finished.get())

    def plan_more(self) -> None:
        while not self.planned_all and len(self.pending) < self.batch_size * max(self.slots, 1):
            chunk = next(self.chunks, None)
            if chunk is None:
                self.planned_all = True
                break
            for item in chunk:
                if item.action == "index":
                    self.pending.append(item)
                else:
                    kind = item.kind or {"failed": "invalid_id", "skipped": "too_large"}.get(item.action)
                    self.report.documents.append(DocOutcome(item.doc_id, item.obj.uri, item.status,
                                                            reason=item.reason or None, error_kind=kind,
                                                            error=item.reason if item.action == "failed" else None))
            if self.pending and not self.slots:
                self.slots = self.pool.slots

    def room(self) -> bool:
        outstanding = sum(len(group) for group, _, _ in self.running.values())  # at most 2 x slots batches
        return len(self.running) < 2 * max(self.slots, 1) and (not self.running or outstanding < self.max_in_flight)

    def submit(self, group: list[PlanItem], rerun: bool = False) -> None:
        future = self.pool.submit(*self.arguments(group))
        self.running[id(future)] = (group, rerun, future)
        future.add_done_callback(self.finished.put)

    def collect(self, future: Any) -> None:
        group, rerun, _ = self.running.pop(id(future))
        outcomes, crashed = _collect(group, future)
        if not crashed:
            self.indexed += len(group)
            self.indexed_seconds += sum(o.seconds for o in outcomes)
        if crashed and not rerun:
            # The batch died as a whole (a worker killed by the OS or a crash in native code, which also takes the
            # batch queued behind it): run its documents again one per task, once, so that only the document that
            # kills its worker fails, not its neighbours.
            self.logger.warning("a batch of %d documents failed (%s); re-running them one per task",
                                len(group), outcomes[0].error)
            self.reruns.extend(group)
            return
        if rerun:
            outcomes = [rerun_outcome(item, outcome) for item, outcome in zip(group, outcomes)]
        self.report.documents.extend(outcomes)
        self.done += len(group)
        self.pages += sum(o.pages for o in outcomes if o.status != "unchanged")
        left = len(self.pending) + len(self.reruns) + sum(len(g) for g, _, _ in self.running.values())
        progress(Progress(self.done, left, self.planned_all, self.pages, time.perf_counter() - self.started, outcomes))
        if self.on_progress is not None:
            self.on_progress()
        # One line per batch, one per failure: per-document INFO lines would each be an API call.
        for outcome in outcomes:
            if outcome.status == "failed":
                self.logger.warning("%s: %s: %s", outcome.doc_id, outcome.error_kind, outcome.error)
        self.logger.info("[%d] %d documents: %s; %.2fs", self.done, len(group),
                         ", ".join(f"{o.doc_id} {o.status}" for o in outcomes), sum(o.seconds for o in outcomes))


def run_ingest(
    source: str,
    store: str,
    settings: dict[str, Any] | None,
    *,
    flow_name: str,
    objects: list[SourceObject] | None = None,
    doc_ids: dict[str, str] | None = None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    run_id: str | None = None,
    endpoint_url: str | None = None,
    store_endpoint: str | None = None,
    max_size: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    doc_timeout: float | None = DEFAULT_DOC_TIMEOUT,
    max_in_flight: int | None = None,
    tombstone_removed: bool = False,
    retry_base: float = 2.0,
    source_max_attempts: int = 5,
    batch_size: int = DEFAULT_BATCH,
    replace: bool = False,
    notes: list[str] | None = None,
    plan_step: Callable[..., list[PlanItem]] = plan_objects,
    pool: Any = None,
) -> RunReport:
    """Discover, plan per chunk, index+publish each, report: the body of the CLI's local runs and of the flows
    (flows/ingest.py), which pass ``plan_step`` (the ``plan`` task) and ``pool`` (see ``run_documents``)."""
    logger = run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    report = RunReport(run_id=run_id or new_run_id(), flow=flow_name, source=source, store=store,
                       fingerprint=fingerprint)
    report.notes.extend(notes or [])
    spec = source_spec(source, include, exclude, endpoint_url, source_max_attempts)
    src = None
    if objects is None:
        src = cached_source(spec)
        if hasattr(src, "check"):
            src.check()  # a missing bucket (or folder, above) fails here, before any work
        objects_iter: Iterable[SourceObject] = src.list()
    else:
        objects_iter = objects
    seen: set[str] = set()
    claimed: dict[str, str] = {}  # doc id -> the source object that took it in an earlier chunk of this run
    store_obj = open_store(store, store_endpoint)
    # A partial report from the start, kept up to date: a run killed with its worker still leaves one.
    recovery = Recovery(store_obj, report).scan()
    checkpoint = Checkpoint(report, store_obj)
    checkpoint.write()

    def planned() -> Iterator[list[PlanItem]]:
        for chunk in chunks(objects_iter, chunk_size):
            items = plan_step(store, chunk, fingerprint, doc_ids, max_size, store_endpoint, replace=replace,
                         retry_degraded=model_available(pipeline))
            items = [claim(item, claimed) for item in items]
            seen.update(i.doc_id for i in items)
            logger.info("planned %d objects: %d to index, %d unchanged", len(items),
                        sum(i.action == "index" for i in items), sum(i.action == "unchanged" for i in items))
            yield items

    try:
        run_documents(report, planned(), spec, store, pipeline.to_dict(), store_endpoint=store_endpoint,
                      doc_timeout=doc_timeout, max_in_flight=max_in_flight or max(2 * chunk_size, 8),
                      retry_base=retry_base, batch_size=batch_size, pool=pool, on_progress=checkpoint)
    except BaseException as exc:  # cancelled, SIGTERM (Prefect's TerminationSignal), a bug: record, then re-raise
        checkpoint.close("crashed", f"{type(exc).__name__}: {exc}")
        raise
    checkpoint.close()
    if src is not None:
        for doc_id in removed_documents(store_obj, src.uri, seen):
            report.removed_from_source.append(doc_id)
            if tombstone_removed:
                tombstone(store_obj, doc_id, report.run_id)
    recovery.finish()
    report.finish()
    publish_report(report, store_obj)
    logger.info(report.to_text())
    return report


def ingest_source(source: str, store: str = "./index", settings: dict[str, Any] | None = None, *,
                  include: list[str] | None = None, exclude: list[str] | None = None, endpoint_url: str | None = None,
                  store_endpoint_url: str | None = None, max_size: int | None = None, chunk_size: int = DEFAULT_CHUNK,
                  doc_timeout: float | None = DEFAULT_DOC_TIMEOUT, tombstone_removed: bool = False,
                  retry_base_seconds: float = 2.0, source_max_attempts: int = 5, batch_size: int = DEFAULT_BATCH,
                  replace: bool = False, **options: Any) -> dict[str, Any]:
    """The ``ingest`` flow's run (flows.ingest.ingest documents the parameters); ``options``: more of
    ``run_ingest``'s (``plan_step``, ``pool``, ``notes``)."""
    return run_ingest(source, store, settings, flow_name="ingest", include=include, exclude=exclude,
                      endpoint_url=endpoint_url, store_endpoint=store_endpoint_url, max_size=max_size,
                      chunk_size=chunk_size, doc_timeout=doc_timeout, tombstone_removed=tombstone_removed,
                      retry_base=retry_base_seconds, source_max_attempts=source_max_attempts, batch_size=batch_size,
                      replace=replace, **options).to_dict()


def index_paths(paths: list[str], store: str = "./index", settings: dict[str, Any] | None = None,
                doc_ids: list[str] | None = None, replace: bool = False, **options: Any) -> dict[str, Any]:
    """The ``index-files`` flow's run: explicit files; ``doc_ids`` overrides the id per file; ``replace`` as in
    ``ingest``; ``options``: more of ``run_ingest``'s (``plan_step``, ``pool``)."""
    from pathlib import Path

    objects: list[SourceObject] = []
    mapping: dict[str, str] = {}
    for i, raw in enumerate(paths):
        path = Path(raw).expanduser().resolve()
        obj = LocalSource(path).stat(path.name)
        obj = SourceObject(uri=obj.uri, key=str(path), size=obj.size, etag=obj.etag, last_modified=obj.last_modified)
        objects.append(obj)
        mapping[obj.key] = doc_ids[i] if doc_ids else default_doc_id(SourceObject(obj.uri, path.name, obj.size, obj.etag))
    return run_ingest("file:///", store, settings, flow_name="index-files", objects=objects, doc_ids=mapping,
                      chunk_size=max(DEFAULT_CHUNK, len(objects)), replace=replace, **options).to_dict()
