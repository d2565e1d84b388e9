"""The OCR cache in a local store through the pure chain: readings by page image, aliases by (bytes, page)."""

from __future__ import annotations

import json
from pathlib import Path

from index_store.cache import StoreOcrCache
from index_store.store import Store
from parsers.pipeline import PipelineSettings, index_document
from parsers.samples import make_scanned


def _entries(store: Store) -> dict[str, dict]:
    return {k: json.loads(store.backend.get_bytes(k)) for k in store.backend.list_keys("cache/ocr/")}


def test_a_second_build_reads_no_page_and_finds_it_through_the_alias(tmp_path: Path) -> None:
    pdf = tmp_path / "scanned.pdf"
    make_scanned(pdf)
    store = Store(str(tmp_path / "index"))
    cold = index_document(pdf, "scanned", PipelineSettings(), ocr_cache=StoreOcrCache(store), ocr_workers=1)
    assert cold.stats["ocr_pages_read"] == 1 and cold.stats["ocr_cache_hits"] == 0 and cold.stats["ocr_calls"] >= 1
    entries = _entries(store)
    [reading_key] = [k for k, e in entries.items() if "layout" in e]
    [alias_key] = [k for k, e in entries.items() if "image_key" in e]
    assert entries[reading_key]["engine"].startswith("tesseract ") and entries[reading_key]["lang"] == "eng"
    assert sorted(cold.cache_refs["ocr"]) == sorted(k.rsplit("/", 1)[1][:-5] for k in entries)

    warm = index_document(pdf, "scanned", PipelineSettings(), ocr_cache=StoreOcrCache(store), ocr_workers=1)
    assert warm.stats["ocr_calls"] == 0 and warm.stats["ocr_cache_hits"] == 1 and warm.stats["ocr_pages_read"] == 0
    assert [p.text for p in warm.pages] == [p.text for p in cold.pages]
    assert [p.text_source for p in warm.pages] == [p.text_source for p in cold.pages]

    # Point the alias at another reading: the page now reads as that one, so the alias (not a render) was used.
    other = "f" * 64
    reading = entries[reading_key]
    reading["layout"] = {**reading["layout"], "text": "Read from the other entry", "lines": []}
    store.backend.put_bytes(f"cache/ocr/ff/{other}.json", json.dumps(reading).encode())
    store.backend.put_bytes(alias_key, json.dumps({"image_key": other}).encode())
    again = index_document(pdf, "scanned", PipelineSettings(), ocr_cache=StoreOcrCache(store), ocr_workers=1)
    assert again.pages[2].text == "Read from the other entry" and again.stats["ocr_calls"] == 0

    # Another OCR setting is another key: read again.
    other_dpi = index_document(pdf, "scanned", PipelineSettings(ocr_dpi=200), ocr_cache=StoreOcrCache(store), ocr_workers=1)
    assert other_dpi.stats["ocr_pages_read"] == 1 and other_dpi.stats["ocr_cache_hits"] == 0
