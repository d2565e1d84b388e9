"""Staleness explained per stage, and the work estimate, from a manifest alone (no store, no Prefect)."""

from __future__ import annotations

from flows.reuse import estimate, explain, model_available
from parsers.pipeline import PipelineSettings
from providers.prompts import PROMPT_VERSION

STATS = {"pages": 40, "ocr_pages": 6, "ocr_pages_read": 6, "ocr_cache_hits": 0,
         "model": {"summarizer": "extractive", "summarized": 30, "fallbacks": 0, "cache_hits": 0}}


def manifest(settings: PipelineSettings, **extra) -> dict:
    return {"version": "0123456789abcdef", "pipeline": settings.record(), "source": {"sha256": "abc"},
            "structure_source": "toc", "stats": STATS, **extra}


def test_a_setting_names_its_stage_with_old_and_new_values():
    old = manifest(PipelineSettings())
    reuse = explain(old, PipelineSettings(max_leaf_pages=5), "abc", retry_degraded=False)
    assert [s.to_dict() for s in reuse.stale] == [{"stage": "structure", "why": "setting max_leaf_pages 10 -> 5"}]
    assert not reuse.resummarize and reuse.first == "structure"
    # OCR'd pages come from the cache when the old version lists its entries; else they are read again
    assert estimate(old, reuse, PipelineSettings(max_leaf_pages=5)) == {"pages_parsed": 40, "ocr_pages": 6, "model_calls": 0}
    cached = manifest(PipelineSettings(), cache_refs={"ocr": ["k"] * 6})
    assert estimate(cached, reuse, PipelineSettings(max_leaf_pages=5))["ocr_pages"] == 0


def test_switching_on_a_model_is_a_summaries_only_rebuild():
    new = PipelineSettings(summarizer="model", model="gpt-4o-mini", prompt_version=PROMPT_VERSION)
    reuse = explain(manifest(PipelineSettings()), new, "abc", retry_degraded=False)
    assert {s.stage for s in reuse.stale} == {"summaries", "prompts"} and reuse.resummarize
    assert "setting model null -> gpt-4o-mini" in reuse.why()
    assert estimate(manifest(PipelineSettings()), reuse, new) == {"pages_parsed": 0, "ocr_pages": 0, "model_calls": 31}


def test_a_model_change_restructures_a_tree_the_model_recovered():
    old = manifest(PipelineSettings(summarizer="model", model="a", prompt_version=PROMPT_VERSION), structure_source="llm")
    reuse = explain(old, PipelineSettings(summarizer="model", model="b", prompt_version=PROMPT_VERSION), "abc",
                    retry_degraded=False)
    assert reuse.first == "structure" and not reuse.resummarize


def test_an_old_manifest_without_stage_versions_and_changed_content_are_full_builds():
    old = manifest(PipelineSettings())
    old["pipeline"] = {"fingerprint": "x", "settings": PipelineSettings().to_dict()}
    reuse = explain(old, PipelineSettings(), "abc", retry_degraded=False)
    assert reuse.first == "text" and "before declared stage versions" in reuse.why()
    changed = explain(manifest(PipelineSettings()), PipelineSettings(), "other", retry_degraded=False)
    assert changed.content_changed and changed.first == "text" and changed.why() == "content changed"
    assert estimate(manifest(PipelineSettings()), changed, PipelineSettings())["ocr_pages"] == 6


def test_fallbacks_are_stale_only_when_a_model_is_reachable():
    settings = PipelineSettings(summarizer="model", model="gpt-4o-mini", prompt_version=PROMPT_VERSION)
    degraded = manifest(settings, degraded={"summaries": 4})
    assert explain(degraded, settings, "abc", retry_degraded=False).stale == []
    reuse = explain(degraded, settings, "abc", retry_degraded=True)
    assert reuse.resummarize and "4 sections fell back" in reuse.why()
    assert estimate(degraded, reuse, settings) == {"pages_parsed": 0, "ocr_pages": 0, "model_calls": 5}
    assert not model_available(settings, {}) and model_available(settings, {"OPENAI_API_KEY": "k"})
    assert model_available(settings, {"OPENAI_BASE_URL": "http://localhost:11434/v1"})
    assert not model_available(PipelineSettings(), {"OPENAI_API_KEY": "k"})
