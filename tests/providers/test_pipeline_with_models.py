"""index_document with models from flows.models: stats["model"], description, cache across fingerprints, model down."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf

from flows.models import document_models, pipeline_overrides, provider_settings
from index_store.publish import publish_document
from index_store.store import Store
from parsers.pipeline import PipelineSettings, index_document
from providers.prompts import PROMPT_VERSION
from tests.providers.helpers import API_KEY, echo_summary, long_text
from tests.support.openai_server import FakeOpenAI, Fault

SECTIONS = [(1, "Installation", 2), (2, "Mounting", 2), (2, "Wiring", 3), (1, "Operation", 4), (2, "Start-up", 4),
            (2, "Faults", 5), (1, "Maintenance", 6)]


def _manual(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "X200 Pump Controller Manual", fontsize=16)
    for level, title, pno in SECTIONS:
        while doc.page_count < pno:
            doc.new_page(width=612, height=792)
        page = doc[pno - 1]
        y = 90 if not page.get_text().strip() else 400
        page.insert_text((72, y), title, fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, y + 15, 540, y + 300), long_text(title[:3], 6), fontsize=9)
    doc.set_toc([[lvl, title, pno] for lvl, title, pno in SECTIONS])
    doc.set_metadata({"title": "X200 Pump Controller Manual"})
    doc.save(path)
    doc.close()
    return path


def _env(server: FakeOpenAI) -> dict[str, str]:
    return {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": API_KEY, "PAGETREE_MODEL_MAX_RETRIES": "1",
            "PAGETREE_MODEL_CONCURRENCY": "4"}


def _settings(**kw) -> PipelineSettings:
    base = pipeline_overrides(provider_settings({"PAGETREE_MODEL": "gpt-4o-mini"}))
    return PipelineSettings(ocr=False, **{**base, **kw})


def test_cli_env_resolution_puts_model_names_not_keys_into_settings() -> None:
    assert pipeline_overrides(provider_settings({})) == {}
    env = {"PAGETREE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": API_KEY, "PAGETREE_VISION_MODEL": "gpt-4o"}
    over = pipeline_overrides(provider_settings(env))
    assert over == {"summarizer": "model", "model": "gpt-4o-mini", "vision_model": "gpt-4o", "prompt_version": PROMPT_VERSION}
    assert pipeline_overrides(provider_settings(env, model="gpt-4.1-nano"))["model"] == "gpt-4.1-nano"
    assert API_KEY not in repr(provider_settings(env)) and API_KEY not in str(PipelineSettings(**over).to_dict())
    assert PipelineSettings(**over).fingerprint() != PipelineSettings(**{**over, "prompt_version": "p0"}).fingerprint()


def test_model_summaries_usage_description_and_cache_across_fingerprints(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    openai_server.reply_fn = echo_summary
    pdf = _manual(tmp_path / "x200.pdf")
    store = Store(str(tmp_path / "store"))
    settings = _settings()
    index = index_document(pdf, "x200", settings, **document_models(settings, store, _env(openai_server)))
    model = index.stats["model"]
    calls = openai_server.calls
    assert index.tree.structure_source == "bookmarks"
    assert model["calls"] == calls and model["provider"] == "openai" and model["model"] == "gpt-4o-mini"
    assert model["prompt_tokens"] > 0 and model["cost_usd"] > 0 and model["fallbacks"] == 0
    assert model["summary_sources"].get("model", 0) == model["summarized"] > 0
    assert index.tree.extra["description"]  # the server's default for the description schema is ""-> fallback to root
    assert index.decisions["summaries"]["prompt_version"] == PROMPT_VERSION
    # A new pipeline fingerprint that does not touch summaries: every summary comes from the cache.
    rebuilt_settings = _settings(page_group_size=7)
    assert rebuilt_settings.fingerprint() != settings.fingerprint()
    again = index_document(pdf, "x200", rebuilt_settings, **document_models(rebuilt_settings, store, _env(openai_server)))
    assert again.tree.version != index.tree.version
    assert openai_server.calls == calls + 1  # only the description is asked again (the server gave an empty one)
    assert again.stats["model"]["cache_hits"] == model["summarized"] and again.stats["model"]["summarized"] == 0
    assert [n.summary for n in again.tree.nodes()] == [n.summary for n in index.tree.nodes()]


def test_model_down_whole_document_publishes_extractive(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    openai_server.fail_all(Fault.server_error(503))
    pdf = _manual(tmp_path / "x200.pdf")
    store = Store(str(tmp_path / "store"))
    settings = _settings()
    index = index_document(pdf, "x200", settings, **document_models(settings, store, _env(openai_server)))
    sources = {n.summary_source for n in index.tree.nodes()}
    assert sources <= {"extractive", "text"} and "extractive" in sources
    assert index.stats["model"]["fallbacks"] == index.stats["model"]["summary_sources"]["extractive"] > 0
    assert index.stats["model"]["calls"] == 0
    assert "ProviderUnavailable" in index.decisions["summaries"]["fallback"]["first_error"]
    assert publish_document(store, tree=index.tree, nodes=index.nodes, pages=index.pages, source={"uri": str(pdf)},
                            pipeline={"fingerprint": settings.fingerprint()}, stats=index.stats, decisions=index.decisions)
    stored = store.tree("x200")
    assert {n.summary_source for n in stored.nodes()} == sources
    assert list((tmp_path / "store").glob("cache/summaries/**/*.json")) == []  # fallbacks are never cached


def test_flat_document_gets_its_outline_from_the_llm_fallback(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    """No bookmarks, no printed TOC, headings in body font: only the model can find the sections."""
    titles = ["Overview of the controller", "Electrical connections", "Alarm handling", "Cleaning and care"]
    doc = pymupdf.open()
    for i in range(8):
        body = (titles[i // 2] + " " if i % 2 else "") + long_text(str(i), 5)
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 740), body, fontname="helv", fontsize=10)
    doc.save(tmp_path / "flat.pdf")

    def reply(rec):
        if rec.json_schema and "sections" in rec.json_schema["properties"]:
            proposed = [{"title": t, "level": 1, "page": 2 * k + 2} for k, t in enumerate(titles)]
            return json.dumps({"sections": proposed + [{"title": "Invented appendix", "level": 1, "page": 8}]})
        return echo_summary(rec)

    openai_server.reply_fn = reply
    settings = _settings()
    index = index_document(tmp_path / "flat.pdf", "flat", settings, **document_models(settings, None, _env(openai_server)))
    assert index.tree.structure_source == "llm"
    assert [(n.title, n.start_page) for n in index.tree.root.nodes][-4:] == [(t, 2 * k + 2) for k, t in enumerate(titles)]
    llm = index.decisions["structure"]["tried"][-1]
    assert llm["method"] == "llm" and llm["dropped"]["not_found"] == 1
    assert index.stats["model"]["by_purpose"]["structure"] == 1
