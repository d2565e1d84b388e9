"""The HTTP API end to end: a real uvicorn server on localhost, an httpx client, API keys with doc prefixes."""

from __future__ import annotations

import json
import socket
import threading
import time

import httpx
import pytest
import uvicorn

from query.access import load_keys
from query.server import create_app

KEYS = {"keys": {"k-acme": {"name": "acme team", "prefixes": ["acme-"]}, "k-all": {"prefixes": [""]}}}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def api(query_store, tmp_path_factory):
    keys_file = tmp_path_factory.mktemp("keys") / "keys.json"
    keys_file.write_text(json.dumps(KEYS))
    app = create_app(query_store["uri"], load_keys(keys_file))
    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _get(api, path, key="k-acme", **params):
    return httpx.get(api + path, params=params, headers={"X-API-Key": key} if key else {}, timeout=10)


def test_documents_are_listed_only_within_the_key_prefixes(api):
    assert [d["doc_id"] for d in _get(api, "/v1/documents").json()] == ["acme-handbook"]
    assert sorted(d["doc_id"] for d in _get(api, "/v1/documents", key="k-all").json()) == ["acme-handbook", "globex-10k"]
    bearer = httpx.get(api + "/v1/documents", headers={"Authorization": "Bearer k-all"}, timeout=10)
    assert len(bearer.json()) == 2


def test_missing_or_unknown_key_is_401(api):
    assert _get(api, "/v1/documents", key=None).status_code == 401
    assert _get(api, "/v1/documents", key="k-wrong").status_code == 401


def test_document_outside_prefixes_is_refused_on_every_route(api):
    for path in ("/v1/documents/globex-10k/tree", "/v1/documents/globex-10k/nodes/0001",
                 "/v1/documents/globex-10k/versions"):
        r = _get(api, path)
        assert r.status_code == 403, (path, r.text)
        assert "Item 7" not in r.text
    r = _get(api, "/v1/documents/globex-10k/pages", spec="1")
    assert r.status_code == 403
    r = httpx.post(api + "/v1/search", json={"question": "interest rates", "doc_ids": ["globex-10k"]},
                   headers={"X-API-Key": "k-acme"}, timeout=10)
    assert r.status_code == 403


def test_search_without_doc_ids_only_looks_inside_allowed_documents(api):
    r = httpx.post(api + "/v1/search", json={"question": "Globex interest rate market risk"},
                   headers={"X-API-Key": "k-acme"}, timeout=10)
    assert r.status_code == 200
    assert {h["doc_id"] for h in r.json()["results"]} <= {"acme-handbook"}
    r = httpx.post(api + "/v1/search", json={"question": "Globex interest rate market risk"},
                   headers={"X-API-Key": "k-all"}, timeout=10)
    top = r.json()["results"][0]
    assert (top["doc_id"], top["title"]) == ("globex-10k", "Item 7A. Quantitative and Qualitative Disclosures About Market Risk")


def test_tree_read_pages_grep_find_and_search(api):
    tree = _get(api, "/v1/documents/acme-handbook/tree", depth=1).json()
    assert tree["outline"]["nodes"][0]["more"] == "[+2 subsections]"
    read = _get(api, "/v1/documents/acme-handbook/nodes/0006", max_chars=300).json()
    assert read["truncated"] and read["next_cursor"] == 300 and len(read["text"]) == 300
    pages = _get(api, "/v1/documents/acme-handbook/pages", spec="10-11").json()
    assert [p["page"] for p in pages] == [10, 11]
    hits = _get(api, "/v1/documents/acme-handbook/grep", pattern=r"ZX-\d+").json()
    assert [(h["page"], h["match"]) for h in hits] == [(11, "ZX-9981")]
    found = _get(api, "/v1/documents/acme-handbook/find", text="newton metres").json()
    assert [f["title"] for f in found] == ["3 Operation"]
    r = httpx.post(api + "/v1/search", json={"question": "how often is the load sensor calibrated?", "doc_ids": ["acme-handbook"]},
                   headers={"X-API-Key": "k-acme"}, timeout=10).json()
    assert r["results"][0]["path"] == "4 Maintenance > 4.2 Calibration" and r["results"][0]["pages"] == [10]
    assert any(step["action"] == "expand" for step in r["trace"])


def test_not_found_and_malformed_requests(api):
    assert _get(api, "/v1/documents/acme-nope/tree").status_code == 404
    assert _get(api, "/v1/documents/acme-handbook/nodes/9999").status_code == 404
    assert _get(api, "/v1/documents/acme-handbook/tree", version="0123456789abcdef").status_code == 404
    assert _get(api, "/v1/documents/acme-handbook/pages", spec="99").status_code == 422  # a bad spec, not a lost page
    assert _get(api, "/v1/documents/acme-handbook/pages", spec="x-y").status_code == 400
    assert _get(api, "/v1/documents/acme-handbook/grep", pattern="(a)\\1").status_code == 400
    assert _get(api, "/v1/documents/acme-handbook/tree", depth=99).status_code == 422
    assert _get(api, "/v1/documents/acme-handbook/nodes/0007", max_chars=10**9).status_code == 422
    bad = httpx.post(api + "/v1/search", json={"doc_ids": "acme-handbook"}, headers={"X-API-Key": "k-acme"}, timeout=10)
    assert bad.status_code == 422
    bad = httpx.post(api + "/v1/search", content=b"{not json", headers={"X-API-Key": "k-acme", "content-type": "application/json"}, timeout=10)
    assert bad.status_code == 422


def test_openapi_schema_lists_the_routes(api):
    schema = httpx.get(api + "/openapi.json", timeout=10).json()
    paths = set(schema["paths"])
    assert {"/v1/documents", "/v1/documents/{doc_id}/tree", "/v1/documents/{doc_id}/nodes/{node_id}",
            "/v1/documents/{doc_id}/pages", "/v1/documents/{doc_id}/grep", "/v1/search"} <= paths
