"""Rebuilds that cost only what changed: stage bumps under Prefect's harness on a local store, with real OCR.

A stage version bump is simulated the way a release makes one: the declared version in parsers/stages.py
changes (monkeypatch.setitem on ``STAGES``), nothing else.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.ingest import ingest
from flows.maintenance import gc
from flows.rebuild import rebuild_stale
from index_store.store import Store
from parsers import stages
from parsers.samples import generate

pytestmark = pytest.mark.integration
MARKUP_SAMPLES = ("quarterly-10q.htm", "quick-start.md")


def bump(monkeypatch: pytest.MonkeyPatch, stage: str) -> str:
    """The stage's next version, as a release declares it; returns the reason rebuilds give ("summaries version 1 -> 2")."""
    was = stages.STAGES[stage][0]
    monkeypatch.setitem(stages.STAGES, stage, (str(int(was) + 1), stages.STAGES[stage][1]))
    return f"{stage} version {was} -> {int(was) + 1}"


@pytest.fixture
def built(tmp_path: Path, prefect_harness):
    """The three PDF samples (one scanned page among them), indexed offline with OCR."""
    src = tmp_path / "src"
    generate(src)
    for name in MARKUP_SAMPLES:  # their rebuild is test_a_summaries_bump_keeps_an_html_filings_facts
        (src / name).unlink()
    store = str(tmp_path / "index")
    report = ingest(str(src), store=store)
    assert report["counts"]["new"] == 3 and report["work"]["ocr_pages"] == 1
    return src, store


def _docs(report: dict) -> dict[str, dict]:
    return {d["doc_id"]: d for d in report["documents"]}


def test_nothing_is_stale_without_a_bump_and_a_summaries_bump_reparses_nothing(built, monkeypatch):
    src, store_uri = built
    store = Store(store_uri)
    assert rebuild_stale(store=store_uri, dry_run=True)["counts"]["seen"] == 0
    old = {d: store.latest(d)["version"] for d in ("manual", "filing", "scanned")}
    old_pages = store.read_file("scanned", old["scanned"], "pages.parquet")

    why = bump(monkeypatch, "summaries")
    dry = rebuild_stale(store=store_uri, dry_run=True)
    assert {d["doc_id"]: d["status"] for d in dry["documents"]} == {d: "skipped" for d in old}
    scanned = _docs(dry)["scanned"]
    assert scanned["stale"] == [{"stage": "summaries", "why": why}]
    assert why in scanned["reason"]
    assert dry["work"] == {"pages_parsed": 0, "ocr_pages": 0, "model_calls": 0}

    real = rebuild_stale(store=store_uri)
    assert real["counts"]["rebuilt"] == 3 and real["work"] == dry["work"]  # measured = estimated: nothing re-read
    for doc_id, version in old.items():
        manifest = store.manifest(doc_id)
        assert manifest["version"] != version
        assert manifest["reused"]["from_version"] == version
        assert manifest["reused"]["stages"] == ["text", "ocr", "vision", "structure", "node_text"]
        assert manifest["stats"]["pages_parsed"] == 0 and manifest["stats"]["ocr_calls"] == 0
        assert manifest["pipeline"]["stages"]["summaries"] == stages.STAGES["summaries"][0]
    # The same pages, byte for byte (OCR text included), and the same tree.
    assert store.read_file("scanned", store.latest("scanned")["version"], "pages.parquet") == old_pages
    before, after = store.tree("manual", old["manual"]), store.tree("manual")
    assert [(n.node_id, n.title, n.start_page, n.end_page) for n in before.nodes()] == \
        [(n.node_id, n.title, n.start_page, n.end_page) for n in after.nodes()]
    # and the next run finds nothing to do
    assert rebuild_stale(store=store_uri)["counts"]["seen"] == 0

    # An old version that cannot be read is no reason to fail: the document is parsed from its PDF.
    bump(monkeypatch, "summaries")
    damaged = f"docs/filing/versions/{store.latest('filing')['version']}/nodes.parquet"
    store.backend.put_bytes(damaged, b"not parquet")
    again = _docs(rebuild_stale(store=store_uri))
    assert again["filing"]["status"] == "rebuilt" and again["filing"]["work"]["pages_parsed"] > 0
    assert again["manual"]["work"]["pages_parsed"] == 0


def test_a_structure_bump_parses_again_but_takes_ocr_from_the_cache(built, monkeypatch):
    src, store_uri = built
    store = Store(store_uri)
    old = store.latest("scanned")["version"]
    entries = sorted(k.rsplit("/", 1)[1][:-5] for k in store.backend.list_keys("cache/ocr/"))
    assert len(entries) == 2  # the reading (by page image) and its alias (by document sha256 and page)
    assert sorted(store.manifest("scanned")["cache_refs"]["ocr"]) == entries

    why = bump(monkeypatch, "structure")
    dry = rebuild_stale(store=store_uri, dry_run=True)
    pages = sum(store.latest(d)["page_count"] for d in ("manual", "filing", "scanned"))
    assert _docs(dry)["scanned"]["stale"] == [{"stage": "structure", "why": why}]
    assert dry["work"] == {"pages_parsed": pages, "ocr_pages": 0, "model_calls": 0}

    real = rebuild_stale(store=store_uri)
    assert real["counts"]["rebuilt"] == 3 and real["work"] == dry["work"]
    manifest = store.manifest("scanned")
    assert manifest["stats"]["ocr_calls"] == 0 and manifest["stats"]["ocr_cache_hits"] == 1
    assert manifest["stats"]["ocr_pages"] == 1  # the scanned page still has its OCR text, from the cache
    assert manifest["reused"] == {"from_version": old, "why": why, "stages": ["ocr"],
                                  "ocr_cache_hits": 1}

    # An OCR setting misses the cache: the page is read again, and the estimate says so.
    dry = rebuild_stale(store=store_uri, settings={"ocr_dpi": 200}, dry_run=True)
    assert "setting ocr_dpi 300 -> 200" in _docs(dry)["scanned"]["reason"]
    assert dry["work"]["ocr_pages"] == 1
    real = rebuild_stale(store=store_uri, settings={"ocr_dpi": 200})
    assert real["work"]["ocr_pages"] == 1 and len(list(store.backend.list_keys("cache/ocr/"))) == 4

    # gc: once only the 200 dpi versions are kept, the 300 dpi reading is referenced by nothing.
    orphan = "cache/ocr/00/" + "0" * 64 + ".json"
    store.backend.put_bytes(orphan, b'{"layout": {}}')
    removed = gc(store=store_uri, keep=1, prune_caches=True)
    assert removed["cache_entries_removed"] == {"ocr": 3, "vision": 0}
    left = sorted(k.rsplit("/", 1)[1][:-5] for k in store.backend.list_keys("cache/ocr/"))
    assert left == sorted(store.manifest("scanned")["cache_refs"]["ocr"])
    assert store.verify() == []


def test_the_ocr_cache_serves_another_document_with_the_same_page(built, tmp_path):
    """Keys are the page image, not the document: a copy with other metadata reads nothing again."""
    import pymupdf

    src, store_uri = built
    with pymupdf.open(src / "scanned.pdf") as doc:
        doc.set_metadata({"title": "Another bulletin"})
        doc.save(tmp_path / "other.pdf")
    other = tmp_path / "other"
    other.mkdir()
    (tmp_path / "other.pdf").rename(other / "copy.pdf")
    report = ingest(str(other), store=store_uri)
    assert report["counts"]["new"] == 1 and report["work"]["ocr_pages"] == 0
    assert Store(store_uri).manifest("copy")["stats"]["ocr_cache_hits"] == 1


def test_a_summaries_bump_keeps_an_html_filings_facts(tmp_path: Path, prefect_harness, monkeypatch):
    """A summaries-only rebuild of an HTML filing re-reads nothing and keeps its inline-XBRL facts table."""
    src = tmp_path / "src"
    generate(src)
    for name in ("manual.pdf", "filing.pdf", "scanned.pdf", "quick-start.md"):
        (src / name).unlink()
    store_uri = str(tmp_path / "index")
    assert ingest(str(src), store=store_uri)["counts"]["new"] == 1
    store = Store(store_uri)
    doc_id = "quarterly-10q.htm"
    old = store.latest(doc_id)["version"]
    facts = store.read_file(doc_id, old, "facts.parquet")

    bump(monkeypatch, "summaries")
    real = rebuild_stale(store=store_uri)
    assert real["counts"]["rebuilt"] == 1 and real["work"]["pages_parsed"] == 0
    new = store.latest(doc_id)["version"]
    assert new != old and "facts.parquet" in store.manifest(doc_id)["files"]
    assert store.read_file(doc_id, new, "facts.parquet") == facts
    # Both versions carry their pages' search terms (query.terms), the rebuild's taken from the kept pages.
    assert "terms.parquet" in store.manifest(doc_id, old)["files"] and "terms.parquet" in store.manifest(doc_id)["files"]
    assert store.read_file(doc_id, new, "terms.parquet") == store.read_file(doc_id, old, "terms.parquet")
    assert store.tree(doc_id).doc_kind == "filing" and store.tree(doc_id).source_format == "html"
