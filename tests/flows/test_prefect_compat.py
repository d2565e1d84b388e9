"""The heartbeat work-around (flows/prefect_compat.py), measured against Prefect's own engine."""

from __future__ import annotations

import time

from prefect import flow
from prefect import flow_engine

from prefect.settings import get_current_settings

import flows.ingest  # noqa: F401  (applies the work-around)


MARKS: list[float] = []


@flow(name="compat-quick")
def quick() -> int:
    MARKS.append(time.perf_counter())
    return 1


def _body_to_return() -> float:
    """Seconds from the start of a trivial flow's body to the return of the flow call."""
    MARKS.clear()
    assert quick() == 1
    return time.perf_counter() - MARKS[0]


def test_a_flow_call_returns_without_waiting_for_the_heartbeat_tick(prefect_harness):
    assert get_current_settings().flows.heartbeat_frequency, "heartbeats must be on for this test to mean anything"
    patched = flow_engine._send_heartbeats
    assert getattr(patched, "pagetree_unjoined", False)
    _body_to_return()  # warm-up: first flow run of the session
    try:
        # Prefect's own engine: the heartbeat thread started just before the body and sleeps a whole second.
        flow_engine._send_heartbeats = patched.__wrapped__
        unpatched = _body_to_return()
    finally:
        flow_engine._send_heartbeats = patched
    fixed = min(_body_to_return() for _ in range(3))
    assert unpatched >= 0.9, f"Prefect's engine no longer waits for its heartbeat thread ({unpatched:.2f}s): drop the work-around"
    assert fixed < 0.9, f"the flow call still waited {fixed:.2f}s after its body"
    assert fixed < unpatched - 0.4


def test_the_patch_is_applied_once():
    from flows.prefect_compat import unjoined_heartbeats

    before = flow_engine._send_heartbeats
    assert unjoined_heartbeats() is True
    assert flow_engine._send_heartbeats is before
