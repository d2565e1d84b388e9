"""Prefect flows: ingest a source into a store (discover -> plan -> index -> publish -> report).

The listing is a generator consumed in chunks: each chunk is planned against
the store's catalog (latest.json per document) and only new or changed
documents are submitted, so an unchanged collection costs one small GET per
document and no downloads, and memory is bounded by the chunk size and the
number of documents in flight, not by the size of the listing.

Tasks are the retry units: the download and the publication are I/O and carry
retries with exponential backoff (downloads only for transient errors: throttling,
5xx, truncated bodies); parsing is deterministic and does not (a bad PDF fails
the same way twice). ``process_document`` wraps the three for one document with
a timeout and runs on whatever task runner the flow was given (threads,
processes, Dask), so nothing large travels back to the flow. A failing document
never fails the run: its error is recorded in the report and, since nothing was
published for it, it is tried again on the next run.
"""

from __future__ import annotations

import itertools
import logging
import shutil
import tempfile
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.tasks import exponential_backoff

from flows.models import document_models
from flows.report import DocOutcome, RunReport, new_run_id
from flows.sources import LocalSource, ObjectError, SourceObject, default_doc_id, open_source
from index_store.errors import StoreError
from index_store.layout import check_doc_id
from index_store.publish import publish_document
from index_store.store import Store
from parsers.errors import DocumentError
from parsers.pipeline import DocumentIndex, PipelineSettings, file_sha256, index_document, package_version, version_id

DEFAULT_CHUNK = 500
DEFAULT_DOC_TIMEOUT = 1800.0


class _WarnOnce(logging.Filter):
    """Prefect warns on every task run that a timeout in a worker thread cannot interrupt blocking calls.

    True, and documented in docs/operations.md (the timeout is enforced when the document's Python
    code next runs; the processes runner enforces it in the worker's main thread). Once per process is enough.
    """

    seen = False

    def filter(self, record: logging.LogRecord) -> bool:
        if str(record.msg).startswith("Timeout of") and "worker thread" in str(record.msg):
            if _WarnOnce.seen:
                return False
            _WarnOnce.seen = True
        return True


logging.getLogger("prefect.task_runs").addFilter(_WarnOnce())


@dataclass
class PlanItem:
    obj: SourceObject
    doc_id: str
    action: str  # index | unchanged | failed | skipped
    status: str  # new | changed | unchanged | rebuilt | failed | skipped
    reason: str = ""
    spec: dict[str, Any] | None = None  # the source to fetch from, when not the run's own (rebuilds)


def settings_from(params: dict[str, Any] | None) -> PipelineSettings:
    return PipelineSettings(**(params or {}))


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


def open_spec(spec: dict[str, Any], check: bool = False) -> Any:
    options = {k: v for k, v in spec.items() if k != "uri"}
    if spec["uri"].startswith("s3://"):
        options["check"] = check
    return open_source(spec["uri"].removeprefix("file://"), **options)


def open_store(uri: str, endpoint_url: str | None = None) -> Store:
    return Store(uri, endpoint_url=endpoint_url) if uri.startswith("s3://") and endpoint_url else Store(uri)


def chunks(objects: Iterable[SourceObject], size: int) -> Iterator[list[SourceObject]]:
    it = iter(objects)
    while chunk := list(itertools.islice(it, size)):
        yield chunk


# -- planning ----------------------------------------------------------------
def _decide(obj: SourceObject, doc_id: str, latest: dict[str, Any] | None, fingerprint: str, max_size: int | None) -> PlanItem:
    if max_size and obj.size > max_size:
        return PlanItem(obj, doc_id, "skipped", "skipped", f"size {obj.size} bytes exceeds the cap of {max_size}")
    if latest is None:
        return PlanItem(obj, doc_id, "index", "new")
    src = latest.get("source") or {}
    same_source = src.get("etag") == obj.etag and src.get("bytes") == obj.size
    if latest.get("fingerprint") == fingerprint and same_source and not latest.get("removed_from_source"):
        return PlanItem(obj, doc_id, "unchanged", "unchanged", "source etag, size and fingerprint match latest")
    if latest.get("removed_from_source"):
        why = "reappeared in the source"
    elif latest.get("fingerprint") != fingerprint:
        why = "pipeline fingerprint changed"
    else:
        why = "source changed"
    return PlanItem(obj, doc_id, "index", "changed", why)


@task(name="plan", retries=2, retry_delay_seconds=[1, 5], cache_policy=NO_CACHE)
def plan(store_uri: str, objects: list[SourceObject], fingerprint: str, doc_ids: dict[str, str] | None = None,
         max_size: int | None = None, store_endpoint: str | None = None) -> list[PlanItem]:
    """Decide per object: skip (etag+size+fingerprint match latest), index, or reject (bad id, too large)."""
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
    items = []
    for obj, doc_id, error in resolved:
        if doc_id is None:
            items.append(PlanItem(obj, obj.key, "failed", "failed", error))
        else:
            items.append(_decide(obj, doc_id, latest[doc_id], fingerprint, max_size))
    return items


# -- one document ------------------------------------------------------------
def _transient_only(task: Any, task_run: Any, state: Any) -> bool:
    """Retry a download only when the failure was transient (throttling, 5xx, truncated body)."""
    try:
        state.result()
    except ObjectError as exc:
        return exc.transient
    except Exception:
        return False
    return False


@task(name="fetch", retries=4, retry_delay_seconds=exponential_backoff(2), retry_jitter_factor=0.5,
      retry_condition_fn=_transient_only, cache_policy=NO_CACHE)
def fetch_object(spec: dict[str, Any], obj: SourceObject, dest_dir: str) -> tuple[str, int]:
    """Download one object to a temp file under ``dest_dir`` (length-checked, ETag-pinned)."""
    path, transferred = open_spec(spec).download(obj, dest_dir)
    return str(path), transferred


@task(name="parse", cache_policy=NO_CACHE)
def parse_document(path: str, doc_id: str, settings: dict[str, Any], sha256: str,
                   store_uri: str | None = None, store_endpoint: str | None = None) -> DocumentIndex:
    """The pure chain (parsers.pipeline.index_document) on a local file."""
    pipeline = settings_from(settings)
    # Model summaries/vision/structure when the settings name a model; summaries cached in the store.
    models = document_models(pipeline, open_store(store_uri, store_endpoint) if store_uri else None)
    return index_document(path, doc_id, pipeline, sha256=sha256, **models)


@task(name="publish", retries=3, retry_delay_seconds=exponential_backoff(1), retry_jitter_factor=0.5, cache_policy=NO_CACHE)
def publish(index: DocumentIndex, obj: SourceObject, store_uri: str, settings: dict[str, Any],
            store_endpoint: str | None = None) -> bool:
    """Write the version (data, then manifest) and move latest.json (conditional write)."""
    pipeline = settings_from(settings)
    source = {"uri": obj.uri, "key": obj.key, "etag": obj.etag, "sha256": index.sha256, "bytes": index.size,
              "last_modified": obj.last_modified}
    return publish_document(
        open_store(store_uri, store_endpoint),
        tree=index.tree,
        nodes=index.nodes,
        pages=index.pages,
        source=source,
        pipeline={"fingerprint": pipeline.fingerprint(), "package_version": package_version(), "settings": pipeline.to_dict()},
        stats=index.stats,
        decisions=index.decisions,
    )


def refresh_latest_source(store: Store, item: PlanItem, version: str, sha: str) -> None:
    """Same content under a new etag/key (a touched object): record the new etag, publish nothing."""
    latest = store.latest(item.doc_id) or {}
    src = latest.get("source") or {}
    if src.get("etag") == item.obj.etag and src.get("bytes") == item.obj.size and not latest.get("removed_from_source"):
        return
    manifest = store.manifest(item.doc_id, version)
    extra = {k: v for k, v in latest.items() if k not in ("version", "published_at", "removed_from_source")}
    extra["source"] = {"uri": item.obj.uri, "etag": item.obj.etag, "bytes": item.obj.size, "sha256": sha}
    extra["fingerprint"] = manifest.get("pipeline", {}).get("fingerprint", extra.get("fingerprint"))
    if latest.get("removed_from_source"):
        extra["removed_from_source"] = None  # explicit: update_latest skips records that add nothing new
    store.update_latest(item.doc_id, {"version": version, "published_at": latest.get("published_at"), **extra})


@task(name="process-document", cache_policy=NO_CACHE)
def process_document(item: PlanItem, spec: dict[str, Any], store_uri: str, settings: dict[str, Any],
                     store_endpoint: str | None = None, retry_base: float = 2.0) -> DocOutcome:
    """Fetch, hash, parse and publish one document; every failure becomes a failed DocOutcome."""
    logger = get_run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    outcome = DocOutcome(doc_id=item.doc_id, uri=item.obj.uri, status=item.status, reason=item.reason or None)
    t0 = time.perf_counter()
    workdir = tempfile.mkdtemp(prefix="pagetree-fetch-")
    try:
        fetch = fetch_object.with_options(retry_delay_seconds=exponential_backoff(retry_base))
        path, outcome.bytes_downloaded = fetch(spec, item.obj, workdir)
        sha = file_sha256(path)
        version = version_id(sha, fingerprint)
        store = open_store(store_uri, store_endpoint)
        latest = store.latest(item.doc_id) or {}
        if store.has_version(item.doc_id, version) and latest.get("version") == version:
            # Same bytes (touched object, or the same content under a new etag): nothing to rebuild.
            refresh_latest_source(store, item, version, sha)
            outcome.version, outcome.status = version, "unchanged"
            outcome.reason = "same content (sha256) as the latest version; source etag refreshed"
        else:
            index = parse_document(path, item.doc_id, pipeline.to_dict(), sha, store_uri, store_endpoint)
            published = publish.with_options(retry_delay_seconds=exponential_backoff(retry_base / 2))(
                index, item.obj, store_uri, pipeline.to_dict(), store_endpoint)
            outcome.version = index.tree.version
            outcome.pages = index.stats["pages"]
            outcome.ocr_pages = index.stats.get("ocr_pages", 0)
            outcome.nodes = index.stats["nodes"]
            outcome.structure_source = index.tree.structure_source
            outcome.model = index.stats.get("model", {})
            if not published:
                outcome.status = "unchanged"
    except (DocumentError, ObjectError) as exc:
        outcome.status, outcome.error, outcome.error_kind = "failed", str(exc), exc.kind
        logger.warning("%s: %s", item.doc_id, exc)
    except TimeoutError as exc:  # the task's timeout_seconds fired inside this document
        outcome.status, outcome.error, outcome.error_kind = "failed", f"timed out: {exc}", "timeout"
        logger.warning("%s: timed out", item.doc_id)
    except Exception as exc:  # never let one document crash the batch
        outcome.status, outcome.error, outcome.error_kind = "failed", f"{type(exc).__name__}: {exc}", "internal"
        logger.error("%s: internal error: %s: %s", item.doc_id, type(exc).__name__, exc)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    outcome.seconds = round(time.perf_counter() - t0, 3)
    return outcome


def _collect(item: PlanItem, future: Any) -> DocOutcome:
    """The outcome of a submitted document; a timeout or a crashed worker becomes a failure, not a crash."""
    try:
        return future.result()
    except TimeoutError as exc:
        return DocOutcome(item.doc_id, item.obj.uri, "failed", error=f"timed out: {exc}", error_kind="timeout")
    except Exception as exc:
        return DocOutcome(item.doc_id, item.obj.uri, "failed", error=f"{type(exc).__name__}: {exc}", error_kind="internal")


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
    logger = get_run_logger()
    store.put_run(report.run_id, report.to_dict())
    try:
        create_markdown_artifact(key=f"{report.flow}-report", markdown=report.to_markdown(),
                                 description=f"pagetree run {report.run_id}")
    except Exception as exc:
        logger.warning("could not create the Prefect artifact: %s", exc)


def run_documents(report: RunReport, items: Iterable[list[PlanItem]], spec: dict[str, Any], store_uri: str,
                  settings: dict[str, Any], *, store_endpoint: str | None, doc_timeout: float | None,
                  max_in_flight: int, retry_base: float) -> None:
    """Submit the 'index' items of each planned chunk, keeping at most ``max_in_flight`` documents outstanding."""
    logger = get_run_logger()
    in_flight: deque[tuple[PlanItem, Any]] = deque()
    done = 0

    def drain(limit: int) -> None:
        nonlocal done
        while len(in_flight) > limit:
            item, future = in_flight.popleft()
            outcome = _collect(item, future)
            report.documents.append(outcome)
            done += 1
            logger.info("[%d] %s: %s%s", done, item.doc_id, outcome.status,
                        f" — {outcome.error}" if outcome.status == "failed" else
                        f" v{outcome.version} {outcome.pages}p ({outcome.structure_source}) {outcome.seconds:.2f}s")

    for chunk in items:
        for item in chunk:
            if item.action == "index":
                in_flight.append((item, process_document.with_options(timeout_seconds=doc_timeout).submit(
                    item, item.spec or spec, store_uri, settings, store_endpoint, retry_base)))
            else:
                kind = {"failed": "invalid_id", "skipped": "too_large"}.get(item.action)
                report.documents.append(DocOutcome(item.doc_id, item.obj.uri, item.status, reason=item.reason or None,
                                                   error=item.reason if item.action == "failed" else None, error_kind=kind))
        drain(max_in_flight)
    drain(0)


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
) -> RunReport:
    """The body shared by the flows below: discover, plan per chunk, index+publish each, report."""
    logger = get_run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    report = RunReport(run_id=run_id or new_run_id(), flow=flow_name, source=source, store=store,
                       fingerprint=fingerprint, started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    spec = source_spec(source, include, exclude, endpoint_url, source_max_attempts)
    src = None
    if objects is None:
        src = open_spec(spec, check=True)  # a missing bucket or folder fails here, before any work
        objects_iter: Iterable[SourceObject] = src.list()
    else:
        objects_iter = objects
    seen: set[str] = set()
    store_obj = open_store(store, store_endpoint)

    def planned() -> Iterator[list[PlanItem]]:
        for chunk in chunks(objects_iter, chunk_size):
            items = plan(store, chunk, fingerprint, doc_ids, max_size, store_endpoint)
            seen.update(i.doc_id for i in items)
            logger.info("planned %d objects: %d to index, %d unchanged", len(items),
                        sum(i.action == "index" for i in items), sum(i.action == "unchanged" for i in items))
            yield items

    run_documents(report, planned(), spec, store, pipeline.to_dict(), store_endpoint=store_endpoint,
                  doc_timeout=doc_timeout, max_in_flight=max_in_flight or max(2 * chunk_size, 8), retry_base=retry_base)
    if src is not None:
        for doc_id in removed_documents(store_obj, src.uri, seen):
            report.removed_from_source.append(doc_id)
            if tombstone_removed:
                tombstone(store_obj, doc_id, report.run_id)
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
) -> dict[str, Any]:
    """Index every new or changed PDF under ``source`` (folder or s3://bucket/prefix) into ``store``.

    ``endpoint_url``/``store_endpoint_url``: S3-compatible servers (default: the AWS chain, AWS_ENDPOINT_URL);
    ``max_size``: objects larger than this many bytes are skipped and reported; ``chunk_size``: objects
    planned per step (bounds memory); ``doc_timeout``: seconds per document; ``tombstone_removed``: mark
    documents that disappeared from the source in their latest.json (never deleted);
    ``retry_base_seconds``: first backoff of task retries; ``source_max_attempts``: the S3 client's own attempts.
    """
    return run_ingest(source, store, settings, flow_name="ingest", include=include, exclude=exclude,
                      endpoint_url=endpoint_url, store_endpoint=store_endpoint_url, max_size=max_size,
                      chunk_size=chunk_size, doc_timeout=doc_timeout, tombstone_removed=tombstone_removed,
                      retry_base=retry_base_seconds, source_max_attempts=source_max_attempts).to_dict()


@flow(name="index-files")
def index_files(paths: list[str], store: str = "./index", settings: dict[str, Any] | None = None,
                doc_ids: list[str] | None = None) -> dict[str, Any]:
    """Index explicit files (``pagetree index``); ``doc_ids`` overrides the id per file."""
    from pathlib import Path

    objects: list[SourceObject] = []
    mapping: dict[str, str] = {}
    for i, raw in enumerate(paths):
        path = Path(raw).expanduser().resolve()
        obj = LocalSource(path)._object(path, path.name)
        obj = SourceObject(uri=obj.uri, key=str(path), size=obj.size, etag=obj.etag, last_modified=obj.last_modified)
        objects.append(obj)
        mapping[obj.key] = doc_ids[i] if doc_ids else default_doc_id(SourceObject(obj.uri, path.name, obj.size, obj.etag))
    return run_ingest("file:///", store, settings, flow_name="index-files", objects=objects, doc_ids=mapping).to_dict()
