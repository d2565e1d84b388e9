"""Set-up of each worker process the runners start (Dask preload hook, process-pool initializer).

PyMuPDF imports ``pymupdf.layout`` whenever the ``pymupdf_layout`` package is installed
(it comes with pymupdf4llm, our ``bench`` extra), and that import loads an ONNX layout
model: ~0.5 s of CPU and ~50 MB per process. pagetree's parsers never call PyMuPDF's
layout analysis (``Page.get_layout``), so a worker skips it: PyMuPDF treats the module
as absent. Nothing changes when PyMuPDF was already imported, or in the flow process.

A Dask worker also stops Dask's statistical profiler, which samples the stack of every
worker thread each 10 ms for the dashboard's "Profile" page: ~4% of a worker's CPU on
small PDFs (benchmarks/results/ingest.md), spent on a page nobody reads in a batch job.
Task streams, progress and memory on the dashboard are unaffected.
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


def dask_setup(worker: object) -> None:
    """Dask's preload hook: called once when a worker process starts, before it runs any task."""
    skip_layout_model()
    stop_profiler(worker)
