"""Set-up of each worker process the runners start (Dask preload hook, process-pool initializer).

PyMuPDF imports ``pymupdf.layout`` whenever the ``pymupdf_layout`` package is installed
(it comes with pymupdf4llm, our ``bench`` extra), and that import loads an ONNX layout
model: ~0.5 s of CPU and ~50 MB per process. pagetree's parsers never call PyMuPDF's
layout analysis (``Page.get_layout``), so a worker skips it: PyMuPDF treats the module
as absent. Nothing changes when PyMuPDF was already imported, or in the flow process.

A Dask worker also stops Dask's statistical profiler, which samples the stack of every
worker thread each 10 ms for the dashboard's "Profile" page: ~4% of a worker's CPU on
small PDFs (benchmarks/results/ingest.md), spent on a page nobody reads in a batch job.
Task streams, progress and memory on the dashboard are unaffected. It also measures its event
loop's responsiveness every 500 ms instead of every 20 ms (``distributed.admin.tick.interval``, as
the temporary cluster of flows.runners is configured): a 20 ms tick wakes the worker 50 times a
second to time a loop that pagetree's seconds-long tasks never need timed that finely.
"""

from __future__ import annotations

import sys


def skip_layout_model() -> None:
    """Make ``import pymupdf.layout`` fail (PyMuPDF then runs without it) unless PyMuPDF is already loaded."""
    if "pymupdf" not in sys.modules:
        sys.modules.setdefault("pymupdf.layout", None)  # type: ignore[arg-type]  # None: "not importable"


def stop_profiler(worker: object) -> None:
    """Remove the worker's statistical-profiler callbacks (stopped if already running)."""
    callbacks = getattr(worker, "periodic_callbacks", None)
    for name in ("profile", "profile-cycle"):
        callback = callbacks.pop(name, None) if isinstance(callbacks, dict) else None
        if callback is not None:
            callback.stop()


#: Least interval of a worker's event-loop tick, in milliseconds (flows.runners.DASK_CLUSTER_CONFIG).
TICK_MS = 500


def slow_tick(server: object, interval_ms: float = TICK_MS) -> None:
    """Run a Dask server's event-loop tick at most every ``interval_ms`` (a longer configured interval stays)."""
    callbacks = getattr(server, "periodic_callbacks", None)
    tick = callbacks.get("tick") if isinstance(callbacks, dict) else None
    if tick is not None and tick.callback_time < interval_ms:
        tick.callback_time = interval_ms  # tornado reads it each time it schedules the next call


def dask_setup(worker: object) -> None:
    """Dask's preload hook: called once when a worker process starts, before it runs any task."""
    skip_layout_model()
    stop_profiler(worker)
    slow_tick(worker)
