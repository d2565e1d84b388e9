"""A small OpenAI-compatible HTTP server for tests and benchmarks (stdlib only, one thread per request).

Usage::

    from tests.support.openai_server import FakeOpenAI, Fault

    with FakeOpenAI(latency=0.05) as server:          # 127.0.0.1, random free port
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-test")
        server.push("a scripted reply")                # FIFO queue of replies, consumed first
        server.push(Fault.rate_limit(retry_after=0))   # or a fault: 429 with Retry-After
        server.reply_fn = lambda req: "..."            # otherwise a function of the request
        ...
        server.requests                                # log: list[Recorded] (body, path, messages, ...)
        server.max_in_flight                           # highest number of concurrent requests seen

Endpoints: POST /v1/chat/completions (text and image_url content parts; response_format
json_schema), GET /v1/models. Without a queued item or ``reply_fn``, the reply is
deterministic: for a json_schema request, a minimal instance of the schema; otherwise
"Reply to: <first words of the last user message>".

A queue item / reply_fn result may be: a str (message content), a dict (sent as the
JSON body as-is), or a Fault:
  Fault.rate_limit(retry_after=1.0)  429 with Retry-After (seconds)
  Fault.server_error(status=500)     5xx with an OpenAI-style error body
  Fault.bad_request("message")       400 with that error message
  Fault.slow(seconds, then="...")    sleep, then reply (use beyond the client timeout)
  Fault.malformed_content("...")     200 whose message content is the given (non-JSON) text
  Fault.bad_json()                   200 whose HTTP body is not JSON
  Fault.truncated()                  200 whose body is cut short (Content-Length too big)
``fail_all(fault)`` makes every request return that fault (model down for a whole run).
``expected_api_key``, when set, answers 401 to any other bearer token.
Usage in replies: prompt_tokens = characters of all messages // 4, completion_tokens = reply chars // 4.
The Authorization header is not stored in the log; ``Recorded.auth_ok`` says whether it matched.

Fixture: ``openai_server`` (function scope) yields a started FakeOpenAI.
Benchmarks: ``RemoteFakeOpenAI`` runs the same server in a child process (``python -m tests.support.openai_server``).
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest


@dataclass
class Fault:
    kind: str  # rate_limit | server_error | slow | malformed_content | bad_json | truncated
    status: int = 200
    retry_after: float | None = None
    seconds: float = 0.0
    text: str = ""

    @classmethod
    def rate_limit(cls, retry_after: float | None = 0.0) -> "Fault":
        return cls("rate_limit", status=429, retry_after=retry_after)

    @classmethod
    def server_error(cls, status: int = 500) -> "Fault":
        return cls("server_error", status=status)

    @classmethod
    def slow(cls, seconds: float, then: str = "late reply") -> "Fault":
        return cls("slow", seconds=seconds, text=then)

    @classmethod
    def malformed_content(cls, text: str = '{"summary": "unterminated') -> "Fault":
        return cls("malformed_content", text=text)

    @classmethod
    def bad_request(cls, message: str = "Invalid request") -> "Fault":
        return cls("bad_request", status=400, text=message)

    @classmethod
    def bad_json(cls) -> "Fault":
        return cls("bad_json")

    @classmethod
    def truncated(cls) -> "Fault":
        return cls("truncated")


@dataclass
class Recorded:
    """One request as the server saw it (the bearer token itself is never stored)."""

    path: str
    body: dict[str, Any]
    started: float
    finished: float = 0.0
    status: int = 0
    auth_ok: bool = True

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def model(self) -> str:
        return str(self.body.get("model") or "")

    def text(self) -> str:
        """All text of all messages joined (image parts omitted)."""
        return "\n".join(_message_text(m) for m in self.messages)

    def user_text(self) -> str:
        users = [m for m in self.messages if m.get("role") == "user"]
        return _message_text(users[-1]) if users else ""

    def images(self) -> list[str]:
        """image_url.url values (data: URLs for inline PNGs) of all messages."""
        out = []
        for m in self.messages:
            content = m.get("content")
            if isinstance(content, list):
                out += [p["image_url"]["url"] for p in content if p.get("type") == "image_url"]
        return out

    @property
    def json_schema(self) -> dict[str, Any] | None:
        fmt = self.body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            return (fmt.get("json_schema") or {}).get("schema") or {}
        return None


def _message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.get("text", "") for p in content if p.get("type") == "text")
    return ""


def minimal_instance(schema: dict[str, Any]) -> Any:
    """The smallest value of a JSON schema's type (required object properties filled in)."""
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0]
    if "enum" in schema:
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: minimal_instance(props.get(k, {})) for k in schema.get("required", list(props))}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return ""


Reply = str | dict | Fault


class FakeOpenAI:
    """See the module docstring. Thread-safe; start()/stop() or use as a context manager."""

    def __init__(self, *, latency: float = 0.0, model: str = "fake-model", expected_api_key: str | None = None):
        self.latency = latency
        self.model = model
        self.expected_api_key = expected_api_key
        self.reply_fn: Callable[[Recorded], Reply] | None = None
        self.requests: list[Recorded] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._queue: deque[Reply] = deque()
        self._fail_all: Fault | None = None
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting ---------------------------------------------------------------------------
    def push(self, *replies: Reply) -> None:
        """Queue replies (str, dict body or Fault), consumed one per request before reply_fn."""
        with self._lock:
            self._queue.extend(replies)

    def fail_all(self, fault: Fault | None) -> None:
        """Every request gets ``fault`` until called with None."""
        self._fail_all = fault

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._queue.clear()
            self.max_in_flight = 0
        self._fail_all = None
        self.reply_fn = None

    @property
    def calls(self) -> int:
        """Number of chat completion requests received."""
        return sum(1 for r in self.requests if r.path.endswith("/chat/completions"))

    # -- lifecycle ---------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> "FakeOpenAI":
        handler = _make_handler(self)
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.02,), name="fake-openai", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- request handling --------------------------------------------------------------------
    def _next_reply(self, rec: Recorded) -> Reply:
        if self._fail_all is not None:
            return self._fail_all
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.reply_fn is not None:
            return self.reply_fn(rec)
        if rec.json_schema is not None:
            return json.dumps(minimal_instance(rec.json_schema))
        words = rec.user_text().split()[:12]
        return "Reply to: " + " ".join(words)

    def _completion_body(self, rec: Recorded, content: str) -> dict[str, Any]:
        return {
            "id": f"chatcmpl-{len(self.requests)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": rec.model or self.model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {
                "prompt_tokens": max(1, len(rec.text()) // 4),
                "completion_tokens": max(1, len(content) // 4),
                "total_tokens": max(1, len(rec.text()) // 4) + max(1, len(content) // 4),
            },
        }


def _make_handler(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, like a real API
        disable_nagle_algorithm = True  # headers and body are separate writes: avoid 40 ms delayed-ACK stalls

        def log_message(self, format: str, *args: Any) -> None:  # quiet: tests capture logs
            return

        def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None, length: int | None = None) -> None:
            rec = getattr(self, "_rec", None)
            if rec is not None:
                # Record status and finish time before the client can see the reply: a test reading the log
                # right after its call returns must not race the handler thread.
                rec.status = status
                rec.finished = time.monotonic()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body) if length is None else length))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            if length is not None:
                self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            if length is not None:
                self.close_connection = True

        def _error(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
            kind = {429: "rate_limit_exceeded", 401: "invalid_api_key", 400: "invalid_request_error"}.get(status, "server_error")
            body = {"error": {"message": message, "type": kind, "param": None, "code": kind}}
            self._send(status, json.dumps(body).encode(), headers)

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/_stats"):  # for RemoteFakeOpenAI
                self._send(200, json.dumps({"calls": server.calls, "max_in_flight": server.max_in_flight}).encode())
            elif self.path.rstrip("/").endswith("/models"):
                token = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
                if server.expected_api_key is not None and token != server.expected_api_key:
                    self._error(401, "Incorrect API key provided")
                    return
                self._send(200, json.dumps({"object": "list", "data": [{"id": server.model, "object": "model"}]}).encode())
            else:
                self._error(404, "not found")

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            if self.path.rstrip("/").endswith("/_control"):  # for RemoteFakeOpenAI
                control = json.loads(raw or b"{}")
                if "fail_all" in control:
                    server.fail_all(Fault(**control["fail_all"]) if control["fail_all"] else None)
                if control.get("reset_max"):
                    server.max_in_flight = 0
                self._send(200, b"{}")
                return
            try:
                body = json.loads(raw or b"{}")
            except ValueError:
                body = {}
            rec = Recorded(path=self.path, body=body, started=time.monotonic())
            token = (self.headers.get("Authorization") or "").removeprefix("Bearer ").strip()
            rec.auth_ok = server.expected_api_key is None or token == server.expected_api_key
            with server._lock:
                server.requests.append(rec)
                server._in_flight += 1
                server.max_in_flight = max(server.max_in_flight, server._in_flight)
            self._rec = rec
            try:
                rec.status = self._handle(rec)
            finally:
                self._rec = None
                rec.finished = rec.finished or time.monotonic()
                with server._lock:
                    server._in_flight -= 1

        def _handle(self, rec: Recorded) -> int:
            if not rec.path.rstrip("/").endswith("/chat/completions"):
                self._error(404, "not found")
                return 404
            if not rec.auth_ok:
                self._error(401, "Incorrect API key provided")
                return 401
            if server.latency:
                time.sleep(server.latency)
            reply = server._next_reply(rec)
            if isinstance(reply, Fault):
                return self._fault(rec, reply)
            if isinstance(reply, dict):
                self._send(200, json.dumps(reply).encode())
                return 200
            self._send(200, json.dumps(server._completion_body(rec, str(reply))).encode())
            return 200

        def _fault(self, rec: Recorded, fault: Fault) -> int:
            if fault.kind == "rate_limit":
                headers = {} if fault.retry_after is None else {"Retry-After": f"{fault.retry_after:g}"}
                self._error(429, "Rate limit reached", headers)
                return 429
            if fault.kind == "server_error":
                self._error(fault.status, "The server had an error while processing your request")
                return fault.status
            if fault.kind == "bad_request":
                self._error(400, fault.text)
                return 400
            if fault.kind == "slow":
                time.sleep(fault.seconds)
                try:
                    self._send(200, json.dumps(server._completion_body(rec, fault.text)).encode())
                except OSError:  # the client gave up already
                    pass
                return 200
            if fault.kind == "malformed_content":
                self._send(200, json.dumps(server._completion_body(rec, fault.text)).encode())
                return 200
            if fault.kind == "bad_json":
                self._send(200, b"<html>502 Bad Gateway</html>")
                return 200
            if fault.kind == "truncated":
                full = json.dumps(server._completion_body(rec, "cut")).encode()
                self._send(200, full[: len(full) // 2], length=len(full))
                return 200
            raise ValueError(f"unknown fault {fault.kind!r}")

    return Handler


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAI]:
    """A started FakeOpenAI on 127.0.0.1 (random port), stopped after the test."""
    with FakeOpenAI() as server:
        yield server


class RemoteFakeOpenAI:
    """A FakeOpenAI in a child process, for benchmarks: its CPU does not compete with the client's GIL.

    ``reply`` names an importable "module:function" (a reply_fn); calls, max_in_flight, fail_all()
    and reset_max() go through the /v1/_stats and /v1/_control endpoints.
    """

    def __init__(self, *, latency: float = 0.0, reply: str | None = None):
        self.latency = latency
        self.reply = reply
        self.base_url = ""
        self._proc: Any = None

    def start(self) -> "RemoteFakeOpenAI":
        import subprocess
        import sys

        cmd = [sys.executable, "-m", "tests.support.openai_server", "--latency", str(self.latency)]
        if self.reply:
            cmd += ["--reply", self.reply]
        repo = str(Path(__file__).resolve().parents[2])  # so "-m tests.support..." and the reply module import
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=repo)
        self.base_url = self._proc.stdout.readline().strip()
        if not self.base_url.startswith("http"):
            raise RuntimeError("fake OpenAI server did not start")
        return self

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(timeout=10)
            self._proc = None

    def __enter__(self) -> "RemoteFakeOpenAI":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _call(self, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        import urllib.request

        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base_url + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as resp:
            return json.loads(resp.read() or b"{}")

    @property
    def calls(self) -> int:
        return int(self._call("/_stats")["calls"])

    @property
    def max_in_flight(self) -> int:
        return int(self._call("/_stats")["max_in_flight"])

    def reset_max(self) -> None:
        self._call("/_control", {"reset_max": True})

    def fail_all(self, fault: Fault | None) -> None:
        self._call("/_control", {"fail_all": None if fault is None else dict(fault.__dict__)})


def _main() -> None:
    import argparse
    import importlib
    import signal

    ap = argparse.ArgumentParser(description="Run the fake OpenAI-compatible server until terminated.")
    ap.add_argument("--latency", type=float, default=0.0)
    ap.add_argument("--reply", default=None, help="module:function used as reply_fn")
    args = ap.parse_args()
    server = FakeOpenAI(latency=args.latency).start()
    if args.reply:
        module, func = args.reply.split(":")
        server.reply_fn = getattr(importlib.import_module(module), func)
    print(server.base_url, flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    server.stop()


if __name__ == "__main__":
    import signal

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    _main()
