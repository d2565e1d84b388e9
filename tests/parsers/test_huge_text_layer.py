"""Junk text layers: a huge one is kept as it is (no OCR at full resolution, no layout); a page whose OCR fails
keeps its text layer; both decisions are in the manifest's decisions."""

from __future__ import annotations

from pathlib import Path

from parsers.classify import HUGE_TEXT_CHARS
from parsers.pipeline import PipelineSettings, index_document
from tests.pdfs import junk_pdf


def test_a_huge_junk_text_layer_is_kept_and_never_sent_to_ocr(tmp_path: Path) -> None:
    pdf = junk_pdf(tmp_path / "bomb.pdf", spans=HUGE_TEXT_CHARS // 6)
    index = index_document(pdf, "bomb", PipelineSettings())
    page = index.pages[0]
    assert len(page.text) == HUGE_TEXT_CHARS and page.text_source == "text"  # kept, cut: later stages stay bounded
    assert index.stats["ocr_calls"] == 0
    decision = index.decisions["ocr"]["huge_text_layer"]
    assert decision["pages"] == "1" and decision["limit_chars"] == HUGE_TEXT_CHARS and decision["chars"][1] > HUGE_TEXT_CHARS
    assert [w["kind"] for w in index.stats["warnings"]] == ["huge_text_layer"]
    assert "ordinary page" in index.pages[1].text


def test_a_page_whose_ocr_fails_keeps_its_text_layer(tmp_path: Path) -> None:
    pdf = junk_pdf(tmp_path / "junk.pdf", spans=400)  # garbage (no vowels), small: an OCR candidate
    index = index_document(pdf, "junk", PipelineSettings(ocr_timeout=0.01))  # tesseract cannot finish in time
    ocr = index.decisions["ocr"]["ocr"]
    assert ocr["pages"] == "1" and "1" in {str(k) for k in ocr["errors"]}
    assert ocr["kept_text_layer"] == "1"
    page = index.pages[0]
    assert page.text_source == "text" and len(page.text) > 2000
