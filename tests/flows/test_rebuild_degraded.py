"""A version published with extractive fallbacks is stale once a model answers; its rebuild re-asks only those
sections. Through the CLI and Prefect's harness, against the local OpenAI-compatible server."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from flows.cli import main
from flows.rebuild import rebuild_stale
from index_store.store import Store
from parsers.samples import generate
from providers.prompts import PROMPT_VERSION
from tests.providers.helpers import API_KEY, describing_reply, last_run
from tests.support.openai_server import FakeOpenAI, Fault

pytestmark = pytest.mark.integration


def manual_only(src: Path) -> Path:
    """The samples folder with only manual.pdf left: one document whose summaries a model writes."""
    generate(src)
    for path in src.iterdir():
        if path.name != "manual.pdf":
            path.unlink()
    return src




@pytest.fixture()
def server(openai_server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeOpenAI:
    openai_server.expected_api_key = API_KEY
    openai_server.reply_fn = describing_reply
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("PAGETREE_MODEL_MAX_RETRIES", "0")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("PAGETREE_MODEL", raising=False)
    return openai_server


def _degraded_nodes(store: Store, doc_id: str) -> int:
    """Nodes whose summary is, or was built on, an extractive fallback (not cached, so asked again)."""
    def count(node) -> tuple[int, bool]:
        total, below = 0, False
        for child in node.nodes:
            n, bad = count(child)
            total, below = total + n, below or bad
        bad = below or node.summary_source == "extractive"
        return total + bad, bad

    return count(store.tree(doc_id).root)[0]


def test_a_run_without_the_key_is_rebuilt_once_the_key_is_set(prefect_harness, server, tmp_path, monkeypatch, capsys):
    src = manual_only(tmp_path / "src")
    store_uri = str(tmp_path / "index")
    args = ["ingest", str(src), "--store", store_uri, "--no-ocr", "--model", "gpt-4o-mini", "--allow-fallback"]
    assert main(args) == 0  # no key: every model call gets a 401 and falls back
    store = Store(store_uri)
    first = store.latest("manual")
    assert first["degraded"]["summaries"] > 0
    assert store.manifest("manual")["degraded"] == first["degraded"]

    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    settings = {"ocr": False, "summarizer": "model", "model": "gpt-4o-mini", "prompt_version": PROMPT_VERSION}
    dry = rebuild_stale(store=store_uri, settings=settings, dry_run=True)
    [doc] = dry["documents"]
    assert doc["stale"][0]["stage"] == "summaries" and "fell back to extractive summaries" in doc["stale"][0]["why"]
    assert doc["work"]["pages_parsed"] == 0 and doc["work"]["ocr_pages"] == 0
    assert doc["work"]["model_calls"] == first["degraded"]["summaries"] + 1
    capsys.readouterr()
    assert main(["rebuild-stale", "--store", store_uri, "--dry-run", "--no-ocr", "--model", "gpt-4o-mini"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("skipped"))
    assert "manual" in line and "fell back to extractive summaries" in line
    assert f"(est. 0 pages to parse, 0 to OCR, {doc['work']['model_calls']} model calls)" in line

    calls = server.calls
    assert main(args) == 0  # with the key: rebuilt from the stored tree, summaries only
    run = last_run(store_uri)
    [outcome] = run["documents"]
    assert outcome["status"] == "changed" and "extractive fallbacks" in outcome["reason"]
    assert outcome["work"]["pages_parsed"] == 0 and run["model_usage"]["fallbacks"] == 0
    latest = store.latest("manual")
    assert "degraded" not in latest and latest["version"] != first["version"]
    assert store.manifest("manual")["reused"]["from_version"] == first["version"]
    assert server.calls - calls == run["model_usage"]["calls"] > 0

    assert main(args) == 0  # and then it is current
    assert last_run(store_uri)["counts"]["unchanged"] == 1


def test_only_the_fallback_sections_are_asked_again(prefect_harness, server, tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)

    def flaky(rec):  # about a third of the sections fail once (a bad request is not retried)
        line = next((ln for ln in rec.user_text().splitlines() if ln.startswith("Section: ")), "")
        return Fault.bad_request("overloaded") if line and zlib.crc32(line.encode()) % 3 == 0 else describing_reply(rec)

    server.reply_fn = flaky
    src = manual_only(tmp_path / "src")
    store_uri = str(tmp_path / "index")
    args = ["ingest", str(src), "--store", store_uri, "--no-ocr", "--model", "gpt-4o-mini", "--allow-fallback"]
    assert main(args) == 0
    store = Store(store_uri)
    first = last_run(store_uri)
    fallbacks = store.latest("manual")["degraded"]["summaries"]
    assert 0 < fallbacks < first["model_usage"]["calls"]
    asked_again = _degraded_nodes(store, "manual")

    server.reply_fn = describing_reply
    assert main(args) == 0
    again = last_run(store_uri)
    assert again["documents"][0]["work"] == {"pages_parsed": 0, "ocr_pages": 0, "model_calls": asked_again + 1}
    assert again["documents"][0]["model"]["cache_hits"] > 0  # the sections that had answered were not asked again
