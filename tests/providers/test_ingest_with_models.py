"""`pagetree ingest --model` through the Prefect flows against the local OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.cli import main
from index_store.store import Store
from tests.providers.helpers import API_KEY, describing_reply, last_run
from tests.support.openai_server import FakeOpenAI, Fault

pytestmark = pytest.mark.integration




@pytest.fixture()
def model_env(openai_server: FakeOpenAI, monkeypatch: pytest.MonkeyPatch) -> FakeOpenAI:
    monkeypatch.setenv("OPENAI_BASE_URL", openai_server.base_url)
    monkeypatch.setenv("OPENAI_API_KEY", API_KEY)
    monkeypatch.setenv("PAGETREE_MODEL_MAX_RETRIES", "1")
    monkeypatch.delenv("PAGETREE_MODEL", raising=False)
    return openai_server


def test_ingest_with_model_then_new_fingerprint_costs_no_calls(prefect_harness, samples_dir: Path, tmp_path: Path,
                                                             model_env: FakeOpenAI, caplog: pytest.LogCaptureFixture) -> None:
    model_env.reply_fn = describing_reply
    store = str(tmp_path / "index")
    assert main(["ingest", str(samples_dir), "--store", store, "--no-ocr", "--model", "gpt-4o-mini"]) == 0
    run = last_run(store)
    usage = run["model_usage"]
    assert run["counts"]["published"] == 5  # the samples: 3 PDFs, an HTML 10-Q, a Markdown manual
    assert usage["calls"] == model_env.calls > 0 and usage["cost_usd"] > 0 and usage["fallbacks"] == 0
    manual = Store(store).tree("manual")
    assert manual.extra["description"] == "A generated sample document."
    assert "model" in {n.summary_source for n in manual.nodes()}
    assert Store(store).manifest("manual")["pipeline"]["settings"]["model"] == "gpt-4o-mini"
    calls = model_env.calls
    assert main(["ingest", str(samples_dir), "--store", store, "--no-ocr", "--model", "gpt-4o-mini",
                 "--page-group-size", "7"]) == 0
    again = last_run(store)
    assert again["counts"]["published"] == 5 and model_env.calls == calls  # 100% cache hits
    assert again["model_usage"]["calls"] == 0
    # Every document that called the model the first time is served from the cache now.
    called = {d["doc_id"] for d in run["documents"] if d["model"].get("calls")}
    assert called >= {"manual", "filing", "scanned"}
    assert all(d["model"]["cache_hits"] > 0 for d in again["documents"] if d["doc_id"] in called)
    assert API_KEY not in caplog.text and API_KEY not in json.dumps(again)


def test_model_unavailable_for_the_whole_run_everything_publishes_extractive(prefect_harness, samples_dir: Path,
                                                                           tmp_path: Path, model_env: FakeOpenAI) -> None:
    model_env.fail_all(Fault.server_error(503))
    store = str(tmp_path / "index")
    assert main(["ingest", str(samples_dir), "--store", store, "--no-ocr", "--model", "gpt-4o-mini"]) == 0
    run = last_run(store)
    assert run["counts"]["published"] == 5 and run["counts"]["failed"] == 0
    assert run["model_usage"]["calls"] == 0 and run["model_usage"]["fallbacks"] > 0
    for doc in run["documents"]:
        sources = {n.summary_source for n in Store(store).tree(doc["doc_id"]).nodes()}
        assert "model" not in sources
        assert doc["model"]["fallbacks"] == doc["model"]["summary_sources"].get("extractive", 0)
    from flows.report import DocOutcome, RunReport

    report = RunReport(run["run_id"], "ingest", run["source"], store, run["fingerprint"], run["started_at"],
                       documents=[DocOutcome(d["doc_id"], d["uri"], d["status"], model=d["model"]) for d in run["documents"]])
    assert f"{run['model_usage']['fallbacks']} extractive fallbacks" in report.to_text()
