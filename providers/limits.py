"""Cost control around model calls: concurrency slots, retries (the one policy, index_store.retry), a circuit breaker.

Slots cap how many requests are in flight. ``ThreadSlots`` caps one process;
``FileSlots`` caps every process on one host that names the same directory
(fcntl locks on N slot files, released by the OS if a worker dies); flows can
supply any other context-manager factory (e.g. a Prefect global concurrency
limit, see flows/models.py). A slot is held for one HTTP attempt, never
during a backoff sleep, so a waiting retry does not starve other callers.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ContextManager, Iterator, TypeVar

from index_store.retry import RetryPolicy, retry_call
from providers.errors import ProviderUnavailable

T = TypeVar("T")
Slots = Callable[[], ContextManager[None]]  # enter = hold one slot


class ThreadSlots:
    """At most ``n`` concurrent holders in this process."""

    def __init__(self, n: int):
        self.n = max(1, n)
        self._sem = threading.BoundedSemaphore(self.n)

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self._sem:
            yield


class FileSlots:
    """At most ``n`` concurrent holders across all processes on this host that use ``folder``."""

    def __init__(self, folder: str | os.PathLike[str], n: int, poll: float = 0.01):
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.n = max(1, n)
        self.poll = poll
        self._local = ThreadSlots(self.n)  # threads of this process queue here, not on the files

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self._local():
            fd = self._acquire()
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)

    def _acquire(self) -> int:
        start = random.randrange(self.n)  # spread processes over slots
        while True:
            for i in range(self.n):
                path = self.folder / f"slot-{(start + i) % self.n}.lock"
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return fd
                except BlockingIOError:
                    os.close(fd)
            time.sleep(self.poll)


class Transient(Exception):
    """Raised by an attempt that may succeed when repeated (429, 5xx, timeout, connection error)."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


class CircuitBreaker:
    """Fail fast for ``cooldown`` seconds after ``threshold`` consecutive unavailable calls, or after
    ``attempt_threshold`` consecutive failed attempts (5xx, timeouts, connection errors; not 429s).

    Why: with the model down for a whole run, 300 sections x retries x backoff
    would take hours; failing fast lets every document publish extractively.
    Attempts count too because 16 callers in flight would otherwise all walk
    through their retries first. Rate limiting (429) means the model is up:
    backoff handles it, the breaker ignores it. After the cooldown one call is
    let through; a success closes the breaker, a failure reopens it.
    """

    def __init__(self, threshold: int = 3, cooldown: float = 30.0, attempt_threshold: int = 12):
        self.threshold = threshold
        self.cooldown = cooldown
        self.attempt_threshold = attempt_threshold
        self._failures = 0
        self._attempt_failures = 0
        self._open_until = 0.0
        self._lock = threading.Lock()

    def _tripped(self) -> bool:
        return self._failures >= self.threshold or self._attempt_failures >= self.attempt_threshold

    def check(self) -> None:
        with self._lock:
            if self._tripped() and time.monotonic() < self._open_until:
                raise ProviderUnavailable(f"model unavailable ({self._failures} calls, {self._attempt_failures} "
                                          "attempts failed in a row); not calling for now")

    def success(self) -> None:
        with self._lock:
            self._failures = 0
            self._attempt_failures = 0

    def failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._tripped():
                self._open_until = time.monotonic() + self.cooldown

    def attempt_failed(self) -> None:
        with self._lock:
            self._attempt_failures += 1
            if self._tripped():
                self._open_until = time.monotonic() + self.cooldown


@dataclass
class Attempts:
    retries: int = 0


def call_with_retries(
    attempt: Callable[[], T],
    policy: RetryPolicy,
    slots: Slots | None = None,
    *,
    sleep: Callable[[float], None] = time.sleep,
    counter: Attempts | None = None,
) -> T:
    """Run ``attempt`` holding a slot; on Transient back off (``index_store.retry``, Retry-After honoured) and
    repeat; exhausted -> ProviderUnavailable."""

    def once() -> T:
        if slots is None:
            return attempt()
        with slots():
            return attempt()

    def count(exc: BaseException, delay: float) -> None:
        if counter is not None:
            counter.retries += 1

    try:
        return retry_call(once, policy, lambda exc: isinstance(exc, Transient),
                          retry_after=lambda exc: getattr(exc, "retry_after", None), on_retry=count, sleep=sleep)
    except Transient as exc:
        raise ProviderUnavailable(f"gave up after {policy.max_retries + 1} attempts: {exc}") from exc
