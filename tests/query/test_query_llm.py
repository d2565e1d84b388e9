"""The LLM navigator and answer() through the real OpenAI provider against a local OpenAI-compatible server."""

from __future__ import annotations

import json

from providers.openai_provider import OpenAIProvider
from providers.settings import ProviderSettings
from query import answer, open_index, search
from query.lexical import Hit
from query.llm import answer as answer_from_hits
from query.llm import llm_search
from tests.support.openai_server import Fault


def _provider(server) -> OpenAIProvider:
    return OpenAIProvider(ProviderSettings(provider="openai", model="gpt-4o-mini", base_url=server.base_url,
                                           api_key="sk-test", timeout=2.0, max_retries=1, retry_base_delay=0.01,
                                           retry_max_delay=0.02, concurrency=2))


def _act(action: str, node_id: str = "", pages: list[int] | None = None) -> str:
    return json.dumps({"relevant_pages": pages or [], "action": action, "node_id": node_id, "reason": f"{action} {node_id}"})


def test_navigator_reads_follows_a_cross_reference_and_cites_pages(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    purpose = next(n.node_id for n in doc.nodes() if n.title == "1.1 Purpose")
    calibration = next(n.node_id for n in doc.nodes() if n.title == "4.2 Calibration")
    openai_server.push(_act("read", purpose))
    openai_server.push(_act("follow", calibration))
    openai_server.push(_act("stop", "", [10]))
    hits, trace = llm_search(doc, "How often must the load sensor be calibrated?", provider=_provider(openai_server), max_steps=6)
    assert [(h.node_id, h.pages) for h in hits] == [(calibration, [10])]
    assert [t["action"] for t in trace] == ["read", "follow", "stop"]
    assert [r["node_id"] for r in trace[0]["xrefs"]][:2] == [calibration, next(n.node_id for n in doc.nodes() if n.title.startswith("Appendix C"))]
    second = openai_server.requests[1]
    assert f"Section 4.2 -> {calibration} 4.2 Calibration" in second.user_text()
    assert "<section_text>" in second.user_text() and "untrusted data" in second.messages[0]["content"]
    assert "1 Introduction" in openai_server.requests[0].user_text()  # the outline it navigates from


def test_made_up_node_ids_and_unseen_pages_are_refused(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    appendix = next(n.node_id for n in doc.nodes() if n.title.startswith("Appendix C"))
    openai_server.push(_act("read", "7777"))
    openai_server.push(_act("follow", appendix))  # never offered as a cross-reference
    openai_server.push(_act("read", appendix))
    openai_server.push(_act("stop", "", [11, 3]))  # page 3 was not shown with this read
    hits, trace = llm_search(doc, "gasket part number", provider=_provider(openai_server), max_steps=6)
    assert trace[0]["refused"] and trace[1]["refused"]
    assert "Unknown or unavailable node id '7777'" in openai_server.requests[1].user_text()
    assert [(h.node_id, h.pages) for h in hits] == [(appendix, [11])]


def test_steps_are_capped(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    openai_server.reply_fn = lambda req: _act("expand", "0002")
    hits, trace = llm_search(doc, "anything", provider=_provider(openai_server), max_steps=3)
    assert len(openai_server.requests) == 3 and len(trace) == 3 and hits == []


def test_model_down_falls_back_to_the_lexical_navigator(query_store, openai_server):
    openai_server.fail_all(Fault.server_error(503))
    result = search("torque limit of the drive", ["acme-handbook"], store=query_store["uri"], navigator="llm",
                    provider=_provider(openai_server))
    assert result.trace[0]["action"] == "fallback"
    assert result.results[0].title == "3 Operation" and result.results[0].pages == [7]


def test_answer_keeps_only_citations_to_text_it_was_given(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    calibration = doc.node(next(n.node_id for n in doc.nodes() if n.title == "4.2 Calibration"))
    openai_server.push(json.dumps({"answer": "Every 90 days.", "claims": [
        {"text": "Calibrate every 90 days", "doc_id": "acme-handbook", "node_id": calibration.node_id, "pages": [10]},
        {"text": "Made up", "doc_id": "acme-handbook", "node_id": "0003", "pages": [2]},
        {"text": "Wrong page", "doc_id": "acme-handbook", "node_id": calibration.node_id, "pages": [99]},
    ]}))
    hit = Hit("acme-handbook", calibration.node_id, doc.path(calibration.node_id), calibration.title, 10, 10, [10], 1.0, doc.version)
    out = answer_from_hits("How often is the sensor calibrated?", [hit], store=query_store["uri"], provider=_provider(openai_server))
    assert out["answer"] == "Every 90 days."
    assert out["claims"] == [{"text": "Calibrate every 90 days", "doc_id": "acme-handbook", "node_id": calibration.node_id, "pages": [10]}]
    assert out["dropped_claims"] == 2
    assert "5 kg reference weight" in openai_server.requests[0].user_text()


def test_answer_end_to_end_searches_then_answers(query_store, openai_server):
    openai_server.push(json.dumps({"answer": "ZX-9981", "claims": []}))
    out = answer("gasket part number", ["acme-handbook"], store=query_store["uri"], provider=_provider(openai_server))
    assert out["answer"] == "ZX-9981" and out["results"][0]["title"] == "Appendix C Spare parts"
    assert "ZX-9981" in openai_server.requests[0].user_text()


def test_http_answer_route_cites_and_needs_a_provider(query_store, openai_server):
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    from query.access import KeyRing
    from query.server import create_app

    def start(app):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        threading.Thread(target=server.run, daemon=True).start()
        deadline = time.monotonic() + 20
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        return server, f"http://127.0.0.1:{port}"

    keys = KeyRing({"k": ["acme-"]})
    with_model, url = start(create_app(query_store["uri"], keys, provider=_provider(openai_server)))
    without, url2 = start(create_app(query_store["uri"], keys))
    try:
        doc = open_index(query_store["uri"], "acme-handbook")
        appendix = next(n.node_id for n in doc.nodes() if n.title.startswith("Appendix C"))
        openai_server.push(json.dumps({"answer": "ZX-9981", "claims": [
            {"text": "The gasket is ZX-9981", "doc_id": "acme-handbook", "node_id": appendix, "pages": [11]}]}))
        r = httpx.post(url + "/v1/answer", json={"question": "gasket part number"}, headers={"X-API-Key": "k"}, timeout=20)
        assert r.status_code == 200, r.text
        assert r.json()["claims"] == [{"text": "The gasket is ZX-9981", "doc_id": "acme-handbook", "node_id": appendix, "pages": [11]}]
        r = httpx.post(url + "/v1/answer", json={"question": "x", "doc_ids": ["globex-10k"]}, headers={"X-API-Key": "k"}, timeout=20)
        assert r.status_code == 403
        r = httpx.post(url2 + "/v1/answer", json={"question": "gasket"}, headers={"X-API-Key": "k"}, timeout=20)
        assert r.status_code == 503
    finally:
        with_model.should_exit = without.should_exit = True


def _cli_env(server) -> dict:
    import os

    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PAGETREE_"))}
    return {**env, "PAGETREE_MODEL": "gpt-4o-mini", "OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "sk-test",
            "PAGETREE_MODEL_MAX_RETRIES": "0"}


def _run_cli(env: dict, *args: str):
    import subprocess
    import sys
    from pathlib import Path

    return subprocess.run([sys.executable, "-m", "flows.cli", *args], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[2], timeout=120)


def test_cli_search_with_the_llm_navigator_uses_the_configured_model(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    calibration = next(n.node_id for n in doc.nodes() if n.title == "4.2 Calibration")
    openai_server.push(_act("read", calibration))
    openai_server.push(_act("stop", "", [10]))
    out = _run_cli(_cli_env(openai_server), "search", "How often is the load sensor calibrated?", "--doc", "acme-handbook",
                   "--navigator", "llm", "--store", query_store["uri"], "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [t["action"] for t in data["trace"]] == ["read", "stop"]  # the model navigated, no lexical fallback
    first = data["results"][0]
    assert (first["node_id"], first["pages"], first["title"]) == (calibration, [10], "4.2 Calibration")
    assert "90 days" in first["snippet"] and first["version"] == doc.version
    assert len(openai_server.requests) == 2
    bare = {k: v for k, v in _cli_env(openai_server).items() if k != "PAGETREE_MODEL"}
    out = _run_cli(bare, "search", "x", "--doc", "acme-handbook", "--navigator", "llm", "--store", query_store["uri"])
    assert out.returncode == 2 and "PAGETREE_MODEL" in out.stderr


def test_cli_answer_prints_the_answer_and_its_citations(query_store, openai_server):
    doc = open_index(query_store["uri"], "acme-handbook")
    appendix = next(n.node_id for n in doc.nodes() if n.title.startswith("Appendix C"))
    openai_server.push(json.dumps({"answer": "ZX-9981", "claims": [
        {"text": "The gasket is ZX-9981", "doc_id": "acme-handbook", "node_id": appendix, "pages": [11]}]}))
    out = _run_cli(_cli_env(openai_server), "answer", "gasket part number", "--doc", "acme-handbook",
                   "--store", query_store["uri"], "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["answer"] == "ZX-9981" and data["claims"][0]["pages"] == [11] and data["dropped_claims"] == 0
    assert data["results"][0]["title"] == "Appendix C Spare parts" and "ZX-9981" in data["results"][0]["snippet"]
    openai_server.fail_all(Fault.server_error(503))
    out = _run_cli(_cli_env(openai_server), "answer", "gasket part number", "--doc", "acme-handbook",
                   "--store", query_store["uri"])
    assert out.returncode == 1 and out.stderr.splitlines()[-1].startswith("pagetree: model error:")
    assert "Traceback" not in out.stderr
