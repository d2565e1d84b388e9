"""Vision fallback: figure-heavy and poorly read pages go to a vision model when one is configured.

The model is the real openai provider talking HTTP to the local OpenAI-compatible test server.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pymupdf
import pytest

from parsers.ocr_stage import VISION_MARKER
from parsers.pipeline import PipelineSettings, index_document
from providers.offline import OfflineProvider
from providers.openai_provider import OpenAIProvider
from providers.usage import Usage
from providers.vision import vision_callable
from providers.settings import ProviderSettings
from tests.parsers.test_ocr_pages import MEMO, text_image, words
from tests.support.openai_server import Fault

pytestmark = pytest.mark.integration

CAPTION = "Figure 3: wiring of the pump motor terminals"


def figure_doc(path: Path) -> Path:
    """Page 1: a vector-free figure (an image of boxes) with a short caption; page 2: a scan; page 3: text."""
    doc = pymupdf.open()
    with pymupdf.open() as src:
        sp = src.new_page(width=400, height=300)
        for i in range(4):
            sp.draw_rect(pymupdf.Rect(20 + 90 * i, 100, 90 + 90 * i, 180), color=(0, 0, 0), width=3)
        figure = sp.get_pixmap(dpi=72).tobytes("png")
    page = doc.new_page(width=612, height=792)
    page.insert_image(pymupdf.Rect(72, 72, 540, 500), stream=figure)
    page.insert_text((72, 530), CAPTION, fontsize=11)
    page = doc.new_page(width=612, height=792)
    page.insert_image(page.rect, stream=text_image(MEMO, dpi=150))
    page = doc.new_page(width=612, height=792)
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 720), MEMO * 4, fontsize=11)
    doc.save(path)
    return path


def provider(base_url: str) -> OpenAIProvider:
    return OpenAIProvider(ProviderSettings(provider="openai", vision_model="vision-test", base_url=base_url,
                                           api_key="sk-test", max_retries=0, timeout=10))


# Every OCR'd page reads below 99, so the scan goes to the model as a "low confidence" page.
SETTINGS = PipelineSettings(ocr_dpi=150, vision_below_confidence=99.0)


def test_figure_and_low_confidence_pages_get_descriptions(openai_server, tmp_path: Path) -> None:
    openai_server.reply_fn = lambda req: f"Four boxes in a row (request {len(openai_server.requests)})."
    vision = vision_callable(provider(openai_server.base_url))
    index = index_document(figure_doc(tmp_path / "fig.pdf"), "fig", SETTINGS, vision=vision)
    fig, scan, text = index.pages
    assert fig.text_source == "vision" and scan.text_source == "vision" and text.text_source == "text"
    assert fig.text.startswith(CAPTION) and f"{VISION_MARKER} Four boxes in a row" in fig.text
    assert {"transducer", "calibrated"} <= words(scan.text) and VISION_MARKER in scan.text  # OCR text kept
    assert scan.ocr_confidence is not None
    assert index.stats["vision_pages"] == 2 and index.stats["ocr_pages"] == 1
    assert len(openai_server.requests) == 2
    for req in openai_server.requests:
        (url,) = req.images()
        assert url.startswith("data:image/png;base64,")
        assert base64.b64decode(url.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"


def test_without_a_vision_model_pages_are_flagged_and_keep_their_text(tmp_path: Path) -> None:
    assert vision_callable(OfflineProvider()) is None
    index = index_document(figure_doc(tmp_path / "fig.pdf"), "fig", SETTINGS, vision=None)
    assert [p.text_source for p in index.pages] == ["text", "ocr", "text"]
    assert index.pages[0].text.strip() == CAPTION
    assert index.decisions["ocr"]["vision"]["wanted"] == "1-2"
    assert "no vision model" in index.decisions["ocr"]["vision"]["skipped"]
    assert index.stats["vision_pages"] == 0


def test_a_failing_vision_model_never_blocks_indexing(openai_server, tmp_path: Path) -> None:
    openai_server.fail_all(Fault.server_error(503))
    usage = Usage()
    vision = vision_callable(provider(openai_server.base_url), usage)
    index = index_document(figure_doc(tmp_path / "fig.pdf"), "fig", SETTINGS, vision=vision)
    assert [p.text_source for p in index.pages] == ["text", "ocr", "text"]
    assert index.decisions["ocr"]["vision"]["no_description"] == "1-2"
    assert sum(usage.errors.values()) == 2  # both calls really failed over HTTP
    assert "transducer" in words(index.pages[1].text)


def test_a_vision_callable_that_raises_is_recorded(tmp_path: Path) -> None:
    def broken(png: bytes) -> str:
        raise ConnectionError("model host unreachable")

    index = index_document(figure_doc(tmp_path / "fig.pdf"), "fig", SETTINGS, vision=broken)
    assert [p.text_source for p in index.pages] == ["text", "ocr", "text"]
    assert index.decisions["ocr"]["vision"]["errors"] == {1: "ConnectionError: model host unreachable",
                                                          2: "ConnectionError: model host unreachable"}
