"""HTTP API over a store (FastAPI): documents, tree, read, pages, grep, find, search, answer.

Every route checks the caller's API key against the document prefixes it may
see (query.access): a document outside them is refused with 403 before the
store is touched, and search only ever looks inside allowed documents.
Typed query errors map to statuses (404 an unknown document, version or node,
400 invalid, 422 a page beyond the document); malformed requests are 422
(FastAPI validation); request bodies over MAX_BODY_BYTES are
413. OpenAPI schema at /openapi.json; /docs lists the routes from it as plain
HTML (no Swagger UI from a CDN: it stayed blank offline).
"""

from __future__ import annotations

from typing import Any

import html

from fastapi import Depends, FastAPI, Header, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from query.access import KeyRing, Principal, load_keys
from query.errors import Forbidden, QueryError
from query.index import DEFAULT_MAX_CHARS, open_index, open_store, versions
from query.search import search

DOC_ID = Path(..., min_length=1, max_length=200, pattern=r"^[A-Za-z0-9][A-Za-z0-9._\-]*$")
VERSION_PATTERN = r"^[vV]?[0-9a-f]{16}$"  # the v prefix is how `pagetree list` prints a version
VERSION = Query(None, pattern=VERSION_PATTERN)
MAX_BODY_BYTES = 256 * 1024  # a search body is at most ~25 KB (question 4000 chars, 50 doc ids)


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` is refused with 413, by its Content-Length or, when
    streamed without one, as soon as that many bytes have arrived (it is never read whole)."""

    def __init__(self, app: Any, max_bytes: int = MAX_BODY_BYTES):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b"") or b"")
            if seen > self.max_bytes:
                raise HTTPException(413, f"request body larger than {self.max_bytes} bytes")
            return message

        await self.app(scope, limited, send)

    async def _refuse(self, scope: Any, receive: Any, send: Any) -> None:
        response = JSONResponse({"detail": f"request body larger than {self.max_bytes} bytes"}, status_code=413)
        await response(scope, receive, send)


class SearchRequest(BaseModel):
    question: str = Field(..., min_length=1, max_length=4000)
    doc_ids: list[str] | None = Field(None, max_length=50)
    navigator: str = Field("lexical", pattern="^(lexical|llm)$")
    max_steps: int = Field(60, ge=1, le=500)
    top_k: int = Field(10, ge=1, le=100)
    max_docs: int = Field(3, ge=1, le=50)
    version: str | None = Field(None, pattern=VERSION_PATTERN)


def create_app(store: str, keys: KeyRing | None = None, provider: Any = None) -> FastAPI:
    """The app for one store; ``keys`` defaults to load_keys() (env), ``provider`` serves navigator=llm."""
    keyring = keys if keys is not None else load_keys()
    app = FastAPI(title="pagetree query API", version="1",
                  description="Tree search with citations over a pagetree index store.", docs_url=None, redoc_url=None)
    app.add_middleware(BodyLimit, max_bytes=MAX_BODY_BYTES)

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        """The routes, from the OpenAPI schema, as a page that needs nothing from the network."""
        rows = []
        for path, methods in app.openapi().get("paths", {}).items():
            for method, op in methods.items():
                params = ", ".join(p["name"] for p in op.get("parameters", []))
                rows.append(f"<tr><td>{html.escape(method.upper())}</td><td><code>{html.escape(path)}</code></td>"
                            f"<td>{html.escape(op.get('summary', ''))}</td><td>{html.escape(params)}</td></tr>")
        return HTMLResponse(
            f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(app.title)}</title></head><body>"
            f"<h1>{html.escape(app.title)}</h1><p>{html.escape(app.description)} Machine-readable schema: "
            "<a href='/openapi.json'>/openapi.json</a>. Send the API key as <code>X-API-Key</code> or "
            "<code>Authorization: Bearer</code>.</p><table border='1' cellpadding='4'><tr><th>method</th><th>path</th>"
            f"<th>summary</th><th>parameters</th></tr>{''.join(rows)}</table></body></html>")

    @app.exception_handler(QueryError)
    async def query_error(_: Request, exc: QueryError) -> JSONResponse:
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return JSONResponse({"detail": str(exc), "error": type(exc).__name__}, status_code=exc.status, headers=headers)

    def caller(x_api_key: str | None = Header(None), authorization: str | None = Header(None)) -> Principal:
        key = x_api_key
        if not key and authorization and authorization.lower().startswith("bearer "):
            key = authorization[7:].strip()
        return keyring.principal(key)

    def allowed(doc_id: str, who: Principal) -> str:
        if not who.allows(doc_id):
            raise Forbidden(f"document {doc_id!r} is outside the prefixes of this API key")
        return doc_id

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/v1/documents")
    def list_documents(who: Principal = Depends(caller)) -> list[dict[str, Any]]:
        """Catalog rows (latest version, title, pages) of the documents this key may see."""
        return [row for row in open_store(store).catalog() if who.allows(row["doc_id"])]

    @app.get("/v1/documents/{doc_id}/versions")
    def document_versions(doc_id: str = DOC_ID, who: Principal = Depends(caller)) -> list[dict[str, Any]]:
        return versions(store, allowed(doc_id, who))

    @app.get("/v1/documents/{doc_id}/tree")
    def tree(doc_id: str = DOC_ID, node_id: str = Query("0000", max_length=12), depth: int = Query(2, ge=0, le=10),
             version: str | None = VERSION, who: Principal = Depends(caller)) -> dict[str, Any]:
        """The outline under ``node_id``, ``depth`` levels deep, with summaries and [+N subsections]."""
        doc = open_index(store, allowed(doc_id, who), version)
        return {"doc_id": doc.doc_id, "version": doc.version, "structure_source": doc.tree.structure_source,
                "page_count": doc.tree.page_count, "outline": doc.outline(node_id, depth=depth)}

    @app.get("/v1/documents/{doc_id}/nodes/{node_id}")
    def read(doc_id: str = DOC_ID, node_id: str = Path(..., max_length=12),
             max_chars: int = Query(DEFAULT_MAX_CHARS, ge=1, le=200_000), cursor: int = Query(0, ge=0),
             version: str | None = VERSION, who: Principal = Depends(caller)) -> dict[str, Any]:
        """A section's text with its path and pages; long sections continue at ``next_cursor``."""
        return open_index(store, allowed(doc_id, who), version).read(node_id, max_chars=max_chars, cursor=cursor)

    @app.get("/v1/documents/{doc_id}/pages")
    def pages(doc_id: str = DOC_ID, spec: str = Query(..., min_length=1, max_length=200, examples=["5-10,12"]),
              version: str | None = VERSION, who: Principal = Depends(caller)) -> list[dict[str, Any]]:
        return open_index(store, allowed(doc_id, who), version).read_pages(spec)

    @app.get("/v1/documents/{doc_id}/grep")
    def grep(doc_id: str = DOC_ID, pattern: str = Query(..., min_length=1, max_length=500),
             node_id: str | None = Query(None, max_length=12), pages: str | None = Query(None, max_length=200),
             max_hits: int = Query(50, ge=1, le=200), version: str | None = VERSION,
             who: Principal = Depends(caller)) -> list[dict[str, Any]]:
        """RE2 regex hits, scoped to a section and/or pages, capped."""
        return open_index(store, allowed(doc_id, who), version).grep(pattern, node_id=node_id, pages=pages, max_hits=max_hits)

    @app.get("/v1/documents/{doc_id}/find")
    def find(doc_id: str = DOC_ID, text: str = Query(..., min_length=1, max_length=500), version: str | None = VERSION,
             who: Principal = Depends(caller)) -> list[dict[str, Any]]:
        return open_index(store, allowed(doc_id, who), version).find(text)

    @app.post("/v1/search")
    def search_route(body: SearchRequest, who: Principal = Depends(caller)) -> dict[str, Any]:
        """Ranked sections with citations, best first, and the navigator's trace."""
        for doc_id in body.doc_ids or []:
            allowed(doc_id, who)
        result = search(body.question, body.doc_ids, store=store, navigator=body.navigator, max_steps=body.max_steps,
                        top_k=body.top_k, max_docs=body.max_docs, provider=provider, version=body.version,
                        doc_filter=who.allows)
        return result.to_dict()

    @app.post("/v1/answer")
    def answer_route(body: SearchRequest, who: Principal = Depends(caller)) -> dict[str, Any]:
        """Search, then the model answers from the hits' pages; every claim cites node_id and pages."""
        from query.llm import answer as llm_answer

        if provider is None:
            raise Unavailable("answers need a model provider: start the server with PAGETREE_MODEL set")
        for doc_id in body.doc_ids or []:
            allowed(doc_id, who)
        found = search(body.question, body.doc_ids, store=store, navigator=body.navigator, max_steps=body.max_steps,
                       top_k=min(body.top_k, 10), max_docs=body.max_docs, provider=provider, version=body.version,
                       doc_filter=who.allows)
        out = llm_answer(body.question, found.results, store=store, provider=provider)
        out["results"] = [h.to_dict() for h in found.results]
        return out

    return app


class Unavailable(QueryError):
    """A feature that needs a model provider the server was started without (HTTP 503)."""

    status = 503


def serve(store: str, host: str = "127.0.0.1", port: int = 8080, keys_file: str | None = None) -> None:
    """Run the API with uvicorn (blocking)."""
    import uvicorn

    from query.llm import provider_from_env

    app = create_app(store, load_keys(keys_file), provider=provider_from_env())
    uvicorn.run(app, host=host, port=port, log_level="info")
