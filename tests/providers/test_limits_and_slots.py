"""Backoff arithmetic, slots shared across processes, vision callable, offline provider, Prefect GCL slots."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from providers.errors import ProviderUnavailable
from providers.limits import RetryPolicy, Transient, call_with_retries
from providers.offline import OfflineProvider
from providers.prompts import STRUCTURE, SUMMARY
from providers.usage import Usage, estimate_cost, price_for
from providers.vision import vision_callable
from tests.providers.helpers import provider
from tests.support.openai_server import FakeOpenAI, Fault


def test_backoff_grows_exponentially_with_bounded_jitter_and_honours_retry_after() -> None:
    policy = RetryPolicy(max_retries=5, base_delay=0.5, max_delay=4.0)
    for attempt, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (6, 4.0)]:
        delays = [policy.delay(attempt) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert max(delays) - min(delays) > ceiling / 10  # jittered, not in lockstep
    assert 3.0 <= policy.delay(0, retry_after=3.0) <= 3.0 + 0.5 / 4
    assert policy.delay(0, retry_after=60) <= 4.0 + 0.5 / 4  # capped


def test_call_with_retries_sleeps_between_attempts_and_gives_up() -> None:
    slept: list[float] = []
    attempts = iter([Transient("429", retry_after=1.5), Transient("500"), "ok"])

    def attempt() -> str:
        item = next(attempts)
        if isinstance(item, Exception):
            raise item
        return item

    assert call_with_retries(attempt, RetryPolicy(3, 0.1, 10), sleep=slept.append) == "ok"
    assert len(slept) == 2 and 1.5 <= slept[0] <= 1.6 and 0.1 <= slept[1] <= 0.2  # second retry: ceiling 2 x 0.1

    def always() -> str:
        raise Transient("503")

    with pytest.raises(ProviderUnavailable, match="3 attempts"):
        call_with_retries(always, RetryPolicy(2, 0.0, 0.0), sleep=slept.append)


def test_file_slots_cap_concurrency_across_processes(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    ready = tmp_path / "ready"
    ready.mkdir()
    # Every worker starts at once, however slowly each process came up on a loaded machine: a file barrier,
    # not a start time; each holds its slot long enough (0.3 s) that two holders overlap.
    worker = textwrap.dedent(f"""
        import json, os, sys, time
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from providers.limits import FileSlots
        slots = FileSlots({str(tmp_path / "slots")!r}, 2)
        open(os.path.join({str(ready)!r}, str(os.getpid())), "w").close()
        while len(os.listdir({str(ready)!r})) < 4:
            time.sleep(0.01)
        for _ in range(3):
            with slots():
                start = time.time(); time.sleep(0.3); end = time.time()
            with open({str(log)!r}, "a") as fh:
                fh.write(json.dumps([start, end]) + "\\n")
    """)
    procs = [subprocess.Popen([sys.executable, "-c", worker]) for _ in range(4)]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    spans = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(spans) == 12
    peak = max(sum(1 for s, e in spans if s <= t < e) for t, _ in spans)
    assert peak == 2


def test_vision_callable_transcribes_counts_usage_and_returns_none_on_failure(openai_server: FakeOpenAI) -> None:
    usage = Usage()
    p = provider(openai_server, vision_model="gpt-4o", max_retries=0)
    assert vision_callable(provider(openai_server), usage) is None  # no vision model: the OCR stage skips it
    describe = vision_callable(p, usage)
    openai_server.push("Wiring diagram\n[Figure: terminal block X1 with L1, L2]", Fault.server_error(500))
    assert describe(b"\x89PNGpage") == "Wiring diagram\n[Figure: terminal block X1 with L1, L2]"
    assert describe(b"\x89PNGpage") is None
    assert openai_server.requests[0].model == "gpt-4o" and openai_server.requests[0].images()
    assert usage.calls == 1 and usage.by_purpose == {"vision": 1} and usage.errors == {"ProviderUnavailable": 1}


def test_offline_provider_is_deterministic_and_honours_schemas() -> None:
    text = "<section_text>\nThe E42 fault stops pump P1 when inlet pressure is low. Clean the strainer before restarting.\n</section_text>"
    a = OfflineProvider().complete(SUMMARY.system, text, json_schema=SUMMARY.schema)
    b = OfflineProvider().complete(SUMMARY.system, text, json_schema=SUMMARY.schema)
    assert a == b and "E42" in json.loads(a.text)["summary"] and a.cost_usd == 0
    assert json.loads(OfflineProvider().complete(STRUCTURE.system, "x", json_schema=STRUCTURE.schema).text) == {"sections": []}


def test_price_table_prefix_match_override_and_unknown() -> None:
    assert price_for("gpt-4o-mini-2024-07-18") == (0.15, 0.60)
    assert price_for("openai/gpt-4.1-nano") == (0.10, 0.40)
    assert price_for("llama3:8b") is None and estimate_cost("llama3:8b", 1000, 1000) == 0.0
    assert estimate_cost("llama3:8b", 1_000_000, 500_000, override=(1.0, 2.0)) == pytest.approx(2.0)


@pytest.mark.integration
def test_prefect_global_concurrency_limit_caps_requests(prefect_harness) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate

    from flows.models import prefect_slots

    with get_client(sync_client=True) as client:
        client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name="pagetree-model-test", limit=2))
    with FakeOpenAI(latency=0.1) as server:
        p = provider(server, concurrency=8)
        p.slots = prefect_slots("pagetree-model-test")
        threads = [threading.Thread(target=p.complete, args=("s", f"u{i}")) for i in range(6)]
        t0 = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert server.calls == 6 and server.max_in_flight <= 2
        assert time.monotonic() - t0 >= 0.3  # 6 calls of 0.1 s through 2 slots
