"""Indexing one document, and the Prefect task that indexes a batch of them on a worker.

One document is fetch -> hash -> parse -> publish. Fetch and publish are I/O and
retry on their own with exponential backoff and jitter (fetch only for transient
errors: throttling, 5xx, truncated bodies); parsing is deterministic and does not
(a bad PDF fails the same way twice). Each document has its own timeout and every
failure becomes a failed ``DocOutcome``, so one document never fails the others.

These steps are plain functions, not Prefect tasks: a Prefect task run costs
~0.2 s of CPU across the flow, the worker and the API server, more than parsing a
small PDF, so the Prefect task is the batch (``index_documents``, defined in
flows/ingest.py around ``index_batch``) and the retry units inside it are the
documents' I/O steps. Only keys and small outcome rows travel between the flow and
the workers. This module does not import Prefect: the CLI's local mode
(flows/local.py) runs ``index_batch`` on its own threads.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any, Callable, TypeVar

from flows.deadline import TimeLimitExceeded, remaining, time_limit
from flows.local import stage_reporter
from flows.models import document_models
from flows.report import DocOutcome
from flows.reuse import Reuse, current_versions, plan_reuse, rebuild_from, work_done
from flows.sources import ObjectError, SourceObject, open_source
from index_store.cache import StoreOcrCache
from index_store.errors import StoreError
from index_store.publish import publish_document
from index_store.retry import RetryPolicy, retry_call
from index_store.store import Store
from parsers.errors import DocumentError
from parsers.pipeline import DocumentIndex, PipelineSettings, file_sha256, index_document
from query.terms import encode_terms

log = logging.getLogger("pagetree.flows")
T = TypeVar("T")

FETCH_RETRIES = 4  # after the S3 client's own attempts (source_max_attempts)
PUBLISH_RETRIES = 3


def settings_from(params: dict[str, Any] | None) -> PipelineSettings:
    return PipelineSettings(**(params or {}))


def open_spec(spec: dict[str, Any], check: bool = False) -> Any:
    """Reopen a source from its plain-data spec (see flows.ingest.source_spec)."""
    options = {k: v for k, v in spec.items() if k != "uri"}
    if spec["uri"].startswith("s3://"):
        options["check"] = check
    return open_source(spec["uri"].removeprefix("file://"), **options)


_CACHE: dict[tuple[Any, ...], Any] = {}
_CACHE_LOCK = threading.Lock()


def _per_process(key: tuple[Any, ...], make: Callable[[], T]) -> T:
    """``make()`` once per process for ``key``: S3 sources and stores hold a boto3 client, which is costly
    to build (index_store.backends.new_s3_client; benchmarks/results/comment-figures.md) and is thread-safe once built. A long-lived worker
    serving many runs keeps at most 32 of them."""
    with _CACHE_LOCK:
        if key not in _CACHE:
            if len(_CACHE) >= 32:
                _CACHE.clear()
            _CACHE[key] = make()
        return _CACHE[key]


def _aws_env() -> tuple[str | None, ...]:
    """What an S3 client read from the environment when it was built: a client cached under another endpoint
    or identity must not be reused."""
    return tuple(os.environ.get(k) for k in ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_PROFILE", "AWS_ACCESS_KEY_ID"))


def cached_source(spec: dict[str, Any]) -> Any:
    """The source for ``spec``, opened once per process when it is in S3 (a folder is cheap, and is checked
    for existence each time)."""
    if not spec["uri"].startswith("s3://"):
        return open_spec(spec)
    key = ("source", _aws_env()) + tuple(sorted((k, tuple(v) if isinstance(v, (list, tuple)) else v) for k, v in spec.items()))
    return _per_process(key, lambda: open_spec(spec))


def open_store(uri: str, endpoint_url: str | None = None) -> Store:
    """The store at ``uri``; an S3 one is opened once per process (see ``_per_process``)."""
    if not uri.startswith("s3://"):
        return Store(uri)
    return _per_process(("store", uri, endpoint_url, _aws_env()),
                        lambda: Store(uri, endpoint_url=endpoint_url) if endpoint_url else Store(uri))


def _transient(exc: BaseException) -> bool:
    return isinstance(exc, ObjectError) and exc.transient


def fetch(spec: dict[str, Any], obj: SourceObject, dest_dir: str, retry_base: float) -> tuple[str, int]:
    """Download one object under ``dest_dir`` (length-checked, ETag-pinned), retrying transient failures."""
    source = cached_source(spec)

    def once() -> tuple[str, int]:
        path, transferred = source.download(obj, dest_dir)
        return str(path), transferred

    return retry_call(once, RetryPolicy(FETCH_RETRIES, retry_base), _transient)


def parse(path: str, doc_id: str, pipeline: PipelineSettings, sha256: str, store: Store | None,
          reuse: Reuse | None = None) -> DocumentIndex:
    """The pure chain (parsers.pipeline.index_document) on a local file; model summaries, OCR readings and vision
    descriptions cached in ``store``. With ``reuse`` (flows/reuse.py) offering every stage before the summaries,
    the previous version's tree, node texts and pages are taken instead: no parse, no OCR."""
    models = document_models(pipeline, store)
    if reuse is not None and reuse.resummarize and store is not None:
        try:
            return rebuild_from(store, doc_id, reuse, pipeline, models)
        except (StoreError, ValueError, KeyError, TypeError) as exc:  # an unreadable old version: build from the PDF
            log.warning("%s: cannot reuse version %s (%s: %s); parsing the PDF", doc_id, reuse.from_version,
                        type(exc).__name__, exc)
    index = index_document(path, doc_id, pipeline, sha256=sha256, ocr_cache=StoreOcrCache(store) if store else None,
                           progress=stage_reporter(doc_id), **models)
    vision_keys = sorted(set(getattr(models.get("vision"), "keys", None) or []))
    if vision_keys:
        index.cache_refs["vision"] = vision_keys
    if reuse is not None:
        hits = int(index.stats.get("ocr_cache_hits") or 0)
        index.reused = {"from_version": reuse.from_version, "why": reuse.why(), "stages": ["ocr"] if hits else [],
                        "ocr_cache_hits": hits}
    return index


def publish(index: DocumentIndex, obj: SourceObject, store: Store, pipeline: PipelineSettings,
            retry_base: float = 1.0) -> bool:
    """Write the version (data, then manifest) and move latest.json (conditional write); retried on any error."""
    source = {"uri": obj.uri, "key": obj.key, "etag": obj.etag, "sha256": index.sha256, "bytes": index.size,
              "last_modified": obj.last_modified}
    record = pipeline.record()
    # Routing reads these instead of tokenising every page of every candidate at question time (query.terms).
    terms = encode_terms([page.text for page in index.pages])

    def once() -> bool:
        return publish_document(store, tree=index.tree, nodes=index.nodes, pages=index.pages, source=source,
                                pipeline=record, stats=index.stats, decisions=index.decisions, facts=index.facts,
                                reused=index.reused, cache_refs=index.cache_refs, terms=terms)

    return retry_call(once, RetryPolicy(PUBLISH_RETRIES, retry_base), lambda exc: not isinstance(exc, DocumentError))


def refresh_latest_source(store: Store, doc_id: str, obj: SourceObject, version: str, sha: str,
                          latest: dict[str, Any]) -> None:
    """Same content under a new etag/key (a touched object): record the new etag in ``latest`` (the document's
    latest.json as just read), publish nothing."""
    src = latest.get("source") or {}
    if (src.get("etag") == obj.etag and src.get("bytes") == obj.size and src.get("uri") == obj.uri
            and not latest.get("removed_from_source")):
        return
    manifest = store.manifest(doc_id, version)
    extra = {k: v for k, v in latest.items() if k not in ("version", "published_at", "removed_from_source")}
    extra["source"] = {"uri": obj.uri, "etag": obj.etag, "bytes": obj.size, "sha256": sha}
    extra["fingerprint"] = manifest.get("pipeline", {}).get("fingerprint", extra.get("fingerprint"))
    if latest.get("removed_from_source"):
        extra["removed_from_source"] = None  # explicit: update_latest skips records that add nothing new
    store.update_latest(doc_id, {"version": version, "published_at": latest.get("published_at"), **extra})


class _Inline:
    """An executor that runs the call at once, in the caller's thread (a download nobody started ahead)."""

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args))
        except BaseException as exc:  # handed to the caller through the future, as a pool would
            future.set_exception(exc)
        return future


_INLINE: Any = _Inline()


class Prefetch:
    """A document's download, started in a background thread while the document before it is parsed.

    Fetching is waiting (S3 answers a GET after tens of milliseconds; a 12-page PDF parses in ~40 ms), so
    a batch overlaps the next document's download with the current document's work. The wait for the
    result ends at the current document's time limit (``flows.deadline.remaining``): a stalled download
    fails its document on time, on a worker thread too, where the limit cannot interrupt a blocked wait.
    """

    def __init__(self, pool: ThreadPoolExecutor, job: dict[str, Any], retry_base: float):
        self.workdir = tempfile.mkdtemp(prefix="pagetree-fetch-")
        self.future: Future[tuple[str, int]] = pool.submit(fetch, job["spec"], job["obj"], self.workdir, retry_base)

    def result(self) -> tuple[str, int]:
        try:
            return self.future.result(timeout=remaining())
        except FutureTimeout:
            if self.future.done():  # the download itself raised a TimeoutError (a read timeout)
                raise
            raise TimeLimitExceeded("the download did not finish within the document's time limit") from None

    def discard(self) -> None:
        """Remove the download's folder now, or when a download still running (a timed-out one) ends."""
        self.future.cancel()
        self.future.add_done_callback(lambda _: shutil.rmtree(self.workdir, ignore_errors=True))


def index_one(job: dict[str, Any], store: Store, pipeline: PipelineSettings, retry_base: float,
              prefetched: Prefetch | None = None) -> DocOutcome:
    """Fetch (or take the ``prefetched`` download), hash, parse and publish one document (``job``: doc_id, obj,
    status, reason, spec)."""
    obj: SourceObject = job["obj"]
    outcome = DocOutcome(doc_id=job["doc_id"], uri=obj.uri, status=job["status"], reason=job.get("reason") or None)
    if prefetched is None:
        prefetched = Prefetch(_INLINE, job, retry_base)  # fetched now, in this document's timeout
    try:
        path, outcome.bytes_downloaded = prefetched.result()
        sha = file_sha256(path)
        latest = store.latest(outcome.doc_id) or {}
        version = str(latest.get("version"))
        if version in current_versions(sha, pipeline) and store.has_version(outcome.doc_id, version):
            # Same bytes (touched object, or the same content under a new etag): nothing to rebuild.
            refresh_latest_source(store, outcome.doc_id, obj, version, sha, latest)
            outcome.version, outcome.status = version, "unchanged"
            outcome.reason = "same content (sha256) as the latest version; source etag refreshed"
            return outcome
        reuse = plan_reuse(store, outcome.doc_id, latest, sha, pipeline) if latest else None
        index = parse(path, outcome.doc_id, pipeline, sha, store, reuse)
        published = publish(index, obj, store, pipeline, retry_base / 2)
        outcome.work = work_done(index)
        outcome.reused = index.reused
        outcome.version = index.tree.version
        outcome.pages = index.stats["pages"]
        outcome.ocr_pages = index.stats.get("ocr_pages", 0)
        outcome.nodes = index.stats["nodes"]
        outcome.structure_source = index.tree.structure_source
        outcome.model = index.stats.get("model", {})
        outcome.warnings = list(index.stats.get("warnings") or [])
        if not published:
            outcome.status = "unchanged"
        return outcome
    finally:
        prefetched.discard()


def _failed(job: dict[str, Any], error: str, kind: str) -> DocOutcome:
    return DocOutcome(job["doc_id"], job["obj"].uri, "failed", error=error, error_kind=kind,
                      reason=job.get("reason") or None)


def index_guarded(job: dict[str, Any], store: Store, pipeline: PipelineSettings, retry_base: float,
                  doc_timeout: float | None, prefetched: Prefetch | None = None) -> DocOutcome:
    """``index_one`` under the per-document timeout, which starts when the document's turn comes (its download
    may have begun earlier); any failure becomes a failed outcome (never raised)."""
    t0 = time.perf_counter()
    try:
        # SIGALRM in a main thread, an injected exception in a worker thread (flows/deadline.py): a long C call
        # inside PyMuPDF finishes before it fires, as with a Prefect task timeout.
        with time_limit(doc_timeout):
            outcome = index_one(job, store, pipeline, retry_base, prefetched)
    except (DocumentError, ObjectError) as exc:
        outcome = _failed(job, str(exc), exc.kind)
    except TimeoutError as exc:
        outcome = _failed(job, f"timed out after {doc_timeout}s: {exc}", "timeout")
    except Exception as exc:  # never let one document crash the batch
        outcome = _failed(job, f"{type(exc).__name__}: {exc}", "internal")
    if outcome.status == "failed":
        log.warning("%s: %s", outcome.doc_id, outcome.error)
    outcome.seconds = round(time.perf_counter() - t0, 3)
    return outcome


def index_batch(jobs: list[dict[str, Any]], store_uri: str, settings: dict[str, Any],
                    store_endpoint: str | None = None, retry_base: float = 2.0,
                    doc_timeout: float | None = None) -> list[DocOutcome]:
    """Index a batch of documents one after another on this worker; one outcome per job, in order. From S3, each
    document's download starts while the one before it is parsed (``Prefetch``): one batch of 60 small PDFs
    (``benchmarks/ingest.py --only prefetch``) takes 0.75x the time at 40 ms per GET, 0.83x at 20 ms, 0.94x at
    10 ms, but 1.05x with no latency at all (the download's Python work then only competes with parsing for
    the GIL), so a folder is copied in its document's turn."""
    pipeline = settings_from(settings)
    store = open_store(store_uri, store_endpoint)
    outcomes: list[DocOutcome] = []
    ahead: Prefetch | None = None
    # Two threads: a download stalled past its document's timeout must not hold up the next one's.
    pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="pagetree-prefetch")
    try:
        def start(job: dict[str, Any]) -> Prefetch | None:
            # A folder is copied when the document's turn comes, inside its timeout (index_one).
            return Prefetch(pool, job, retry_base) if job["spec"]["uri"].startswith("s3://") else None

        ahead = start(jobs[0]) if jobs else None
        for i, job in enumerate(jobs):
            current, ahead = ahead, start(jobs[i + 1]) if i + 1 < len(jobs) else None
            outcomes.append(index_guarded(job, store, pipeline, retry_base, doc_timeout, current))
    finally:
        if ahead is not None and len(outcomes) < len(jobs):
            ahead.discard()
        pool.shutdown(wait=False, cancel_futures=True)  # a stalled download ends on its own read timeout
    return outcomes

