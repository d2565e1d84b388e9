"""The openai provider through the real `openai` client against the local server: retries, timeouts, caps, secrets."""

from __future__ import annotations

import base64
import logging
import threading
import time

import pytest

from providers.errors import ProviderResponseError, ProviderUnavailable
from providers.offline import OfflineProvider
from providers.prompts import SUMMARY
from tests.providers.helpers import API_KEY, provider
from tests.support.openai_server import FakeOpenAI, Fault

SCHEMA = SUMMARY.schema


def test_429_with_retry_after_is_retried_after_the_announced_delay(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, retry_max_delay=1.0)
    openai_server.push(Fault.rate_limit(retry_after=0.3), '{"summary": "ok"}')
    t0 = time.monotonic()
    c = p.complete("s", "u", json_schema=SCHEMA)
    assert c.text == '{"summary": "ok"}'
    assert [r.status for r in openai_server.requests] == [429, 200]
    assert openai_server.requests[1].started - openai_server.requests[0].finished >= 0.28
    assert time.monotonic() - t0 < 3.0 and p.attempts.retries == 1  # not the 8 s client default cap


def test_5xx_are_retried_with_backoff_until_success(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server)
    openai_server.push(Fault.server_error(500), Fault.server_error(503), "fine")
    assert p.complete("s", "u").text == "fine"
    assert [r.status for r in openai_server.requests] == [500, 503, 200]


def test_retries_exhausted_raise_unavailable(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, max_retries=2)
    openai_server.fail_all(Fault.server_error(502))
    with pytest.raises(ProviderUnavailable, match="3 attempts"):
        p.complete("s", "u")
    assert openai_server.calls == 3


def test_a_slow_reply_times_out_and_the_retry_succeeds(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, timeout=0.3)
    openai_server.push(Fault.slow(3.0), "in time")
    t0 = time.monotonic()
    assert p.complete("s", "u").text == "in time"
    first, second = openai_server.requests
    assert time.monotonic() - t0 >= 0.3 and second.started < first.started + 3.0  # gave up at the timeout


def test_unparseable_body_and_truncated_body_are_transient(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server)
    openai_server.push(Fault.bad_json(), Fault.truncated(), "third time")
    assert p.complete("s", "u").text == "third time"
    assert openai_server.calls == 3


def test_malformed_json_content_is_a_response_error_that_keeps_its_usage(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server)
    openai_server.push(Fault.malformed_content('{"summary": "cut off'))
    with pytest.raises(ProviderResponseError) as info:
        p.complete("s", "u", json_schema=SCHEMA)
    assert info.value.completion.completion_tokens > 0
    assert openai_server.calls == 1  # a bad answer is not retried: the caller falls back


def test_auth_error_is_not_retried(openai_server: FakeOpenAI) -> None:
    openai_server.expected_api_key = "sk-other"
    p = provider(openai_server)
    with pytest.raises(ProviderUnavailable, match="401"):
        p.complete("s", "u")
    assert openai_server.calls == 1


def test_circuit_breaker_stops_calling_a_dead_model(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, max_retries=0, breaker_threshold=2, breaker_cooldown=60)
    openai_server.fail_all(Fault.server_error(500))
    for _ in range(5):
        with pytest.raises(ProviderUnavailable):
            p.complete("s", "u")
    assert openai_server.calls == 2


def test_concurrency_cap_is_what_the_server_sees() -> None:
    with FakeOpenAI(latency=0.1) as server:
        p = provider(server, concurrency=3)
        threads = [threading.Thread(target=p.complete, args=("s", f"u{i}")) for i in range(15)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert server.calls == 15
        assert server.max_in_flight == 3


def test_request_shape_json_schema_image_usage_and_cost(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, vision_model="gpt-4o-mini")
    c = p.complete("sys", "hello", json_schema=SCHEMA, max_tokens=77)
    body = openai_server.requests[0].body
    assert body["model"] == "gpt-4o-mini" and body["max_tokens"] == 77 and body["temperature"] == 0
    assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert c.prompt_tokens > 0 and c.completion_tokens > 0
    # gpt-4o-mini list price: 0.15 / 0.60 USD per 1M tokens
    assert c.cost_usd == pytest.approx((c.prompt_tokens * 0.15 + c.completion_tokens * 0.60) / 1e6)
    p.describe_image(b"\x89PNG\r\n\x1a\nfake", "read it")
    url = openai_server.requests[1].images()[0]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]) == b"\x89PNG\r\n\x1a\nfake"


def test_no_vision_model_and_offline_provider_refuse_images(openai_server: FakeOpenAI) -> None:
    with pytest.raises(ProviderUnavailable):
        provider(openai_server).describe_image(b"png", "x")
    with pytest.raises(ProviderUnavailable):
        OfflineProvider().describe_image(b"png", "x")
    assert openai_server.calls == 0


def test_api_key_never_appears_in_logs_errors_or_reprs(openai_server: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # includes the openai and httpx loggers at their most verbose
    p = provider(openai_server, max_retries=1)
    openai_server.push(Fault.server_error(500))
    p.complete("s", "u")
    openai_server.fail_all(Fault.rate_limit(0))
    with pytest.raises(ProviderUnavailable) as down:
        p.complete("s", "u")
    openai_server.fail_all(None)
    openai_server.expected_api_key = "sk-something-else"
    with pytest.raises(ProviderUnavailable) as denied:
        p.complete("s", "u")
    assert caplog.records, "debug logging was captured"
    assert API_KEY not in caplog.text
    assert API_KEY not in f"{down.value} {denied.value} {p!r} {p.settings!r}"


def test_reasoning_model_400_switches_to_max_completion_tokens_once(openai_server: FakeOpenAI) -> None:
    def reply(rec):
        if "max_tokens" in rec.body or "temperature" in rec.body:
            return Fault.bad_request("Unsupported parameter: 'max_tokens' is not supported with this model. "
                                     "Use 'max_completion_tokens' instead.")
        return "fine"

    openai_server.reply_fn = reply
    p = provider(openai_server, model="gpt-5-mini")
    assert p.complete("s", "a").text == "fine" and p.complete("s", "b").text == "fine"
    assert [r.status for r in openai_server.requests] == [400, 200, 200]  # learnt once, remembered
    assert openai_server.requests[1].body["max_completion_tokens"] >= 2000


def test_other_400s_are_request_errors_that_do_not_trip_the_breaker(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, breaker_threshold=1)
    openai_server.push(Fault.bad_request("This model's maximum context length is 128000 tokens"), "next is fine")
    with pytest.raises(ProviderResponseError):
        p.complete("s", "huge")
    assert p.complete("s", "small").text == "next is fine"


def test_dead_model_with_many_callers_in_flight_is_given_up_quickly() -> None:
    with FakeOpenAI(latency=0.01) as server:
        server.fail_all(Fault.server_error(503))
        p = provider(server, concurrency=8, max_retries=4)
        errors: list[Exception] = []

        def call(i: int) -> None:
            try:
                p.complete("s", f"u{i}")
            except ProviderUnavailable as exc:
                errors.append(exc)

        threads = [threading.Thread(target=call, args=(i,)) for i in range(40)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(errors) == 40
        assert server.calls <= 12 + 8  # the attempt breaker opens after 12 failed attempts; in-flight ones finish


def test_a_burst_of_429s_does_not_open_the_breaker(openai_server: FakeOpenAI) -> None:
    p = provider(openai_server, max_retries=30, breaker_threshold=1)
    openai_server.push(*[Fault.rate_limit(retry_after=0)] * 20, "served")
    assert p.complete("s", "u").text == "served"
