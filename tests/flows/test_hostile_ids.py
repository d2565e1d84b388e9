"""Two sources, one doc id: never published; ids from names are injective; bad --doc-id is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from flows.cli import main
from tests.pdfs import text_pdf

pytestmark = pytest.mark.integration


def _pdf(path: Path, title: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return text_pdf(path, [f"{title}\nBody of {title}, with enough words to index."])


def _last_run(store: Path) -> dict:
    return sorted((json.loads(p.read_text()) for p in (store / "runs").glob("*.json")), key=lambda r: r["started_at"])[-1]


def _latest(store: Path, doc_id: str) -> dict:
    return json.loads((store / "docs" / doc_id / "latest.json").read_text())


def test_names_that_once_shared_an_id_are_published_apart_and_stay_unchanged(prefect_harness, tmp_path: Path) -> None:
    src, store = tmp_path / "src", tmp_path / "index"
    for name in ("a b.pdf", "a-b.pdf", "ü.pdf", "u.pdf"):
        _pdf(src / name, name)
    assert main(["ingest", str(src), "--store", str(store)]) == 0
    report = _last_run(store)
    assert report["counts"]["new"] == 4 and report["counts"]["failed"] == 0
    uris = {_latest(store, d["doc_id"])["source"]["uri"] for d in report["documents"]}
    assert len(uris) == 4  # four ids, each with its own source recorded in latest.json
    assert main(["ingest", str(src), "--store", str(store)]) == 0
    assert _last_run(store)["counts"]["unchanged"] == 4


def test_two_files_one_id_in_one_run_fail_both_naming_both(prefect_harness, tmp_path: Path, capsys) -> None:
    first, second = _pdf(tmp_path / "dirA" / "good.pdf", "A"), _pdf(tmp_path / "dirB" / "good.pdf", "B")
    store = tmp_path / "index"
    assert main(["index", str(first), str(second), "--store", str(store)]) == 1
    failed = [line for line in capsys.readouterr().err.splitlines() if line.startswith("FAILED")]
    assert len(failed) == 2
    assert all(str(first) in line and str(second) in line for line in failed)
    assert not (store / "docs" / "good").exists()
    assert {f["kind"] for f in _last_run(store)["failures"]} == {"collision"}


def test_a_later_run_from_another_source_is_refused_unless_replace(prefect_harness, tmp_path: Path, capsys) -> None:
    first, second = _pdf(tmp_path / "dirA" / "good.pdf", "A"), _pdf(tmp_path / "dirB" / "good.pdf", "B")
    store = tmp_path / "index"
    assert main(["index", str(first), "--store", str(store)]) == 0
    before = _latest(store, "good")
    assert before["source"]["uri"] == first.as_uri()
    capsys.readouterr()
    assert main(["index", str(second), "--store", str(store)]) == 1
    assert "--replace" in capsys.readouterr().err
    assert _latest(store, "good") == before and _last_run(store)["failures"][0]["kind"] == "other_source"
    # Indexing the first file again is not a change of source.
    assert main(["index", str(first), "--store", str(store)]) == 0
    assert main(["index", str(second), "--store", str(store), "--replace"]) == 0
    after = _latest(store, "good")
    assert after["source"]["uri"] == second.as_uri() and after["version"] != before["version"]


def test_ingest_refuses_a_moved_folder_unless_replace(prefect_harness, tmp_path: Path) -> None:
    store = tmp_path / "index"
    _pdf(tmp_path / "old" / "r.pdf", "R")
    assert main(["ingest", str(tmp_path / "old"), "--store", str(store)]) == 0
    (tmp_path / "old").rename(tmp_path / "new")
    assert main(["ingest", str(tmp_path / "new"), "--store", str(store)]) == 1
    assert _last_run(store)["failures"][0]["kind"] == "other_source"
    assert main(["ingest", str(tmp_path / "new"), "--store", str(store), "--replace"]) == 0
    assert _latest(store, "r")["source"]["uri"] == (tmp_path / "new" / "r.pdf").as_uri()


@pytest.mark.parametrize("bad", ["CON", "nul", "a..b", "../evil", "x y"])
def test_a_bad_doc_id_is_a_usage_error_before_anything_starts(tmp_path: Path, capsys, bad: str) -> None:
    pdf = _pdf(tmp_path / "x.pdf", "X")
    with pytest.raises(SystemExit) as info:
        main(["index", str(pdf), "--doc-id", bad, "--store", str(tmp_path / "index")])
    assert info.value.code == 2
    assert "invalid doc_id" in capsys.readouterr().err
    assert not (tmp_path / "index").exists()
