"""The fake OpenAI-compatible server speaks the protocol the real `openai` client expects."""

from __future__ import annotations

import base64
import json

import openai
import pytest

from tests.support.openai_server import Fault, FakeOpenAI


def _client(server: FakeOpenAI, **kw) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0, **kw)


def test_scripted_reply_then_default_reply_with_usage(openai_server: FakeOpenAI) -> None:
    openai_server.push("first scripted")
    client = _client(openai_server)
    a = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello there"}])
    b = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hello there"}])
    assert a.choices[0].message.content == "first scripted"
    assert b.choices[0].message.content == "Reply to: hello there"
    assert a.usage.prompt_tokens >= 1 and a.usage.completion_tokens >= 1
    assert openai_server.calls == 2 and openai_server.requests[0].user_text() == "hello there"


def test_json_schema_default_is_minimal_instance_and_images_are_logged(openai_server: FakeOpenAI) -> None:
    schema = {"type": "object", "properties": {"summary": {"type": "string"}, "n": {"type": "integer"}}, "required": ["summary", "n"]}
    png = base64.b64encode(b"\x89PNG fake").decode()
    client = _client(openai_server)
    r = client.chat.completions.create(
        model="m",
        messages=[{"role": "user", "content": [{"type": "text", "text": "describe"},
                                                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png}"}}]}],
        response_format={"type": "json_schema", "json_schema": {"name": "x", "schema": schema, "strict": True}},
    )
    assert json.loads(r.choices[0].message.content) == {"summary": "", "n": 0}
    assert openai_server.requests[0].images() == [f"data:image/png;base64,{png}"]


def test_faults_surface_as_client_errors(openai_server: FakeOpenAI) -> None:
    client = _client(openai_server, timeout=0.3)
    openai_server.push(Fault.rate_limit(retry_after=2), Fault.server_error(503), Fault.slow(1.0), Fault.bad_json(), Fault.truncated())
    msg = [{"role": "user", "content": "x"}]
    with pytest.raises(openai.RateLimitError) as rl:
        client.chat.completions.create(model="m", messages=msg)
    assert rl.value.response.headers["retry-after"] == "2"
    with pytest.raises(openai.InternalServerError):
        client.chat.completions.create(model="m", messages=msg)
    with pytest.raises(openai.APITimeoutError):
        client.chat.completions.create(model="m", messages=msg)
    with pytest.raises(ValueError):  # this client version lets the JSON decode error through
        client.chat.completions.create(model="m", messages=msg)
    with pytest.raises(openai.APIConnectionError):
        client.chat.completions.create(model="m", messages=msg)


def test_wrong_api_key_is_refused_and_never_stored() -> None:
    with FakeOpenAI(expected_api_key="sk-right") as server:
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-wrong", max_retries=0)
        with pytest.raises(openai.AuthenticationError):
            client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}])
        assert server.requests[0].auth_ok is False
        assert "sk-wrong" not in repr(server.requests)
