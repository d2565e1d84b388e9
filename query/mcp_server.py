"""MCP server exposing the query tools to agents (stdio and streamable HTTP), on the `mcp` 2.x SDK.

Tools: list_documents, outline, read, read_pages, grep, find, search, answer. Access
follows query.access: over HTTP the caller's X-API-Key / Bearer key picks its
document prefixes; over stdio the process's own key ($PAGETREE_API_KEY) does
(or everything, when no key config exists). Query errors come back as tool
errors with their message ("not found: ...", "forbidden: ...").
"""

from __future__ import annotations

import os
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from query.access import KeyRing, Principal, load_keys
from query.errors import Forbidden, InvalidRequest, QueryError
from query.index import DEFAULT_MAX_CHARS, open_index, open_store
from query.search import answer as run_answer
from query.search import search as run_search

MCP_MAX_CHARS = 50_000  # an agent's context is the budget: larger reads continue with the cursor


def build_server(store: str, keys: KeyRing | None = None, stdio_key: str | None = None, provider: Any = None) -> MCPServer:
    """An MCPServer over ``store``; ``stdio_key`` identifies the caller when there is no HTTP request."""
    keyring = keys if keys is not None else load_keys()
    stdio_key = stdio_key if stdio_key is not None else os.environ.get("PAGETREE_API_KEY")
    server = MCPServer("pagetree", instructions=(
        "Search and read indexed PDFs as section trees. Start with search (or list_documents then outline), "
        "read sections or page ranges, and cite doc_id, node_id and pages."))

    def who(ctx: Context | None) -> Principal:
        request = getattr(getattr(ctx, "request_context", None), "request", None) if ctx is not None else None
        if request is None:
            return keyring.principal(stdio_key)
        key = request.headers.get("x-api-key")
        auth = request.headers.get("authorization") or ""
        if not key and auth.lower().startswith("bearer "):
            key = auth[7:].strip()
        return keyring.principal(key)

    def doc(ctx: Context, doc_id: str, version: str | None = None) -> Any:
        if not who(ctx).allows(doc_id):
            raise Forbidden(f"document {doc_id!r} is outside the prefixes of this API key")
        return open_index(store, doc_id, version)

    def guarded(fn: Any) -> Any:
        """Turn query errors into tool errors that keep their message."""
        import functools

        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except QueryError as exc:
                label = {401: "unauthorized", 403: "forbidden", 404: "not found", 400: "invalid request",
                         422: "invalid request"}.get(exc.status, "error")
                raise ToolError(f"{label}: {exc}") from None
        return wrapper

    @server.tool()
    @guarded
    def list_documents(ctx: Context) -> list[dict[str, Any]]:
        """Documents you may read: doc_id, latest version, title, page_count, structure_source."""
        principal = who(ctx)
        return [row for row in open_store(store).catalog() if principal.allows(row["doc_id"])]

    @server.tool()
    @guarded
    def outline(ctx: Context, doc_id: str, node_id: str = "0000", depth: int = 2, version: str | None = None) -> dict[str, Any]:
        """A document's section tree under node_id, depth 1-3 levels, with summaries and "[+N subsections]"."""
        return doc(ctx, doc_id, version).outline(node_id, depth=max(0, min(depth, 3)))

    @server.tool()
    @guarded
    def read(ctx: Context, doc_id: str, node_id: str, max_chars: int = DEFAULT_MAX_CHARS, cursor: int = 0,
             version: str | None = None) -> dict[str, Any]:
        """A section's text with its path and page range; continue a truncated read with next_cursor."""
        return doc(ctx, doc_id, version).read(node_id, max_chars=max(1, min(max_chars, MCP_MAX_CHARS)), cursor=cursor)

    @server.tool()
    @guarded
    def read_pages(ctx: Context, doc_id: str, pages: str, version: str | None = None) -> list[dict[str, Any]]:
        """Pages by 1-based physical number, e.g. "5-10,12", each with its label and section path."""
        return doc(ctx, doc_id, version).read_pages(pages, max_chars=MCP_MAX_CHARS)

    @server.tool()
    @guarded
    def grep(ctx: Context, doc_id: str, pattern: str, node_id: str | None = None, pages: str | None = None,
             max_hits: int = 50) -> list[dict[str, Any]]:
        """RE2 regex over lines, optionally inside one section (node_id) and/or pages; capped hits."""
        return doc(ctx, doc_id).grep(pattern, node_id=node_id, pages=pages, max_hits=max_hits)

    @server.tool()
    @guarded
    def find(ctx: Context, doc_id: str, text: str) -> list[dict[str, Any]]:
        """Sections containing an exact phrase (case-insensitive), with the pages it is on."""
        return doc(ctx, doc_id).find(text)

    @server.tool()
    @guarded
    def search(ctx: Context, question: str, doc_ids: list[str] | None = None, top_k: int = 5,
               max_steps: int = 60) -> dict[str, Any]:
        """Tree search: sections ranked best first with citations (doc_id, node_id, path, pages) and the trace."""
        principal = who(ctx)
        for doc_id in doc_ids or []:
            if not principal.allows(doc_id):
                raise Forbidden(f"document {doc_id!r} is outside the prefixes of this API key")
        result = run_search(question, doc_ids, store=store, top_k=max(1, min(top_k, 50)), max_steps=max_steps,
                            provider=provider, doc_filter=principal.allows)
        return result.to_dict()

    @server.tool()
    @guarded
    def answer(ctx: Context, question: str, doc_ids: list[str] | None = None, top_k: int = 5) -> dict[str, Any]:
        """Search, then the model's answer; every claim cites doc_id, node_id and pages it was shown."""
        principal = who(ctx)
        for doc_id in doc_ids or []:
            if not principal.allows(doc_id):
                raise Forbidden(f"document {doc_id!r} is outside the prefixes of this API key")
        if provider is None:
            raise InvalidRequest("answers need a model provider: start the server with PAGETREE_MODEL set")
        return run_answer(question, doc_ids, store=store, provider=provider, top_k=max(1, min(top_k, 10)),
                          doc_filter=principal.allows)

    return server


def run_server(store: str, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8081) -> None:
    """Serve over stdio or streamable HTTP (at http://host:port/mcp); blocking."""
    server = build_server(store)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description="pagetree MCP server")
    ap.add_argument("--store", default=os.environ.get("PAGETREE_STORE", "./index"),
                    help="index store: folder or s3://bucket/prefix (default: $PAGETREE_STORE or ./index)")
    ap.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                    help="stdio for a local agent, http for streamable HTTP at /mcp (default stdio)")
    ap.add_argument("--host", default="127.0.0.1", help="address to listen on with --transport http (default 127.0.0.1)")
    ap.add_argument("--port", type=int, default=8081, help="port to listen on with --transport http (default 8081)")
    a = ap.parse_args()
    run_server(a.store, a.transport, a.host, a.port)
