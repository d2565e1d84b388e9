"""The rebuild_stale flow: re-index documents whose latest version was built by another pipeline.

"Stale" means the fingerprint in latest.json differs from the fingerprint of the
settings given now (a stage version, prompt version or setting: parsers/stages.py),
or the version was published with extractive fallbacks and a model is reachable now.
Each stale document is explained stage by stage from its manifest, with the work a
rebuild will cost (flows/reuse.py); a dry run stops there. Filters
narrow the stale set — a doc-id prefix, a source-URI prefix, published before a
date — so a large collection can be upgraded in slices. Each document is read
again from the source URI recorded in its latest.json; a source object that is
gone is reported and its index kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlparse

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE

from flows.checkpoint import Checkpoint, Recovery
from flows.document import cached_source
from flows.ingest import (DEFAULT_BATCH, DEFAULT_CHUNK, DEFAULT_DOC_TIMEOUT, PlanItem, chunks, open_spec, open_store,
                          publish_report, run_documents, settings_from, source_spec)
from flows.report import DocOutcome, RunReport, new_run_id
from flows.runners import chosen_runner, describe
from flows.reuse import estimate, explain, model_available
from flows.sources import ObjectError, ObjectGone, SourceError, SourceObject
from index_store.errors import StoreError
from parsers.pipeline import PipelineSettings


def is_stale(latest: dict[str, Any], fingerprint: str, doc_prefix: str | None = None, source_prefix: str | None = None,
             published_before: str | None = None, retry_degraded: bool = False) -> bool:
    """True when ``latest`` was built with another fingerprint (or degraded, with ``retry_degraded``: a model is
    reachable now) and passes every filter given."""
    if latest.get("fingerprint") == fingerprint and not (retry_degraded and latest.get("degraded")):
        return False
    if doc_prefix and not str(latest.get("doc_id", "")).startswith(doc_prefix):
        return False
    if source_prefix and not str((latest.get("source") or {}).get("uri") or "").startswith(source_prefix):
        return False
    if published_before and not str(latest.get("published_at") or "") < published_before:
        return False
    return True


def locate(uri: str, endpoint_url: str | None, max_attempts: int = 5) -> tuple[dict[str, Any], SourceObject]:
    """The source spec and the current state (etag, size) of the object a document was built from."""
    parsed = urlparse(uri)
    if parsed.scheme == "s3":
        spec = source_spec(f"s3://{parsed.netloc}", endpoint_url=endpoint_url, max_attempts=max_attempts)
        # one S3 client per bucket, not per document
        return spec, cached_source(spec).stat(parsed.path.lstrip("/"))
    if parsed.scheme == "file":
        path = Path(unquote(parsed.path))
        if not path.is_file():
            raise ObjectGone(f"{path} no longer exists")
        spec = source_spec(str(path.parent))
        return spec, open_spec(spec).stat(path.name)
    raise SourceError(f"cannot rebuild from source URI {uri!r}")


def explain_stale(store: Any, rec: dict[str, Any], obj: SourceObject | None, pipeline: PipelineSettings,
                  retry_degraded: bool) -> tuple[str, list[dict[str, str]], dict[str, int]]:
    """(why, stale stages, estimated work) for one stale document, from its latest manifest and its source object."""
    try:
        manifest = store.manifest(rec["doc_id"], str(rec.get("version")))
    except StoreError as exc:
        return f"built by fingerprint {str(rec.get('fingerprint'))[:12]} (manifest unreadable: {exc})", [], {}
    reuse = explain(manifest, pipeline, None, retry_degraded=retry_degraded)
    src = rec.get("source") or {}
    if obj is not None and (src.get("etag") != obj.etag or src.get("bytes") != obj.size):
        reuse.content_changed = True  # the source object changed since: a full build (its sha256 is known once fetched)
    return reuse.why(), [s.to_dict() for s in reuse.stale], estimate(manifest, reuse, pipeline)


@task(name="select-stale", retries=2, retry_delay_seconds=[1, 5], cache_policy=NO_CACHE)
def locate_sources(records: list[dict[str, Any]], endpoint_url: str | None, max_attempts: int, store_uri: str | None = None,
                   store_endpoint: str | None = None, settings: dict[str, Any] | None = None,
                   retry_degraded: bool = False, dry_run: bool = False) -> list[PlanItem | DocOutcome]:
    """HEAD each stale document's source object: a plan item, or a failed outcome when it cannot be read. With
    ``store_uri`` each item's reason says which stages are stale and why; a ``dry_run`` gives a skipped outcome
    per document instead, with its stale stages and estimated work."""
    out: list[PlanItem | DocOutcome] = []
    store = open_store(store_uri, store_endpoint) if store_uri else None
    pipeline = settings_from(settings)
    for rec in records:
        uri = str((rec.get("source") or {}).get("uri") or "")
        why = f"built by fingerprint {str(rec.get('fingerprint'))[:12]}"
        try:
            spec, obj = locate(uri, endpoint_url, max_attempts)
        except (ObjectError, SourceError) as exc:
            kind = getattr(exc, "kind", "source")
            out.append(DocOutcome(rec["doc_id"], uri, "failed", error=f"{exc}; index kept", error_kind=kind, reason=why))
            continue
        item = PlanItem(obj, rec["doc_id"], "index", "rebuilt", why, spec=spec)
        stale: list[dict[str, str]] = []
        work: dict[str, int] = {}
        if store is not None:
            item.reason, stale, work = explain_stale(store, rec, obj, pipeline, retry_degraded)
        if dry_run:
            out.append(DocOutcome(rec["doc_id"], obj.uri, "skipped", reason=f"dry run: {item.reason}", stale=stale,
                                  work=work))
        else:
            out.append(item)
    return out


def stale_records(store: Any, fingerprint: str, **filters: Any) -> Iterator[dict[str, Any]]:
    for rec in store.catalog():
        if is_stale(rec, fingerprint, **filters):
            yield rec


@flow(name="rebuild-stale")
def rebuild_stale(
    store: str = "./index",
    settings: dict[str, Any] | None = None,
    doc_prefix: str | None = None,
    source_prefix: str | None = None,
    published_before: str | None = None,
    endpoint_url: str | None = None,
    store_endpoint_url: str | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    doc_timeout: float | None = DEFAULT_DOC_TIMEOUT,
    dry_run: bool = False,
    retry_base_seconds: float = 2.0,
    source_max_attempts: int = 5,
    batch_size: int = DEFAULT_BATCH,
    task_runner: str | None = None,
    workers: int | None = None,
    dask_address: str | None = None,
) -> dict[str, Any]:
    """Re-index every document whose latest version has an older pipeline fingerprint (optionally filtered).
    ``task_runner``/``workers``/``dask_address``: the runner for the documents, as in ``ingest``."""
    logger = get_run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    retry_degraded = model_available(pipeline)
    report = RunReport(run_id=new_run_id(), flow="rebuild-stale", source="(recorded per document)", store=store,
                       fingerprint=fingerprint)
    store_obj = open_store(store, store_endpoint_url)
    filters = {"doc_prefix": doc_prefix, "source_prefix": source_prefix, "published_before": published_before}
    report.notes.append("filters: " + ", ".join(f"{k}={v}" for k, v in filters.items() if v) if any(filters.values())
                        else "filters: none (every stale document)")

    recovery = Recovery(store_obj, report).scan()  # flows/checkpoint.py: partial reports, as in ingest
    checkpoint = Checkpoint(report, store_obj)
    checkpoint.write()

    def planned() -> Iterator[list[PlanItem]]:
        for records in chunks(stale_records(store_obj, fingerprint, retry_degraded=retry_degraded, **filters), chunk_size):
            located = locate_sources(records, endpoint_url, source_max_attempts, store, store_endpoint_url,
                                     pipeline.to_dict(), retry_degraded, dry_run)
            items = [x for x in located if isinstance(x, PlanItem)]
            report.documents.extend(x for x in located if isinstance(x, DocOutcome))
            if dry_run:
                continue
            logger.info("%d stale documents to rebuild in this chunk", len(items))
            yield items

    with chosen_runner(task_runner, workers, dask_address) as runner:
        if runner is not None:
            report.notes.append(describe(task_runner, workers, dask_address))
        run_documents(report, planned(), {}, store, settings_from(settings).to_dict(), store_endpoint=store_endpoint_url,
                      doc_timeout=doc_timeout, max_in_flight=max(2 * chunk_size, 8), retry_base=retry_base_seconds,
                      batch_size=batch_size, task_runner=runner, on_progress=checkpoint)
    checkpoint.close()
    recovery.finish()
    report.finish()
    publish_report(report, store_obj)
    logger.info(report.to_text())
    return report.to_dict()
