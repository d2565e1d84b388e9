"""flows.deadline: the per-document time limit without Prefect (an alarm in the main thread, an injected exception in
a worker thread), and ``remaining()``, the timeout of a wait inside it (flows.document.Prefetch)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from flows.deadline import TimeLimitExceeded, remaining, time_limit


def test_time_limit_interrupts_the_main_thread_and_a_worker_thread() -> None:
    def spin() -> str:
        with time_limit(0.2):
            while True:  # Python code: the injected exception lands between two bytecodes
                sum(range(1000))

    with pytest.raises(TimeLimitExceeded):
        spin()
    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(TimeLimitExceeded):
            pool.submit(spin).result(timeout=60)
    with time_limit(None):
        pass
    with time_limit(30):  # ended in time: neither the alarm nor the watcher fires later
        pass
    assert isinstance(TimeLimitExceeded(), TimeoutError) and str(TimeLimitExceeded()) == "time limit reached"


def test_remaining_is_the_innermost_limit_and_none_outside_one() -> None:
    assert remaining() is None
    with time_limit(300):
        assert 200 < remaining() <= 300
        with time_limit(5):
            assert remaining() <= 5
        assert remaining() > 200
    assert remaining() is None
