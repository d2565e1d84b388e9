"""The MCP server through the real mcp client: over stdio (a child process) and streamable HTTP (a child server)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

REPO = Path(__file__).resolve().parents[2]
KEYS = {"k-acme": ["acme-"], "k-all": [""]}


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(PAGETREE_API_KEYS_JSON=json.dumps(KEYS), PYTHONPATH=str(REPO), **extra)
    return env


def _payload(result) -> object:
    assert not result.is_error, result.content
    return result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)


def test_stdio_tools_respect_the_process_key(query_store):
    params = StdioServerParameters(command=sys.executable, args=["-m", "query.mcp_server", "--store", query_store["uri"]],
                                   env=_env(PAGETREE_API_KEY="k-acme"), cwd=str(REPO))

    async def session():
        async with Client(params) as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert {"list_documents", "outline", "read", "read_pages", "grep", "find", "search"} <= names
            docs = _payload(await client.call_tool("list_documents", {}))
            docs = docs["result"] if isinstance(docs, dict) else docs
            assert [d["doc_id"] for d in docs] == ["acme-handbook"]
            found = _payload(await client.call_tool("search", {"question": "spare gasket part number"}))
            assert found["results"][0]["title"] == "Appendix C Spare parts" and found["results"][0]["pages"] == [11]
            outline = _payload(await client.call_tool("outline", {"doc_id": "acme-handbook", "depth": 1}))
            assert outline["nodes"][1]["more"] == "[+2 subsections]"
            denied = await client.call_tool("outline", {"doc_id": "globex-10k"})
            assert denied.is_error and "forbidden" in denied.content[0].text
            missing = await client.call_tool("read", {"doc_id": "acme-handbook", "node_id": "9999"})
            assert missing.is_error and "not found" in missing.content[0].text
            malformed = await client.call_tool("outline", {"doc_id": "acme-handbook", "depth": "deep"})
            assert malformed.is_error

    anyio.run(session)


@pytest.fixture(scope="module")
def mcp_http(query_store):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "query.mcp_server", "--store", query_store["uri"], "--transport", "http",
                             "--port", str(port)], env=_env(), cwd=str(REPO), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            assert time.monotonic() < deadline, "MCP HTTP server did not start"
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    proc.wait(10)


def _http_client(url: str, key: str) -> Client:
    return Client(streamable_http_client(url, http_client=create_mcp_http_client(headers={"X-API-Key": key})))


def test_http_tools_use_the_callers_key(mcp_http):
    async def session():
        async with _http_client(mcp_http, "k-acme") as client:
            denied = await client.call_tool("read_pages", {"doc_id": "globex-10k", "pages": "1"})
            assert denied.is_error and "forbidden" in denied.content[0].text
            pages = _payload(await client.call_tool("read_pages", {"doc_id": "acme-handbook", "pages": "10"}))
            pages = pages["result"] if isinstance(pages, dict) else pages
            assert "reference weight" in pages[0]["text"]
            hits = _payload(await client.call_tool("grep", {"doc_id": "acme-handbook", "pattern": "FZ-\\d+"}))
            hits = hits["result"] if isinstance(hits, dict) else hits
            assert [h["page"] for h in hits] == [11]
            bad = await client.call_tool("read_pages", {"doc_id": "acme-handbook", "pages": "2-1"})
            assert bad.is_error and "invalid request" in bad.content[0].text
        async with _http_client(mcp_http, "k-all") as client:
            found = _payload(await client.call_tool("search", {"question": "interest rate market risk", "doc_ids": ["globex-10k"]}))
            assert found["results"][0]["node_id"] and found["results"][0]["doc_id"] == "globex-10k"
            assert found["results"][0]["title"].startswith("Item 7A")
        async with _http_client(mcp_http, "k-unknown") as client:
            refused = await client.call_tool("list_documents", {})
            assert refused.is_error and "unauthorized" in refused.content[0].text

    anyio.run(session)
