"""A real S3 server for tests: moto's ThreadedMotoServer over HTTP, plus a fault-injecting proxy.

The proxy sits between boto3 and moto and, for requests matching a rule,
answers 503 SlowDown / 403 AccessDenied, or forwards the request but cuts the
body short (a truncated download) — faults moto cannot produce on its own.
Import the fixtures into a test module: ``from tests.support.s3 import moto_endpoint, s3, fault_proxy``.
"""

from __future__ import annotations

import http.client
import os
import threading
import time
import uuid
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator

import pytest

CREDENTIALS = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_DEFAULT_REGION": "us-east-1",
}


def start_moto() -> tuple[Any, str]:
    """Start moto on a free port; return (server, endpoint URL)."""
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line per request drowns the test output
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    return server, f"http://{host}:{port}"


def client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    return boto3.session.Session().client(
        "s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="testing",
        aws_secret_access_key="testing", config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


@pytest.fixture(scope="session")
def moto_endpoint() -> Iterator[str]:
    """URL of a moto S3 server for the session; credentials are set in the environment for it."""
    old = {k: os.environ.get(k) for k in CREDENTIALS}
    os.environ.update(CREDENTIALS)
    server, endpoint = start_moto()
    try:
        yield endpoint
    finally:
        server.stop()
        for key, value in old.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


@pytest.fixture
def s3(moto_endpoint: str) -> Any:
    """A boto3 client on the moto server (no retries: tests see raw behaviour)."""
    return client(moto_endpoint)


def new_bucket(s3_client: Any, stem: str = "b") -> str:
    name = f"{stem}-{uuid.uuid4().hex[:10]}"
    s3_client.create_bucket(Bucket=name)
    return name


@dataclass
class Fault:
    """Answer ``action`` to ``times`` requests whose path contains ``match``.

    '503' SlowDown, '403' AccessDenied, 'truncate' (half the body, then hang up),
    'delete' (delete the object upstream, then forward: a key removed between listing and download),
    'stall' (wait ``stall_seconds``, then forward: a download that hangs).
    """

    match: str
    action: str
    times: int = 1_000_000
    method: str = "GET"
    hits: int = 0


@dataclass
class FaultProxy:
    upstream: str
    faults: list[Fault] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    requests: int = 0
    url: str = ""
    log: list[str] = field(default_factory=list)  # "METHOD path" of every request, in arrival order
    arrived: list[float] = field(default_factory=list)  # time.monotonic() of each request in ``log``
    stall_seconds: float = 3.0

    def add(self, match: str, action: str, times: int = 1_000_000, method: str = "GET") -> Fault:
        fault = Fault(match, action, times, method)
        with self.lock:
            self.faults.append(fault)
        return fault

    def take(self, method: str, path: str) -> str | None:
        with self.lock:
            self.requests += 1
            self.log.append(f"{method} {path}")
            self.arrived.append(time.monotonic())
            for fault in self.faults:
                if fault.method == method and fault.match in path and fault.hits < fault.times:
                    fault.hits += 1
                    return fault.action
        return None


_ERRORS = {
    "503": (503, "SlowDown", "Please reduce your request rate."),
    "403": (403, "AccessDenied", "Access Denied"),
}


def _handler(proxy: FaultProxy) -> type[BaseHTTPRequestHandler]:
    host, port = proxy.upstream.removeprefix("http://").split(":")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _relay(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            action = proxy.take(self.command, self.path)
            if action in _ERRORS:
                status, code, message = _ERRORS[action]
                payload = (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
                           f"<Message>{message}</Message><RequestId>proxy</RequestId></Error>").encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)
                return
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("connection", "content-length")}
            if action == "stall":
                time.sleep(proxy.stall_seconds)
            if action == "delete":
                conn = http.client.HTTPConnection(host, int(port), timeout=30)
                conn.request("DELETE", self.path.split("?")[0], headers=headers)
                conn.getresponse().read()
                conn.close()
            conn = http.client.HTTPConnection(host, int(port), timeout=30)
            if body is not None:
                headers["Content-Length"] = str(len(body))
            conn.request(self.command, self.path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
            conn.close()
            self.send_response(response.status)
            for key, value in response.getheaders():
                if key.lower() not in ("connection", "transfer-encoding", "content-length", "server", "date"):
                    self.send_header(key, value)
            self.send_header("Content-Length", str(len(data)))
            if action == "truncate":
                # Announce the full length, send half, hang up: what a dropped connection looks like.
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(data[: len(data) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = _relay

    return Handler


def start_proxy(upstream: str) -> tuple[FaultProxy, ThreadingHTTPServer]:
    proxy = FaultProxy(upstream)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(proxy))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"
    return proxy, server


@pytest.fixture
def fault_proxy(moto_endpoint: str) -> Iterator[FaultProxy]:
    """A proxy in front of moto; add faults with ``proxy.add(match, action, times)``; use ``proxy.url`` as endpoint."""
    proxy, server = start_proxy(moto_endpoint)
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()


def pdf_bytes(title: str, pages: int = 3) -> bytes:
    """A small born-digital PDF with a heading and some text per page (built in code, never committed)."""
    import pymupdf

    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page()
        page.insert_text((72, 72), f"{title}: chapter {n}", fontsize=16)
        page.insert_text((72, 110), f"Body text of {title} on page {n}. " * 3, fontsize=10)
    doc.set_metadata({"title": title})
    data = doc.tobytes()
    doc.close()
    return data
