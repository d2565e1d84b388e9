"""The one retry policy: exponential backoff with jitter, a server's Retry-After honoured.

Every I/O edge retries through ``retry_call``: downloads and publications (flows.document), model calls
(providers.limits adds concurrency slots and a circuit breaker around it) and latest.json's conditional write
(index_store.store). Each caller keeps its own classification of which errors are worth another attempt. It
lives here because every layer that does I/O already depends on index_store; the loop is tenacity's.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

log = logging.getLogger("pagetree.retry")
T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """Up to ``max_retries`` retries after the first attempt; delays double from ``base_delay`` up to ``max_delay``."""

    max_retries: int = 4
    base_delay: float = 0.5
    max_delay: float = 20.0

    def delay(self, attempt: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry ``attempt`` + 1 (0-based). A server's Retry-After wins (capped at
        ``max_delay``); otherwise "equal jitter": half the ceiling plus a random part of the other half, so
        a delay is never 0 and callers that failed together do not retry in lockstep."""
        if retry_after is not None and retry_after >= 0:
            return min(retry_after, self.max_delay) + random.uniform(0, self.base_delay / 4)
        ceiling = min(self.max_delay, self.base_delay * (2**attempt))
        return ceiling / 2 + random.uniform(0, ceiling / 2)


def _no_retry_after(exc: BaseException) -> float | None:
    return None


def retry_call(
    fn: Callable[[], T],
    policy: RetryPolicy,
    retry_if: Callable[[BaseException], bool],
    *,
    retry_after: Callable[[BaseException], float | None] = _no_retry_after,
    on_retry: Callable[[BaseException, float], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """``fn()``, called again after a ``policy`` delay while it raises an exception ``retry_if`` accepts; the
    last exception is raised when the retries are spent, at once when ``retry_if`` refuses it (never retried:
    ``BaseException``s that are not ``Exception``s, such as a cancellation).

    ``retry_after(exc)``: the delay the failure itself asked for (an HTTP Retry-After), if any;
    ``on_retry(exc, delay)``: called before each wait (counting, logging)."""

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        return policy.delay(state.attempt_number - 1, retry_after(exc) if exc is not None else None)

    def before_sleep(state: RetryCallState) -> None:
        exc = state.outcome.exception() if state.outcome else None
        delay = state.next_action.sleep if state.next_action else 0.0
        log.info("retrying in %.2fs after %s: %s", delay, type(exc).__name__, exc)
        if on_retry is not None and exc is not None:
            on_retry(exc, delay)

    retrying = Retrying(stop=stop_after_attempt(policy.max_retries + 1), wait=wait,
                        retry=retry_if_exception(lambda exc: isinstance(exc, Exception) and retry_if(exc)), before_sleep=before_sleep, sleep=sleep, reraise=True)
    return retrying(fn)
