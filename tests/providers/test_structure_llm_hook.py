"""The LLM structure fallback: model outlines are validated and repaired before use."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.ranges import Entry
from providers.structure_llm import Candidate, LlmStructure, validate_outline, windows
from providers.usage import Usage
from tests.providers.helpers import provider
from tests.support.openai_server import FakeOpenAI

PAGES = [
    "Operating Manual\nModel X200 pump controller.",
    "1 Safety\nRead all warnings before installing the X200.",
    "Warnings continue here with more text about grounding.",
    "2 Installation\nMount the unit on a flat surface.\n2.1 Wiring\nConnect terminals L1 and L2.",
    "3 Troubleshooting\nError E42 means the inlet is blocked.",
]


def _pdf(path: Path, pages: list[str]) -> Path:
    doc = pymupdf.open()
    for body in pages:
        page = doc.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 740), body, fontname="helv", fontsize=11)
    doc.save(path)
    doc.close()
    return path


def test_validation_drops_out_of_range_and_invented_titles_and_repairs_pages() -> None:
    cands = [
        Candidate("Safety", 1, 2, 0),
        Candidate("Installation", 1, 3, 1),  # printed on page 4: repaired
        Candidate("Wiring", 2, 4, 2),
        Candidate("Troubleshooting", 1, 9, 3),  # out of range
        Candidate("Maintenance schedule", 1, 5, 4),  # not in the text
        Candidate("Safety", 1, 2, 5),  # duplicate
    ]
    entries, info = validate_outline(cands, [p.replace("\n", " ") for p in PAGES])
    assert entries == [Entry(1, "Safety", 2), Entry(1, "Installation", 4), Entry(2, "Wiring", 4)]
    assert info["dropped"] == {"out_of_range": 1, "not_found": 1, "duplicate": 1, "empty": 0}
    assert info["repaired_pages"] == 1


def test_validation_orders_by_page_and_position_and_fixes_level_jumps() -> None:
    cands = [Candidate("Wiring", 3, 4, 0), Candidate("Installation", 2, 4, 1), Candidate("Safety", 2, 2, 2)]
    entries, _ = validate_outline(cands, PAGES)
    assert entries == [Entry(1, "Safety", 2), Entry(1, "Installation", 4), Entry(2, "Wiring", 4)]
    pages = [e.page for e in entries]
    assert pages == sorted(pages)


def test_windows_tag_every_page_once_and_respect_the_size() -> None:
    texts = [f"text of page {n} " * 50 for n in range(1, 31)]
    wins = windows(texts, page_chars=400, window_chars=2000)
    assert wins[0][0] == 1 and wins[-1][1] == 30
    assert all(len(w[2]) <= 2000 for w in wins)
    tagged = "".join(w[2] for w in wins)
    assert all(tagged.count(f"[[page {n}]]\n") == 1 for n in range(1, 31))


def test_hook_end_to_end_through_the_model(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    answer = {"sections": [{"title": "1 Safety", "level": 1, "page": 2}, {"title": "2 Installation", "level": 1, "page": 4},
                           {"title": "2.1 Wiring", "level": 2, "page": 4}, {"title": "3 Troubleshooting", "level": 1, "page": 5},
                           {"title": "4 Disposal", "level": 1, "page": 5}]}
    openai_server.push(json.dumps(answer))
    usage = Usage()
    hook = LlmStructure(provider(openai_server), usage)
    with PdfSource(_pdf(tmp_path / "m.pdf", PAGES)) as pdf:
        entries, info = hook(pdf)
    assert [(e.level, e.title, e.page) for e in entries] == [(1, "1 Safety", 2), (1, "2 Installation", 4),
                                                            (2, "2.1 Wiring", 4), (1, "3 Troubleshooting", 5)]
    assert info["dropped"]["not_found"] == 1 and info["windows"] == 1
    request = openai_server.requests[0].user_text()
    assert "[[page 4]]" in request and "<page_text>" in request
    assert usage.calls == 1 and usage.by_purpose == {"structure": 1}


def test_hook_rejects_an_outline_that_does_not_check_out(openai_server: FakeOpenAI, tmp_path: Path) -> None:
    openai_server.push(json.dumps({"sections": [{"title": "Chapter of fiction", "level": 1, "page": 2},
                                                {"title": "Another invention", "level": 1, "page": 3}]}))
    with PdfSource(_pdf(tmp_path / "m.pdf", PAGES)) as pdf:
        entries, info = LlmStructure(provider(openai_server))(pdf)
    assert entries == [] and "not credible" in info["reason"]


def test_printed_page_numbers_are_repaired_to_physical_pages() -> None:
    texts = [f"Page {n} filler text about pumps." for n in range(1, 31)]
    texts[11] = "Maintenance schedule Replace the filter every 500 hours."
    texts[19] = "Spare parts list Order numbers for the X200."
    cands = [Candidate("Maintenance schedule", 1, 4, 0), Candidate("Spare parts list", 1, 12, 1),
             Candidate("Warranty terms", 1, 14, 2)]  # printed pages 4 and 12 = physical 12 and 20; the third is invented
    entries, info = validate_outline(cands, texts)
    assert entries == [Entry(1, "Maintenance schedule", 12), Entry(1, "Spare parts list", 20)]
    assert info["repaired_pages"] == 2 and info["dropped"]["not_found"] == 1
