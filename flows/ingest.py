"""Prefect flows: ingest a source into a store (discover -> plan -> index -> publish -> report).

Tasks are the retry units: listing and publishing are I/O and carry retries;
indexing is deterministic and does not (a bad PDF fails the same way twice).
A failing document never fails the run: its error is recorded in the report
and it is tried again on the next run (nothing was published for it).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact

from flows.report import DocOutcome, RunReport, new_run_id
from flows.sources import LocalSource, SourceObject, default_doc_id, open_source
from index_store.errors import StoreError
from index_store.layout import check_doc_id
from index_store.publish import publish_document
from index_store.store import Store
from parsers.errors import DocumentError
from parsers.pipeline import DocumentIndex, PipelineSettings, file_sha256, index_document, package_version, version_id


@dataclass
class PlanItem:
    obj: SourceObject
    doc_id: str
    action: str  # index | unchanged | failed
    status: str  # new | changed | unchanged | failed
    reason: str = ""


def settings_from(params: dict[str, Any] | None) -> PipelineSettings:
    return PipelineSettings(**(params or {}))


@task(name="discover", retries=2, retry_delay_seconds=[1, 5])
def discover(source_uri: str, include: list[str] | None = None, exclude: list[str] | None = None) -> list[SourceObject]:
    """List the source (no content is read)."""
    options: dict[str, Any] = {}
    if include:
        options["include"] = tuple(include)
    if exclude:
        options["exclude"] = tuple(exclude)
    return list(open_source(source_uri, **options).list())


@task(name="plan")
def plan(store_uri: str, objects: list[SourceObject], fingerprint: str, doc_ids: dict[str, str] | None = None) -> list[PlanItem]:
    """Skip a document whose latest version has the same source etag+size and pipeline fingerprint."""
    store = Store(store_uri)
    items: list[PlanItem] = []
    for obj in objects:
        try:
            given = (doc_ids or {}).get(obj.key)
            doc_id = check_doc_id(given) if given else default_doc_id(obj)
        except StoreError as exc:
            items.append(PlanItem(obj, obj.key, "failed", "failed", str(exc)))
            continue
        latest = store.latest(doc_id)
        if latest is None:
            items.append(PlanItem(obj, doc_id, "index", "new"))
            continue
        src = latest.get("source") or {}
        if latest.get("fingerprint") == fingerprint and src.get("etag") == obj.etag and src.get("bytes") == obj.size:
            items.append(PlanItem(obj, doc_id, "unchanged", "unchanged", "source etag, size and fingerprint match latest"))
        else:
            why = "pipeline fingerprint changed" if latest.get("fingerprint") != fingerprint else "source changed"
            items.append(PlanItem(obj, doc_id, "index", "changed", why))
    return items


@task(name="index-document")
def index_one(item: PlanItem, source_uri: str, store_uri: str, settings: dict[str, Any]) -> tuple[DocOutcome, DocumentIndex | None]:
    """Fetch, hash and parse one document. A document whose content+pipeline version exists is not re-parsed."""
    logger = get_run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    outcome = DocOutcome(doc_id=item.doc_id, uri=item.obj.uri, status=item.status)
    t0 = time.perf_counter()
    source = open_source(source_uri.removeprefix("file://"))
    try:
        with source.fetch(item.obj) as path:
            sha = file_sha256(path)
            outcome.bytes_downloaded = 0 if isinstance(source, LocalSource) else item.obj.size
            version = version_id(sha, fingerprint)
            store = Store(store_uri)
            if store.has_version(item.doc_id, version):
                # Same bytes (touched file, or same content under a new key): nothing to rebuild.
                latest = store.latest(item.doc_id) or {}
                outcome.version = version
                if latest.get("version") == version:
                    outcome.status = "unchanged"
                    _refresh_latest_source(store, item, version, sha)
                    return outcome, None
            index = index_document(path, item.doc_id, pipeline, sha256=sha)
    except DocumentError as exc:
        outcome.status, outcome.error, outcome.error_kind = "failed", str(exc), exc.kind
        logger.warning("%s: %s", item.doc_id, exc)
        return outcome, None
    except Exception as exc:  # never let one document crash the batch
        outcome.status, outcome.error, outcome.error_kind = "failed", f"{type(exc).__name__}: {exc}", "internal"
        logger.error("%s: internal error: %s: %s", item.doc_id, type(exc).__name__, exc)
        return outcome, None
    outcome.version = index.tree.version
    outcome.pages = index.stats["pages"]
    outcome.ocr_pages = index.stats.get("ocr_pages", 0)
    outcome.nodes = index.stats["nodes"]
    outcome.structure_source = index.tree.structure_source
    outcome.model = index.stats.get("model", {})
    outcome.seconds = round(time.perf_counter() - t0, 3)
    return outcome, index


def _refresh_latest_source(store: Store, item: PlanItem, version: str, sha: str) -> None:
    """Record the new etag so the next run skips this document without reading it."""
    latest = store.latest(item.doc_id) or {}
    src = latest.get("source") or {}
    if src.get("etag") == item.obj.etag and src.get("bytes") == item.obj.size:
        return
    manifest = store.manifest(item.doc_id, version)
    extra = {k: v for k, v in latest.items() if k not in ("version", "published_at")}
    extra["source"] = {"uri": item.obj.uri, "etag": item.obj.etag, "bytes": item.obj.size, "sha256": sha}
    extra["fingerprint"] = manifest.get("pipeline", {}).get("fingerprint", extra.get("fingerprint"))
    store._move_latest(item.doc_id, {"version": version, "published_at": latest.get("published_at"), **extra})


@task(name="publish", retries=3, retry_delay_seconds=[1, 4, 10])
def publish(index: DocumentIndex, obj: SourceObject, store_uri: str, settings: dict[str, Any]) -> bool:
    """Write the version (data, then manifest) and move latest.json."""
    pipeline = settings_from(settings)
    source = {"uri": obj.uri, "key": obj.key, "etag": obj.etag, "sha256": index.sha256, "bytes": index.size,
              "last_modified": obj.last_modified}
    return publish_document(
        Store(store_uri),
        tree=index.tree,
        nodes=index.nodes,
        pages=index.pages,
        source=source,
        pipeline={"fingerprint": pipeline.fingerprint(), "package_version": package_version(), "settings": pipeline.to_dict()},
        stats=index.stats,
        decisions=index.decisions,
    )


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
) -> RunReport:
    """The body shared by the flows below: discover, plan, index+publish each, report."""
    logger = get_run_logger()
    pipeline = settings_from(settings)
    fingerprint = pipeline.fingerprint()
    report = RunReport(run_id=run_id or new_run_id(), flow=flow_name, source=source, store=store,
                       fingerprint=fingerprint, started_at=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    if objects is None:
        objects = discover(source, include, exclude)
    items = plan(store, objects, fingerprint, doc_ids)
    todo = [i for i in items if i.action == "index"]
    logger.info("%d documents listed: %d to index, %d unchanged, %d invalid",
                len(items), len(todo), sum(i.action == "unchanged" for i in items), sum(i.action == "failed" for i in items))
    for item in items:
        if item.action == "unchanged":
            report.documents.append(DocOutcome(item.doc_id, item.obj.uri, "unchanged"))
        elif item.action == "failed":
            report.documents.append(DocOutcome(item.doc_id, item.obj.uri, "failed", error=item.reason, error_kind="invalid_id"))
    futures = [index_one.submit(item, source, store, pipeline.to_dict()) for item in todo]
    for n, (item, future) in enumerate(zip(todo, futures), start=1):
        outcome, index = future.result()
        if index is not None:
            try:
                published = publish(index, item.obj, store, pipeline.to_dict())
                if not published:
                    outcome.status = "unchanged"
            except Exception as exc:
                outcome.status, outcome.error, outcome.error_kind = "failed", f"publish failed: {exc}", "publish"
        report.documents.append(outcome)
        logger.info("[%d/%d] %s: %s%s", n, len(todo), item.doc_id, outcome.status,
                    f" v{outcome.version} {outcome.pages}p {outcome.nodes} nodes ({outcome.structure_source}) {outcome.seconds:.2f}s"
                    if outcome.status != "failed" else f" — {outcome.error}")
    report.finish()
    Store(store).put_run(report.run_id, report.to_dict())
    try:
        create_markdown_artifact(key="ingest-report", markdown=report.to_markdown(), description=f"pagetree run {report.run_id}")
    except Exception as exc:  # an artifact is a convenience; the JSON report in the store is the record
        logger.warning("could not create the Prefect artifact: %s", exc)
    return report


@flow(name="ingest")
def ingest(
    source: str,
    store: str = "./index",
    settings: dict[str, Any] | None = None,
    include: list[str] | None = None,
    exclude: list[str] | None = None,
) -> dict[str, Any]:
    """Index every new or changed PDF under ``source`` (folder or s3://) into ``store``."""
    return run_ingest(source, store, settings, flow_name="ingest", include=include, exclude=exclude).to_dict()


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
