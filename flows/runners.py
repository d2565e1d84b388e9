"""Task-runner selection (threads, processes, Dask) and the cross-worker bound on model calls.

Parsing is CPU-bound PyMuPDF work, so threads only help while documents wait on
S3; ``processes`` or ``dask`` scale it across cores or machines. The flows do not
change: the runner is chosen at call time with ``flow.with_options(task_runner=...)``.
"""

from __future__ import annotations

from typing import Any, Callable

RUNNERS = ("threads", "processes", "dask")
MODEL_LIMIT = "pagetree-model-calls"  # Prefect global concurrency limit shared by every worker


class RunnerError(ValueError):
    """An unknown runner name or an invalid combination of options."""


def make_task_runner(kind: str = "threads", workers: int | None = None, dask_address: str | None = None) -> Any:
    """A Prefect task runner: ``threads`` (default), ``processes``, or ``dask`` (existing cluster at
    ``dask_address``, else a temporary LocalCluster of ``workers`` single-threaded processes)."""
    if dask_address and kind not in ("dask", "threads"):
        raise RunnerError(f"--dask-address needs the dask runner, not {kind!r}")
    if dask_address or kind == "dask":
        from prefect_dask import DaskTaskRunner

        if dask_address:
            return DaskTaskRunner(address=dask_address)
        # One thread per worker process: PyMuPDF holds the GIL while parsing.
        return DaskTaskRunner(cluster_kwargs={"n_workers": workers or 2, "threads_per_worker": 1, "processes": True,
                                              "dashboard_address": None})
    if kind == "processes":
        from prefect.task_runners import ProcessPoolTaskRunner

        return ProcessPoolTaskRunner(max_workers=workers)
    if kind == "threads":
        from prefect.task_runners import ThreadPoolTaskRunner

        return ThreadPoolTaskRunner(max_workers=workers)
    raise RunnerError(f"unknown task runner {kind!r}: choose one of {', '.join(RUNNERS)}")


def with_runner(flow_fn: Any, kind: str = "threads", workers: int | None = None, dask_address: str | None = None) -> Any:
    """``flow_fn`` bound to the chosen task runner (the default threads runner leaves it unchanged)."""
    if kind == "threads" and not workers and not dask_address:
        return flow_fn
    return flow_fn.with_options(task_runner=make_task_runner(kind, workers, dask_address))


class LimitedProvider:
    """A ModelProvider whose calls each hold one slot of a Prefect global concurrency limit.

    The limit lives on the Prefect server, so it bounds model calls across every
    thread, process and Dask worker of every run (create it once:
    ``prefect gcl create pagetree-model-calls --limit 8``). Without a server-side
    limit of that name the call proceeds unbounded (Prefect's non-strict mode).
    """

    def __init__(self, inner: Any, limit: str = MODEL_LIMIT, acquire: Callable[..., Any] | None = None):
        self.inner = inner
        self.limit = limit
        self.name = inner.name
        self.model = inner.model
        self.supports_vision = inner.supports_vision
        if acquire is None:
            from prefect.concurrency.sync import concurrency

            acquire = concurrency
        self._acquire = acquire

    def complete(self, system: str, user: str, *, json_schema: dict | None = None, max_tokens: int = 400) -> Any:
        with self._acquire(self.limit, occupy=1):
            return self.inner.complete(system, user, json_schema=json_schema, max_tokens=max_tokens)

    def describe_image(self, png: bytes, prompt: str) -> Any:
        with self._acquire(self.limit, occupy=1):
            return self.inner.describe_image(png, prompt)
