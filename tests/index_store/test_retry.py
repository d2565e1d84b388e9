"""The one retry policy (index_store/retry.py): which failures are retried, how long it waits, when it gives up."""

from __future__ import annotations

import pytest

from index_store.retry import RetryPolicy, retry_call


class TransientObjectError(Exception):
    transient = True  # as the sources classify throttling and 5xx


class ObjectDenied(Exception):
    transient = False


def _transient(exc: BaseException) -> bool:
    return getattr(exc, "transient", False)


def test_retries_transient_errors_with_growing_jittered_delays_then_returns():
    slept: list[float] = []
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 4:
            raise TransientObjectError("503 SlowDown")
        return "body"

    assert retry_call(flaky, RetryPolicy(4, base_delay=2.0), _transient, sleep=slept.append) == "body"
    assert len(calls) == 4 and len(slept) == 3
    assert [1.0 <= slept[0] <= 2.0, 2.0 <= slept[1] <= 4.0, 4.0 <= slept[2] <= 8.0] == [True] * 3


def test_an_error_the_caller_does_not_classify_as_transient_is_raised_at_once():
    slept: list[float] = []
    with pytest.raises(ObjectDenied):
        retry_call(lambda: (_ for _ in ()).throw(ObjectDenied("403")), RetryPolicy(3, 0.5), _transient,
                   sleep=slept.append)
    assert slept == []  # access denied is not retried now (the next run retries it)


def test_gives_up_after_the_last_retry_with_the_last_error():
    calls: list[int] = []

    def always() -> str:
        calls.append(1)
        raise TransientObjectError(f"503 number {len(calls)}")

    with pytest.raises(TransientObjectError, match="number 3"):
        retry_call(always, RetryPolicy(2, 0.1), _transient, sleep=lambda s: None)
    assert len(calls) == 3  # the first attempt plus one per retry


def test_a_cancellation_is_never_retried_even_when_the_caller_retries_everything():
    class Cancelled(BaseException):
        pass

    calls: list[int] = []

    def cancelled() -> str:
        calls.append(1)
        raise Cancelled()

    with pytest.raises(Cancelled):
        retry_call(cancelled, RetryPolicy(3, 0.1), lambda exc: True, sleep=lambda s: None)
    assert calls == [1]


def test_a_delay_the_failure_asks_for_wins_and_is_capped():
    slept: list[float] = []
    seen: list[tuple[str, float]] = []
    errors = iter([ValueError("429 wait 3"), ValueError("429 wait 60"), ValueError("500")])

    def attempt() -> str:
        exc = next(errors, None)
        if exc is None:
            return "ok"
        raise exc

    def asked(exc: BaseException) -> float | None:
        text = str(exc)
        return float(text.rsplit(" ", 1)[1]) if "wait" in text else None

    policy = RetryPolicy(3, base_delay=0.4, max_delay=10.0)
    assert retry_call(attempt, policy, lambda exc: True, retry_after=asked, sleep=slept.append,
                      on_retry=lambda exc, delay: seen.append((str(exc), delay))) == "ok"
    assert 3.0 <= slept[0] <= 3.1 and 10.0 <= slept[1] <= 10.1 and 0.8 <= slept[2] <= 1.6
    assert [s for s, _ in seen] == ["429 wait 3", "429 wait 60", "500"] and [d for _, d in seen] == slept
