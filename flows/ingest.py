"""Prefect flows: ingest a source into a store (discover -> plan -> index -> publish -> report).

The listing is a generator consumed in chunks: each chunk is planned against
the store's catalog (latest.json per document) and only new or changed
documents are submitted, so an unchanged collection costs one small GET per
document and no downloads, and memory is bounded by the chunk size and the
number of documents in flight, not by the size of the listing.

Documents to index are submitted in small batches (``index_documents`` in
flows/document.py) on whatever task runner the flow was given (threads,
processes, Dask). Inside a batch each document is its own retry unit: its
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

from prefect import flow, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.checkpoint import Checkpoint, Recovery
from flows.claims import claim_problem, collision_message, collisions, owner
from flows.document import cached_source, index_documents, open_spec, open_store, settings_from
from flows.local import LocalPool, Progress, call, in_flow_run, progress, run_logger
from flows.report import DocOutcome, RunReport, new_run_id
from flows.runners import chosen_runner, describe
from flows.reuse import model_available
from flows.sources import LocalSource, SourceObject, default_doc_id
from index_store.errors import StoreError
from index_store.layout import check_doc_id
from index_store.store import Store

__all__ = ["DEFAULT_CHUNK", "DEFAULT_DOC_TIMEOUT", "PlanItem", "chunks", "ingest", "index_files", "open_spec",
           "open_store", "publish_report", "run_documents", "settings_from", "source_spec"]

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


@task(name="plan", retries=2, retry_delay_seconds=[1, 5], cache_policy=NO_CACHE)
def plan(store_uri: str, objects: list[SourceObject], fingerprint: str, doc_ids: dict[str, str] | None = None,
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


def runner_slots(task_runner: Any = None) -> int:
    """How many tasks the flow's task runner runs at once (Dask: the cluster's threads now; a pool: its
    size); 4 when it cannot tell, e.g. an unbounded thread pool."""
    if task_runner is None:
        from prefect.context import FlowRunContext

        ctx = FlowRunContext.get()
        task_runner = ctx.task_runner if ctx else None
    try:
        client = getattr(task_runner, "client", None)  # prefect-dask's DaskTaskRunner: a distributed Client
        if client is not None and hasattr(client, "nthreads"):
            return max(1, sum(client.nthreads().values()))
        workers = int(getattr(task_runner, "_max_workers", 0) or 0)  # Prefect's process and thread pools
    except Exception:  # a cluster that cannot answer: the default below is safe, only less balanced
        return 4
    return workers if 0 < workers <= 256 else 4


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


def _rerun(item: PlanItem, outcome: DocOutcome) -> DocOutcome:
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
    try:
        create_markdown_artifact(key=f"{report.flow}-report", markdown=report.to_markdown(),
                                 description=f"pagetree run {report.run_id}")
    except Exception as exc:
        logger.warning("could not create the Prefect artifact: %s", exc)


def run_documents(report: RunReport, items: Iterable[list[PlanItem]], spec: dict[str, Any], store_uri: str,
                  settings: dict[str, Any], *, store_endpoint: str | None, doc_timeout: float | None,
                  max_in_flight: int, retry_base: float, batch_size: int = DEFAULT_BATCH,
                  batch_bytes: int = DEFAULT_BATCH_BYTES, task_runner: Any = None,
                  on_progress: Callable[[], None] | None = None) -> None:
    """Index the 'index' items of the planned chunks in batches and record every item's outcome in ``report``.

    Two batches per slot of the task runner are in flight: one running, one ready (it hides the submission and
    dispatch, ~0.1-0.2 s per task run). Each next batch is sized (``next_batch``) when one finishes, so the
    last, small batches go to whichever worker frees up first. Submitting everything at once would leave that
    to the runner, and Dask assigns the first 2 x threads tasks of a group to workers as soon as they arrive,
    so a late small batch could wait behind a large one while another worker idles. The next chunk is planned
    while batches run, once fewer than a round of full batches is left to submit; at most ``max_in_flight``
    documents are submitted and unfinished. ``task_runner``: a started runner to submit to instead of the
    flow's own (flows.runners.chosen_runner: the runner a deployment's parameters chose); ``on_progress``: called
    after each batch's outcomes are in ``report`` (flows.checkpoint.Checkpoint writes the partial report).
    """
    logger = run_logger()
    local = None if in_flow_run() else LocalPool()  # no flow run: batches on plain threads (flows/local.py)
    chunks_left = iter(items)
    pending: deque[PlanItem] = deque()  # planned, to submit
    reruns: deque[PlanItem] = deque()  # from a batch that died as a whole: one document per task
    # id(future) -> (its documents, a re-run?, the future: held so that its id is not reused while it runs)
    running: dict[int, tuple[list[PlanItem], bool, Any]] = {}
    finished: queue.SimpleQueue[Any] = queue.SimpleQueue()  # futures, as their task runs end
    slots = 0  # asked of the runner only once there is work (a Dask runner starts its cluster then)
    planned_all = False
    done = 0
    work = [0.0, 0, 0]  # seconds and number of the documents indexed so far, and their pages

    def plan_more() -> None:
        nonlocal planned_all, slots
        while not planned_all and len(pending) < batch_size * max(slots, 1):
            chunk = next(chunks_left, None)
            if chunk is None:
                planned_all = True
                break
            for item in chunk:
                if item.action == "index":
                    pending.append(item)
                else:
                    kind = item.kind or {"failed": "invalid_id", "skipped": "too_large"}.get(item.action)
                    report.documents.append(DocOutcome(item.doc_id, item.obj.uri, item.status, reason=item.reason or None,
                                                       error=item.reason if item.action == "failed" else None,
                                                       error_kind=kind))
            if pending and not slots:
                slots = local.slots if local else runner_slots(task_runner)

    def submit(group: list[PlanItem], rerun: bool) -> None:
        args = ([_job(item, spec) for item in group], store_uri, settings, store_endpoint, retry_base, doc_timeout)
        if local:
            future = local.submit(index_documents, *args)
        elif task_runner is None:
            future = index_documents.submit(*args)
        else:
            future = task_runner.submit(index_documents, dict(zip(("jobs", "store_uri", "settings", "store_endpoint",
                                                                   "retry_base", "doc_timeout"), args)))
        running[id(future)] = (group, rerun, future)
        future.add_done_callback(finished.put)

    def collect(future: Any) -> None:
        nonlocal done
        group, rerun, _ = running.pop(id(future))
        outcomes, crashed = _collect(group, future)
        if not crashed:
            work[0] += sum(o.seconds for o in outcomes)
            work[1] += len(group)
        if crashed and not rerun:
            # The batch died as a whole (a worker killed by the OS or a crash in native code, which also takes the
            # batch queued behind it): run its documents again one per task, once, so that only the document that
            # kills its worker fails, not its neighbours.
            logger.warning("a batch of %d documents failed (%s); re-running them one per task",
                           len(group), outcomes[0].error)
            reruns.extend(group)
            return
        if rerun:
            outcomes = [_rerun(item, outcome) for item, outcome in zip(group, outcomes)]
        report.documents.extend(outcomes)
        done += len(group)
        work[2] += sum(o.pages for o in outcomes if o.status != "unchanged")
        progress(Progress(done, len(pending) + len(reruns) + sum(len(g) for g, _, _ in running.values()), planned_all,
                          int(work[2]), time.perf_counter() - started, outcomes))
        if on_progress is not None:
            on_progress()
        # One line per batch, one per failure: per-document INFO lines would each be an API call.
        for outcome in outcomes:
            if outcome.status == "failed":
                logger.warning("%s: %s: %s", outcome.doc_id, outcome.error_kind, outcome.error)
        logger.info("[%d] %d documents: %s; %.2fs", done, len(group),
                    ", ".join(f"{o.doc_id} {o.status}" for o in outcomes), sum(o.seconds for o in outcomes))

    def room() -> bool:
        outstanding = sum(len(group) for group, _, _ in running.values())  # at most 2 x slots batches
        return len(running) < 2 * max(slots, 1) and (not running or outstanding < max_in_flight)

    started = time.perf_counter()
    plan_more()
    while pending or reruns or running:
        while (reruns or pending) and room():
            if reruns:
                submit([reruns.popleft()], True)
            else:
                least = least_batch(TASK_RUN_SECONDS, work[0] / work[1], batch_size) if work[1] else 1
                submit(next_batch(pending, batch_size, batch_bytes, slots, least), False)
            plan_more()
        collect(finished.get())
    if local:
        local.shutdown()


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
    task_runner: Any = None,
    notes: list[str] | None = None,
) -> RunReport:
    """The body shared by the flows below: discover, plan per chunk, index+publish each, report."""
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
            items = call(plan, store, chunk, fingerprint, doc_ids, max_size, store_endpoint, replace=replace,
                         retry_degraded=model_available(pipeline))
            items = [claim(item, claimed) for item in items]
            seen.update(i.doc_id for i in items)
            logger.info("planned %d objects: %d to index, %d unchanged", len(items),
                        sum(i.action == "index" for i in items), sum(i.action == "unchanged" for i in items))
            yield items

    try:
        run_documents(report, planned(), spec, store, pipeline.to_dict(), store_endpoint=store_endpoint,
                      doc_timeout=doc_timeout, max_in_flight=max_in_flight or max(2 * chunk_size, 8),
                      retry_base=retry_base, batch_size=batch_size, task_runner=task_runner, on_progress=checkpoint)
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


@flow(name="ingest")
def ingest(
    source: str,
    store: str = "./index",
    settings: dict[str, Any] | None = None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
    endpoint_url: str | None = None,
    store_endpoint_url: str | None = None,
    max_size: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    doc_timeout: float | None = DEFAULT_DOC_TIMEOUT,
    tombstone_removed: bool = False,
    retry_base_seconds: float = 2.0,
    source_max_attempts: int = 5,
    batch_size: int = DEFAULT_BATCH,
    replace: bool = False,
    task_runner: str | None = None,
    workers: int | None = None,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """Index every new or changed PDF under ``source`` (folder or s3://bucket/prefix) into ``store``.

    ``endpoint_url``/``store_endpoint_url``: S3-compatible servers (default: the AWS chain, AWS_ENDPOINT_URL);
    ``max_size``: objects larger than this many bytes are skipped and reported; ``chunk_size``: objects
    planned per step (bounds memory); ``doc_timeout``: seconds per document; ``tombstone_removed``: mark
    documents that disappeared from the source in their latest.json (never deleted);
    ``retry_base_seconds``: first backoff of download/publish retries; ``source_max_attempts``: the S3 client's
    own attempts; ``batch_size``: documents per Prefect task at most (1: a task run per document);
    ``replace``: index an object under an id whose latest.json names another source (refused otherwise);
    ``task_runner`` (threads|processes|dask), ``workers``, ``dask_address``: the runner for the documents, as
    the CLI's --task-runner/--workers/--dask-address (default: the flow's own runner, threads).
    """
    with chosen_runner(task_runner, workers, dask_address) as runner:
        return run_ingest(source, store, settings, flow_name="ingest", include=include, exclude=exclude,
                          endpoint_url=endpoint_url, store_endpoint=store_endpoint_url, max_size=max_size,
                          chunk_size=chunk_size, doc_timeout=doc_timeout, tombstone_removed=tombstone_removed,
                          retry_base=retry_base_seconds, source_max_attempts=source_max_attempts,
                          batch_size=batch_size, replace=replace, task_runner=runner,
                          notes=[describe(task_runner, workers, dask_address)] if runner else None).to_dict()


@flow(name="index-files")
def index_files(paths: list[str], store: str = "./index", settings: dict[str, Any] | None = None,
                doc_ids: list[str] | None = None, replace: bool = False) -> dict[str, Any]:
    """Index explicit files (``pagetree index``); ``doc_ids`` overrides the id per file; ``replace`` as in ``ingest``."""
    from pathlib import Path

    objects: list[SourceObject] = []
    mapping: dict[str, str] = {}
    for i, raw in enumerate(paths):
        path = Path(raw).expanduser().resolve()
        obj = LocalSource(path)._object(path, path.name)
        obj = SourceObject(uri=obj.uri, key=str(path), size=obj.size, etag=obj.etag, last_modified=obj.last_modified)
        objects.append(obj)
        mapping[obj.key] = doc_ids[i] if doc_ids else default_doc_id(SourceObject(obj.uri, path.name, obj.size, obj.etag))
    return run_ingest("file:///", store, settings, flow_name="index-files", objects=objects, doc_ids=mapping,
                      chunk_size=max(DEFAULT_CHUNK, len(objects)), replace=replace).to_dict()
