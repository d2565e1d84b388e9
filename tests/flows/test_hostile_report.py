"""A run whose report cannot be written still prints its summary and exits non-zero with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.cli import main
from tests.pdfs import text_pdf

pytestmark = pytest.mark.integration


def test_unwritable_run_report_prints_the_summary_and_exits_4(prefect_harness, tmp_path: Path, capsys) -> None:
    src, store = tmp_path / "src", tmp_path / "index"
    src.mkdir()
    text_pdf(src / "good.pdf", ["Good\nA page of text."])
    store.mkdir()
    (store / "runs").write_text("a file where the runs folder should be")  # every write under runs/ fails
    assert main(["ingest", str(src), "--store", str(store)]) == 4
    captured = capsys.readouterr()
    assert "documents: 1 seen, 1 new" in captured.out
    lines = [line for line in captured.err.splitlines() if line.startswith("pagetree:")]
    assert len(lines) == 1 and "could not write the run report" in lines[0]
    assert "Traceback" not in captured.err
    assert json.loads((store / "docs/good/latest.json").read_text())["version"]  # the document itself is safe
    assert not list(store.rglob("*.tmp"))
