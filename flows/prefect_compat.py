"""A work-around for Prefect behaviour that costs every pagetree flow call, applied when ``flows.ingest`` (which
every flow module imports) is imported.

Prefect 3.9's synchronous flow engine joins its heartbeat thread when a flow run ends
(``prefect.flow_engine._send_heartbeats`` with ``join_on_exit=True``). That thread sleeps in
steps of one second (``time.sleep(1)``) and checks its stop event only between them, so every
synchronous flow call returns on a whole-second tick after it started: up to 1 s, 0.5 s on
average, after its work is done: a trivial flow's body ended 1.00 s before the call returned
(0.02-0.04 s with this patch; the whole call then takes 0.10 s), and ``benchmarks/ingest.py``
timed 8.1, 9.1 and 13.1 s runs whose reports said 7.5, 8.6 and 12.3 s.

Prefect's asynchronous engine does not join (``join_on_exit=False``): the daemon thread sees
the stop event within a second and returns without emitting anything more. pagetree's flows
are synchronous, so their engine is made to behave like the asynchronous one. Heartbeats are
emitted as before (the first when the run starts, then every ``PREFECT_FLOWS_HEARTBEAT_FREQUENCY``
seconds), so Prefect's detection of crashed ("zombie") runs is unchanged.

The patch applies only when ``_send_heartbeats`` exists and takes ``join_on_exit``; otherwise
Prefect is left as it is. ``tests/flows/test_prefect_compat.py`` checks the effect against the
unpatched engine, so a Prefect release that changes this code fails a test instead of going unnoticed.
"""

from __future__ import annotations

import contextlib
import inspect
from typing import Any, Iterator


def unjoined_heartbeats() -> bool:
    """Make the sync flow engine stop its heartbeat thread without joining it; True if the patch is in place."""
    try:
        from prefect import flow_engine
    except ImportError:
        return False
    original = getattr(flow_engine, "_send_heartbeats", None)
    if original is None:
        return False
    if getattr(original, "pagetree_unjoined", False):
        return True
    try:
        if "join_on_exit" not in inspect.signature(original).parameters:
            return False
    except (TypeError, ValueError):
        return False

    @contextlib.contextmanager
    def send_heartbeats(engine: Any, join_on_exit: bool = True) -> Iterator[None]:
        with original(engine, join_on_exit=False):
            yield

    send_heartbeats.pagetree_unjoined = True  # type: ignore[attr-defined]
    send_heartbeats.__wrapped__ = original  # type: ignore[attr-defined]
    flow_engine._send_heartbeats = send_heartbeats
    return True
