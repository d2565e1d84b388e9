"""A time limit on a block of code that needs no Prefect: an alarm in the main thread, an injected exception in
any other.

The two mechanisms of Prefect's ``prefect.utilities.timeout``, which the per-document timeout used before:
importing Prefect costs the CLI's local mode most of its start-up (benchmarks/results/cli.md). In the main
thread ``SIGALRM`` also interrupts a blocking system call; in another thread the exception is raised when the
thread next runs Python code, so a long C call (a PyMuPDF page) ends first; a wait for another thread's work
(a download) takes its timeout from ``remaining()`` instead.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import threading
import time
from typing import Any, Iterator

_deadlines = threading.local()  # this thread's innermost limit, as a time.monotonic() value


class TimeLimitExceeded(TimeoutError):
    """Raised inside the block when its time is up (a class: a thread's pending exception cannot carry text)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "time limit reached"


@contextlib.contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise ``TimeLimitExceeded`` in the block once it has run ``seconds`` (None: no limit)."""
    if seconds is None:
        yield
        return
    outer = getattr(_deadlines, "at", None)
    _deadlines.at = time.monotonic() + seconds if outer is None else min(outer, time.monotonic() + seconds)
    try:
        if threading.current_thread() is threading.main_thread():
            with _alarm(seconds):
                yield
        else:
            with _watched(seconds):
                yield
    finally:
        _deadlines.at = outer


def remaining() -> float | None:
    """Seconds left of this thread's time limit (0 when it has run out), None outside one: the timeout of a
    blocking wait inside the block, which neither mechanism can interrupt in a thread."""
    at = getattr(_deadlines, "at", None)
    return None if at is None else max(0.0, at - time.monotonic())


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise TimeLimitExceeded(f"time limit of {seconds}s reached")

    previous = signal.signal(signal.SIGALRM, expire)
    outer = signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-6))  # 0 would cancel the timer, not fire it
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if outer[0] > 0:  # an enclosing limit's alarm (its time spent here is not given back)
            signal.setitimer(signal.ITIMER_REAL, *outer)


@contextlib.contextmanager
def _watched(seconds: float) -> Iterator[None]:
    target = threading.get_ident()
    lock = threading.Lock()
    state = {"open": True}

    def expire() -> None:
        with lock:
            if state["open"]:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(target), ctypes.py_object(TimeLimitExceeded))

    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["open"] = False
        timer.cancel()
