"""A damaged PDF publishes, marked: manifest stats.warnings, the run report and one CLI line say `repaired`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.cli import main
from tests.pdfs import text_pdf

pytestmark = pytest.mark.integration


def test_a_truncated_pdf_is_published_with_a_repaired_warning(prefect_harness, tmp_path: Path, capsys) -> None:
    src, store = tmp_path / "src", tmp_path / "index"
    src.mkdir()
    text_pdf(src / "good.pdf", ["Good\nA page of text."])
    book = text_pdf(tmp_path / "book.pdf", [f"Chapter {i}\n" + "Body text. " * 100 for i in range(1, 21)])
    data = book.read_bytes()
    (src / "cut.pdf").write_bytes(data[: len(data) // 2])
    assert main(["ingest", str(src), "--store", str(store)]) == 0
    out = capsys.readouterr().out
    warned = [line for line in out.splitlines() if line.startswith("WARNING cut")]
    assert len(warned) == 1 and "repaired" in warned[0]
    report = json.loads(next((store / "runs").glob("*.json")).read_text())
    assert report["counts"]["published"] == 2
    (warning,) = report["warnings"]
    assert warning["doc_id"] == "cut" and warning["kind"] == "repaired" and warning["pages"].endswith("-20")
    latest = json.loads((store / "docs/cut/latest.json").read_text())["version"]
    manifest = json.loads((store / "docs/cut/versions" / latest / "manifest.json").read_text())
    assert manifest["stats"]["warnings"] == [{k: v for k, v in warning.items() if k not in ("doc_id", "uri")}]
    good = json.loads((store / "docs/good/versions" / json.loads((store / "docs/good/latest.json").read_text())["version"]
                       / "manifest.json").read_text())
    assert good["stats"]["warnings"] == []
