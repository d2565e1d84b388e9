"""Golden outputs per stage: an output change without a stage version bump fails, naming the stage.

The fixture documents are the samples (printed TOC, bookmarks, a scanned page) plus tiny PDFs built here
(an outline, headings only, a figure page for the vision stage). Their per-stage digests
(parsers.stages.output_digests) are recorded in stage_goldens.json. After a deliberate output change,
bump the stage's version in parsers/stages.py and regenerate: ``make goldens``
(= ``.venv/bin/python -m tests.parsers.test_stage_goldens --write``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pymupdf

from parsers import stages
from parsers.pipeline import PipelineSettings, index_document
from parsers.samples import generate
from providers import prompts
from tests.pdfs import text_pdf

GOLDENS = Path(__file__).with_name("stage_goldens.json")
FIGURE_TEXT = "Figure: pump cross-section with the shaft seal SK-220 and the pressure port P03."

_BODY = ("The controller keeps the outlet pressure between the limits set in parameters P01 and P02. "
         "When the pressure stays above the upper limit for ten seconds the pump stops and error E42 is logged. ")


def _bookmarks(path: Path) -> Path:
    pages = [f"Chapter {i}\n" + _BODY * 6 for i in range(1, 5)]
    return text_pdf(path, pages, toc=[[1, "Chapter 1", 1], [2, "Pressure limits", 2], [1, "Chapter 2", 3],
                                      [1, "Chapter 3", 4]], title="Outline fixture")


def _headings(path: Path) -> Path:
    pages = ["Installation\n" + _BODY * 5, "Wiring the sensor\n" + _BODY * 5, "Error codes\n" + _BODY * 5]
    return text_pdf(path, pages, title="Headings fixture")


def _figure(path: Path) -> Path:
    """A text page, then a page that is one large drawing with a caption: a vision candidate."""
    text_pdf(path, ["Overview\n" + _BODY * 6])
    doc = pymupdf.open(path)
    art = pymupdf.open()
    sheet = art.new_page(width=400, height=300)
    for i in range(12):
        sheet.draw_circle((200, 150), 10 + 11 * i, color=(0, 0, 0), width=2)
    pix = sheet.get_pixmap(dpi=72)
    page = doc.new_page(width=612, height=792)
    page.insert_image(pymupdf.Rect(72, 72, 540, 600), stream=pix.tobytes("png"))
    page.insert_text((72, 640), "Figure 1", fontname="helv", fontsize=10)
    out = path.with_name(path.stem + "-fig.pdf")
    doc.save(out)
    doc.close()
    art.close()
    return out


def _describe(png: bytes) -> str:
    return FIGURE_TEXT  # a vision model that always sees the same figure: the stage's own logic is what is digested


def current_digests(folder: Path) -> dict[str, Any]:
    """Index every fixture under ``folder`` (offline, extractive) and digest each stage's output."""
    paths = {p.name: p for p in generate(folder / "samples")}
    paths["bookmarks.pdf"] = _bookmarks(folder / "bookmarks.pdf")
    paths["headings.pdf"] = _headings(folder / "headings.pdf")
    paths["figure.pdf"] = _figure(folder / "figure.pdf")
    documents = {}
    for name, path in sorted(paths.items()):
        index = index_document(path, Path(name).stem, PipelineSettings(), vision=_describe, ocr_workers=1)
        documents[name] = stages.output_digests(index)
    return {"stages": stages.stage_versions(), "prompts": prompts.digest(), "documents": documents}


def test_stage_outputs_match_the_goldens_or_their_stage_was_bumped(tmp_path: Path) -> None:
    current = current_digests(tmp_path)
    recorded = json.loads(GOLDENS.read_text())
    problems = stages.golden_problems(recorded, current)
    assert not problems, "\n".join(problems)


def test_the_fixtures_exercise_every_stage() -> None:
    """The goldens guard a stage only if some fixture produces output in it (an empty output digests alike)."""
    recorded = json.loads(GOLDENS.read_text())["documents"]
    assert set(recorded) >= {"manual.pdf", "filing.pdf", "scanned.pdf", "bookmarks.pdf", "headings.pdf", "figure.pdf"}
    assert recorded["scanned.pdf"]["ocr"] != recorded["manual.pdf"]["ocr"]  # a page was OCR'd
    assert recorded["figure.pdf"]["vision"] != recorded["manual.pdf"]["vision"]  # a page was described


def _golden(digest: str = "a") -> dict[str, Any]:
    return {"stages": {"text": "1", "ocr": "1", "vision": "1", "structure": "1", "node_text": "1", "summaries": "1",
                       "prompts": "p1"},
            "prompts": "x",
            "documents": {"doc.pdf": {"text": "t", "ocr": "o", "vision": "v", "structure": digest, "node_text": digest,
                                      "summaries": digest}}}


def test_a_changed_output_without_a_bump_names_the_first_changed_stage() -> None:
    recorded, changed = _golden("a"), _golden("b")
    problems = stages.golden_problems(recorded, changed)
    assert len(problems) == 1
    assert "stage 'structure' output changed on fixture doc.pdf without a version bump" in problems[0]
    assert "STAGES['structure'] in parsers/stages.py" in problems[0] and "make goldens" in problems[0]


def test_a_bump_allows_the_change_and_the_later_stages_changes() -> None:
    recorded, changed = _golden("a"), _golden("b")
    changed["stages"]["structure"] = "2"
    assert stages.golden_problems(recorded, changed) == []
    later = _golden("b")
    later["stages"]["summaries"] = "2"  # bumping a later stage does not excuse the structure change
    assert "stage 'structure'" in stages.golden_problems(recorded, later)[0]


def test_a_bump_without_an_output_change_passes() -> None:
    bumped = _golden("a")
    bumped["stages"]["ocr"] = "2"
    assert stages.golden_problems(_golden("a"), bumped) == []


def test_a_prompt_change_needs_a_prompt_version_bump() -> None:
    changed = _golden("a")
    changed["prompts"] = "y"
    assert "bump STAGES['prompts'] in parsers/stages.py" in stages.golden_problems(_golden("a"), changed)[0]
    changed["stages"]["prompts"] = "p2"
    assert stages.golden_problems(_golden("a"), changed) == []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="check or regenerate the per-stage golden outputs")
    ap.add_argument("--write", action="store_true", help=f"record the current outputs in {GOLDENS.name}")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="pagetree-goldens-") as tmp:
        current = current_digests(Path(tmp))
    if args.write:
        GOLDENS.write_text(json.dumps(current, indent=1, sort_keys=True) + "\n")
        print(f"wrote {GOLDENS} ({len(current['documents'])} documents)")
        return 0
    problems = stages.golden_problems(json.loads(GOLDENS.read_text()), current)
    print("\n".join(problems) or "goldens: OK")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
