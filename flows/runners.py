"""Task-runner selection: threads, processes, or Dask (an existing cluster or a temporary local one).

Parsing is CPU-bound PyMuPDF work, so threads only help while documents wait on
S3; ``processes`` or ``dask`` scale it across cores or machines. The flows do not
change: the runner is chosen at call time with ``flow.with_options(task_runner=...)``.
Model calls stay bounded across all those workers through a Prefect global
concurrency limit named by PAGETREE_MODEL_GCL (see flows/models.py).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

RUNNERS = ("threads", "processes", "dask")

#: Settings of the temporary Dask cluster (scheduler, nannies and workers): ``worker-saturation`` 1.0 hands a worker
#: a queued task only when it has a free thread (Dask's default, 1.1, lets a single-threaded worker hold a second
#: one in reserve, which unbalances the shrinking tail of flows.ingest.run_documents). An existing cluster needs
#: none: the flow bounds what it has in flight itself. ``worker.profile.enabled`` off: Dask's statistical profiler calls
#: ``sys._current_frames()`` every 10 ms, and on CPython 3.11 before 3.11.9 a garbage collection inside that call can
#: deadlock the worker for good (python/cpython#116969, dask/distributed#8616): a batch then never ends and the flow
#: waits on it forever. Seen here on 3.11.7 in the killed-worker test; its cost was under 10% of a run anyway.
DASK_CLUSTER_CONFIG = {"distributed.scheduler.worker-saturation": 1.0, "distributed.worker.profile.enabled": False}


def local_cluster(**kwargs: Any) -> Any:
    """A ``distributed.LocalCluster`` with ``DASK_CLUSTER_CONFIG`` (its nannies hand it to the workers)."""
    import dask
    from distributed import LocalCluster

    with dask.config.set(DASK_CLUSTER_CONFIG):
        return LocalCluster(**kwargs)


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
        # One thread per worker process: PyMuPDF holds the GIL while parsing. Workers start in parallel (one
        # nanny each: it is what spawns the process) and preload flows.worker_setup (the indexing imports).
        return DaskTaskRunner(cluster_class="flows.runners.local_cluster",
                              cluster_kwargs={"n_workers": workers or 2, "threads_per_worker": 1, "processes": True,
                                              "dashboard_address": None, "preload": ["flows.worker_setup"]})
    if kind == "processes":
        from flows.pools import SizedProcessPool

        return SizedProcessPool(max_workers=workers)
    if kind == "threads":
        from flows.pools import SizedThreadPool

        return SizedThreadPool(max_workers=workers)
    raise RunnerError(f"unknown task runner {kind!r}: choose one of {', '.join(RUNNERS)}")


def with_runner(flow_fn: Any, kind: str = "threads", workers: int | None = None, dask_address: str | None = None) -> Any:
    """``flow_fn`` bound to the chosen task runner (the default threads runner leaves it unchanged)."""
    if kind == "threads" and not workers and not dask_address:
        return flow_fn
    return flow_fn.with_options(task_runner=make_task_runner(kind, workers, dask_address))


@contextlib.contextmanager
def chosen_runner(kind: str | None = None, workers: int | None = None,
                  dask_address: str | None = None) -> Iterator[Any]:
    """The task runner a flow run's parameters chose (``task_runner``, ``workers``, ``dask_address``), started
    for the duration of the block; ``None`` when none was chosen, and the flow's own runner is used.

    A deployment cannot call ``with_runner``: the worker calls the flow object of the entrypoint, whose task
    runner is fixed. So the flow body opens the chosen runner itself and submits its batches to it
    (``TaskRunner.submit``, what ``Task.submit`` calls on the flow's runner); task runs still belong to the
    flow run. A temporary Dask cluster lives as long as the block.
    """
    if not kind and not workers and not dask_address:
        yield None
        return
    with make_task_runner(kind or "threads", workers, dask_address) as runner:
        yield runner


def describe(kind: str | None, workers: int | None, dask_address: str | None) -> str:
    """One line for the run report: which runner the parameters chose."""
    if dask_address:
        return f"task runner: dask (existing cluster at {dask_address})"
    return f"task runner: {kind or 'threads'}" + (f" (workers={workers})" if workers else "")
