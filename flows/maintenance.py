"""The gc flow: retention for the store — old versions and old run reports.

Versions are deleted through ``Store.gc`` (latest is always kept, the manifest
goes first so readers stop seeing a version before its data disappears).
Documents tombstoned as removed from the source are never deleted here: that
is an operator's decision (``pagetree gc --doc-id``). With ``prune_caches`` the
OCR and vision cache entries no kept version references go too (index_store.cache.prune).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE

from flows.ingest import open_store
from index_store import layout
from index_store.cache import prune


@task(name="gc-versions", retries=2, retry_delay_seconds=[2, 10], cache_policy=NO_CACHE)
def gc_versions(store_uri: str, keep: int, doc_id: str | None, store_endpoint: str | None) -> list[tuple[str, str]]:
    store = open_store(store_uri, store_endpoint)
    removed = store.gc(keep=keep, doc_id=doc_id)  # never-published versions too, after the grace period
    debris = store.clean_debris()
    get_run_logger().info("gc: %d leftovers of interrupted writes removed", len(debris))
    return removed


@task(name="gc-caches", retries=2, retry_delay_seconds=[2, 10], cache_policy=NO_CACHE)
def gc_caches(store_uri: str, store_endpoint: str | None) -> dict[str, int]:
    """Delete OCR and vision cache entries no kept version lists in its manifest (``cache_refs``)."""
    return prune(open_store(store_uri, store_endpoint))


@task(name="gc-runs", retries=2, retry_delay_seconds=[2, 10], cache_policy=NO_CACHE)
def gc_runs(store_uri: str, keep_days: int, store_endpoint: str | None) -> list[str]:
    """Delete run reports older than ``keep_days`` (run ids start with their UTC timestamp)."""
    store = open_store(store_uri, store_endpoint)
    cutoff = (datetime.now(timezone.utc) - timedelta(days=keep_days)).strftime("%Y%m%dT%H%M%SZ")
    removed = []
    for key in list(store.backend.list_keys(layout.RUNS + "/")):
        run_id = key.rsplit("/", 1)[-1].removesuffix(".json")
        if run_id[:16] < cutoff:
            store.backend.delete_prefix(key)
            removed.append(run_id)
    return removed


@flow(name="gc")
def gc(store: str = "./index", keep: int = 3, doc_id: str | None = None, keep_runs_days: int | None = 90,
       store_endpoint_url: str | None = None, prune_caches: bool = False) -> dict[str, Any]:
    """Keep the newest ``keep`` versions per document (latest always) and ``keep_runs_days`` of run reports;
    with ``prune_caches``, drop OCR and vision cache entries no kept version references."""
    logger = get_run_logger()
    versions = gc_versions(store, keep, doc_id, store_endpoint_url)
    runs = gc_runs(store, keep_runs_days, store_endpoint_url) if keep_runs_days is not None else []
    summary: dict[str, Any] = {"versions_removed": [f"{d}@{v}" for d, v in versions], "runs_removed": runs}
    if prune_caches:
        summary["cache_entries_removed"] = gc_caches(store, store_endpoint_url)
        logger.info("gc: cache entries removed: %s", summary["cache_entries_removed"])
    logger.info("gc: %d versions and %d run reports removed", len(versions), len(runs))
    try:
        create_markdown_artifact(key="gc-report", markdown=f"# gc\n\n{len(versions)} versions removed "
                                 f"(keep {keep}), {len(runs)} run reports removed.\n")
    except Exception as exc:  # the artifact is a convenience
        logger.warning("could not create the Prefect artifact: %s", exc)
    return summary
