"""recover_structure runs with the cycle collector paused (every page's lines it lays out stay alive, and each
collection would walk them all again) and leaves the collector as it found it."""

from __future__ import annotations

import gc
from pathlib import Path

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import text_pdf


def _collections_during(path: Path) -> tuple[int, object]:
    started: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    threshold = gc.get_threshold()
    gc.set_threshold(5, 1, 1)  # a collection every few allocations, were the collector running
    gc.callbacks.append(count)
    try:
        with PdfSource(path) as pdf:
            for n in range(1, pdf.page_count + 1):
                pdf.text(n)
            assert started or not gc.isenabled()  # the threshold does set collections off
            started.clear()
            result = recover_structure(pdf, llm_hook=lambda _pdf: ([], {"reason": "no model"}))
            n = len(started)
    finally:
        gc.callbacks.remove(count)
        gc.set_threshold(*threshold)
    return n, result


def test_no_collection_runs_during_the_structure_step_and_the_collector_is_left_as_found(tmp_path: Path) -> None:
    pages = [f"{k} Chapter {k}\n" + "Body text of the chapter goes on and on. " * 40 for k in range(1, 7)]
    path = text_pdf(tmp_path / "book.pdf", pages)
    assert gc.isenabled()
    runs, result = _collections_during(path)
    # At most the one set off by the first allocation after the step switches the collector back on (without the
    # pause: dozens at this threshold).
    assert runs <= 1 and result.source == "headings" and len(result.entries) == 6
    assert gc.isenabled()
    gc.disable()  # a caller that paused it itself gets it back paused
    try:
        assert _collections_during(path)[0] == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
