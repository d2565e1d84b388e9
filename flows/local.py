"""The flows' own code run without a Prefect server (the CLI's local mode), and progress for the CLI.

``pagetree index`` / ``ingest`` call the flows' run (flows/ingest_run.py) directly when no Prefect API is
configured: Prefect 3 has no in-process engine, so running the flow would start a temporary API server
(5-20 s, and a timeout on a loaded machine) only to record a run nobody looks at, and importing Prefect
alone costs about a second (benchmarks/results/cli.md), so this path never imports it. The run keeps its
exact logic; planning is a plain function call instead of a task run, batches go to a thread pool of
``slots`` threads (``LocalPool``: the same two-batches-per-slot schedule as Prefect's thread runner), and
messages go to the ``pagetree.flows`` logger instead of the run logger. The run report
(``STORE/runs/<run-id>.json``) is the same; there is no Prefect artifact. With a Prefect API (deployments,
``PREFECT_API_URL``, the test harness) everything runs through Prefect as before.

Progress: ``run_documents`` calls ``progress(...)`` after each batch, and a document being built reports its
stage (``Stage``: "OCR 12/300 pages", "summaries 50/1183") through ``stage(...)`` from the thread building it;
the CLI listens to both with ``listening``. Only documents built in this process report stages (the threads
runner, the CLI's local mode); the processes and Dask runners report per batch.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Iterator

log = logging.getLogger("pagetree.flows")

DEFAULT_SLOTS = 4  # what flows.ingest.runner_slots assumes of Prefect's (unbounded) default thread runner

_slots: contextvars.ContextVar[int] = contextvars.ContextVar("pagetree_local_slots", default=DEFAULT_SLOTS)


def in_flow_run() -> bool:
    """True inside a Prefect flow run (its engine, task runner and run logger are there to use)."""
    if "prefect.context" not in sys.modules:  # Prefect not loaded (the CLI's local mode): no flow run either
        return False
    from prefect.context import FlowRunContext

    return FlowRunContext.get() is not None


def run_logger() -> Any:
    """Prefect's run logger in a flow run, pagetree's own logger outside one."""
    if in_flow_run():
        from prefect import get_run_logger

        return get_run_logger()
    return log


class LocalPool:
    """Runs ``fn`` on ``slots`` threads; its futures are concurrent.futures ones (result, add_done_callback)."""

    def __init__(self, fn: Callable[..., Any], slots: int | None = None):
        self.fn = fn
        self.slots = max(1, slots or _slots.get())
        self._pool = ThreadPoolExecutor(max_workers=self.slots, thread_name_prefix="pagetree-local")

    def submit(self, *args: Any) -> Future[Any]:
        return self._pool.submit(self.fn, *args)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False)


@contextlib.contextmanager
def local_slots(slots: int | None) -> Iterator[None]:
    """Run batches on ``slots`` threads in local mode (the CLI's ``--workers`` with the threads runner)."""
    token = _slots.set(slots or DEFAULT_SLOTS)
    try:
        yield
    finally:
        _slots.reset(token)


@dataclass
class Progress:
    """After a batch: documents finished, documents known to be left (``listed_all``: no more to come), pages
    indexed so far, and seconds since the first document was submitted."""

    done: int
    left: int
    listed_all: bool
    pages: int
    seconds: float
    outcomes: list[Any]


@dataclass
class Stage:
    """What a document being built in this process is doing (parsers.pipeline.Progress messages)."""

    doc_id: str
    message: str


_listeners: list[Callable[[Any], None]] = []


@contextlib.contextmanager
def listening(fn: Callable[[Any], None]) -> Iterator[None]:
    """Call ``fn`` with each ``Progress`` and ``Stage`` of runs in this process while the block runs."""
    _listeners.append(fn)
    try:
        yield
    finally:
        _listeners.remove(fn)


def stage_reporter(doc_id: str) -> Callable[[str], None] | None:
    """A parsers.pipeline.Progress callback that forwards to the listeners; None when nobody listens."""
    if not _listeners:
        return None
    return lambda message: progress(Stage(doc_id, message))


def progress(event: Progress | Stage) -> None:
    for fn in list(_listeners):
        try:
            fn(event)
        except Exception:  # a display problem never stops a run
            log.debug("progress listener failed", exc_info=True)
