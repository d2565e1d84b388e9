"""Prefect flows: ingest a source into a store (discover -> plan -> index -> publish -> report).

The run itself is flows/ingest_run.py, which does not import Prefect (the CLI's local mode calls it directly,
flows/local.py); here it gets its two units of work as Prefect tasks: ``plan`` (a chunk of the listing against
the store's catalog, with retries) and ``index_documents`` (a batch of documents, flows.document.index_batch),
submitted to the flow's task runner or to the runner a deployment's parameters chose (flows.runners).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Iterable

from prefect import flow, task
from prefect.cache_policies import NO_CACHE

from flows import ingest_run
from flows.document import index_batch
from flows.ingest_run import (DEFAULT_BATCH, DEFAULT_BATCH_BYTES, DEFAULT_CHUNK, DEFAULT_DOC_TIMEOUT,
                              TASK_RUN_SECONDS, PlanItem, batches, chunks, claim, index_paths,
                              ingest_source, least_batch, next_batch, open_spec, open_store, plan_objects,
                              publish_report, removed_documents, settings_from, source_spec, tombstone)
from flows.local import in_flow_run
from flows.report import RunReport
from flows.runners import chosen_runner, describe

__all__ = ["DEFAULT_BATCH", "DEFAULT_BATCH_BYTES", "DEFAULT_CHUNK", "DEFAULT_DOC_TIMEOUT", "TASK_RUN_SECONDS",
           "PlanItem", "TaskPool", "batches", "chunks", "claim", "index_documents", "index_files", "ingest",
           "least_batch", "next_batch", "open_spec", "open_store", "plan", "prefect_steps", "publish_report",
           "removed_documents", "run_documents", "runner_slots", "settings_from", "source_spec",
           "tombstone"]

plan = task(name="plan", retries=2, retry_delay_seconds=[1, 5], cache_policy=NO_CACHE)(plan_objects)
index_documents = task(name="index-documents", cache_policy=NO_CACHE, persist_result=False)(index_batch)
_BATCH_PARAMS = ("jobs", "store_uri", "settings", "store_endpoint", "retry_base", "doc_timeout")


def runner_slots(task_runner: Any = None) -> int:
    """How many tasks the flow's task runner runs at once (Dask: the cluster's threads now; a pool: its
    size, as ``flows.pools`` records it or Prefect's thread-pool setting gives it); 4 when it cannot tell, e.g.
    an unbounded thread pool."""
    if task_runner is None:
        from prefect.context import FlowRunContext

        ctx = FlowRunContext.get()
        task_runner = ctx.task_runner if ctx else None
    try:
        client = getattr(task_runner, "client", None)  # prefect-dask's DaskTaskRunner: a distributed Client
        if client is not None and hasattr(client, "nthreads"):
            return max(1, sum(client.nthreads().values()))
        workers = int(getattr(task_runner, "slots", 0) or 0)  # our pools (flows.pools) say their size
        if not workers and task_runner is not None:
            from prefect.settings import get_current_settings
            from prefect.task_runners import ThreadPoolTaskRunner

            if isinstance(task_runner, ThreadPoolTaskRunner):  # Prefect's default pool: its size is a setting
                workers = int(get_current_settings().tasks.runner.thread_pool_max_workers or 0)
    except Exception:  # a cluster that cannot answer: the default below is safe, only less balanced
        return 4
    return workers if 0 < workers <= 256 else 4


class TaskPool:
    """Batches as ``index_documents`` task runs: on ``task_runner`` (a started runner, e.g. the one a deployment's
    parameters chose), else on the flow's own."""

    def __init__(self, task_runner: Any = None):
        self.task_runner = task_runner

    @cached_property
    def slots(self) -> int:  # asked only once there is work: a Dask runner starts its cluster then
        return runner_slots(self.task_runner)

    def submit(self, *args: Any) -> Any:
        if self.task_runner is None:
            return index_documents.submit(*args)
        return self.task_runner.submit(index_documents, dict(zip(_BATCH_PARAMS, args)))


def prefect_steps(task_runner: Any = None) -> dict[str, Any]:
    """flows.ingest_run.run_ingest's units of work in a flow run: Prefect tasks. Outside one (a flow's ``.fn`` called
    directly) the plain functions and threads (nothing to add)."""
    return {"plan_step": plan, "pool": TaskPool(task_runner)} if in_flow_run() else {}


def run_documents(report: RunReport, items: Iterable[list[PlanItem]], spec: dict[str, Any], store_uri: str,
                  settings: dict[str, Any], *, task_runner: Any = None, **options: Any) -> None:
    """flows.ingest_run.run_documents with batches as Prefect task runs in a flow run (rebuild-stale)."""
    ingest_run.run_documents(report, items, spec, store_uri, settings, pool=prefect_steps(task_runner).get("pool"),
                             **options)


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
        return ingest_source(source, store, settings, include=include, exclude=exclude, endpoint_url=endpoint_url,
                             store_endpoint_url=store_endpoint_url, max_size=max_size, chunk_size=chunk_size,
                             doc_timeout=doc_timeout, tombstone_removed=tombstone_removed,
                             retry_base_seconds=retry_base_seconds, source_max_attempts=source_max_attempts,
                             batch_size=batch_size, replace=replace, **prefect_steps(runner),
                             notes=[describe(task_runner, workers, dask_address)] if runner else None)


@flow(name="index-files")
def index_files(paths: list[str], store: str = "./index", settings: dict[str, Any] | None = None,
                doc_ids: list[str] | None = None, replace: bool = False) -> dict[str, Any]:
    """Index explicit files (``pagetree index``); ``doc_ids`` overrides the id per file; ``replace`` as in ``ingest``."""
    return index_paths(paths, store, settings, doc_ids, replace, **prefect_steps())
