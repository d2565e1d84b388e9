"""The `pagetree` CLI end to end through the Prefect flows (Prefect's test harness), on generated samples."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from flows.cli import main
from tests.pdfs import encrypted_pdf

pytestmark = pytest.mark.integration


@pytest.fixture()
def store(tmp_path: Path) -> str:
    return str(tmp_path / "index")


def _runs(store: str) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(Path(store, "runs").glob("*.json"))]


def test_ingest_then_rerun_publishes_nothing(prefect_harness, samples_dir: Path, store: str, capsys) -> None:
    assert main(["ingest", str(samples_dir), "--store", store]) == 0
    first = _runs(store)[-1]
    assert first["counts"]["published"] == 5 and first["counts"]["failed"] == 0  # 3 PDFs, an HTML 10-Q, a Markdown manual
    latest = {d: json.loads(Path(store, "docs", d, "latest.json").read_text())["version"] for d in ("manual", "filing", "scanned")}
    assert main(["ingest", str(samples_dir), "--store", store]) == 0
    second = sorted(_runs(store), key=lambda r: r["started_at"])[-1]
    assert second["counts"]["published"] == 0 and second["counts"]["unchanged"] == 5
    for doc_id, version in latest.items():
        assert json.loads(Path(store, "docs", doc_id, "latest.json").read_text())["version"] == version
        assert len(list(Path(store, "docs", doc_id, "versions").iterdir())) == 1
    out = capsys.readouterr().out
    assert "5 unchanged" in out


def test_touched_file_with_same_bytes_is_not_rebuilt(prefect_harness, samples_dir: Path, tmp_path: Path, store: str) -> None:
    src = tmp_path / "src"
    shutil.copytree(samples_dir, src)
    assert main(["ingest", str(src), "--store", store]) == 0
    st = (src / "manual.pdf").stat()
    os.utime(src / "manual.pdf", ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))
    assert main(["ingest", str(src), "--store", store]) == 0
    report = sorted(_runs(store), key=lambda r: r["started_at"])[-1]
    assert report["counts"]["published"] == 0
    assert len(list(Path(store, "docs/manual/versions").iterdir())) == 1
    # The new change token was recorded: the next run skips without reading the file.
    assert main(["ingest", str(src), "--store", store]) == 0
    assert {d["status"] for d in sorted(_runs(store), key=lambda r: r["started_at"])[-1]["documents"]} == {"unchanged"}


def test_index_reports_each_bad_file_on_one_line_and_exits_nonzero(prefect_harness, samples_dir: Path, tmp_path: Path,
                                                                    store: str, capsys) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "empty.pdf").write_bytes(b"")
    (bad / "notes.pdf").write_text("not a pdf at all")
    (bad / "broken.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(2000))
    encrypted_pdf(bad / "locked.pdf")
    files = [str(samples_dir / "filing.pdf")] + [str(p) for p in sorted(bad.iterdir())]
    assert main(["index", *files, "--store", store]) == 1
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("FAILED")]
    assert len(err) == 4
    joined = "\n".join(err)
    for phrase in ("empty file", "not a PDF", "password", "corrupt"):
        assert phrase in joined
    assert json.loads(Path(store, "docs/filing/latest.json").read_text())["version"]
    report = _runs(store)[-1]
    assert report["counts"]["failed"] == 4 and {f["kind"] for f in report["failures"]} == {"empty", "not_pdf", "encrypted", "corrupt"}


def test_ingest_records_failures_and_publishes_the_rest(prefect_harness, samples_dir: Path, tmp_path: Path, store: str) -> None:
    src = tmp_path / "mixed"
    shutil.copytree(samples_dir, src)
    (src / "zero.pdf").write_bytes(b"")
    (src / "sub").mkdir()
    (src / "sub" / "fake.pdf").write_text("hello")
    assert main(["ingest", str(src), "--store", store]) == 1
    report = _runs(store)[-1]
    assert report["counts"]["published"] == 5 and report["counts"]["failed"] == 2
    assert {f["doc_id"] for f in report["failures"]} == {"zero", "sub__fake"}
    # A failed document is tried again next run (nothing was published for it).
    (src / "zero.pdf").unlink()
    assert main(["ingest", str(src), "--store", store]) == 1
    assert {f["doc_id"] for f in _runs(store)[-1]["failures"]} == {"sub__fake"}


def test_browse_commands(prefect_harness, samples_dir: Path, store: str, capsys) -> None:
    assert main(["index", str(samples_dir / "filing.pdf"), str(samples_dir / "manual.pdf"), "--store", store]) == 0
    capsys.readouterr()
    assert main(["show", "filing", "--json", "--store", store]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert tree["structure_source"] == "bookmarks" and tree["doc_id"] == "filing"
    titles = [n["title"] for n in tree["root"]["nodes"]]
    assert "PART I" in titles and "PART II" in titles
    item7a = [c for n in tree["root"]["nodes"] for c in n["nodes"] if c["title"].startswith("Item 7A")][0]

    assert main(["read", "filing", item7a["node_id"], "--store", store]) == 0
    out = capsys.readouterr().out
    assert "PART II > Item 7A" in out and "100 basis point" in out

    assert main(["grep", "filing", r"basis point", "--store", store]) == 0
    hits = capsys.readouterr().out.strip().splitlines()
    assert hits and all(f"p.{item7a['start_page']}" in h for h in hits)

    assert main(["grep", "filing", "basis point", "--node", tree["root"]["nodes"][0]["node_id"], "--store", store]) == 0
    assert capsys.readouterr().out.strip() == ""  # scoped to PART I: no hit

    assert main(["tree", "manual", "--store", store]) == 0
    assert "0000" in capsys.readouterr().out
    assert main(["list", "--store", store]) == 0
    listed = capsys.readouterr().out
    assert "filing" in listed and "manual" in listed
    assert main(["verify", "--store", store]) == 0
    assert main(["read", "filing", "9999", "--store", store]) == 3
    assert main(["tree", "nope", "--store", store]) == 3


def test_doc_id_option_and_unsafe_ids(prefect_harness, samples_dir: Path, store: str, capsys) -> None:
    assert main(["index", str(samples_dir / "filing.pdf"), "--doc-id", "acme-10k", "--store", store]) == 0
    assert Path(store, "docs/acme-10k/latest.json").exists()
    with pytest.raises(SystemExit) as info:  # a usage error, before anything starts (tests/flows/test_hostile_ids.py)
        main(["index", str(samples_dir / "filing.pdf"), "--doc-id", "../evil", "--store", store])
    assert info.value.code == 2 and "invalid doc_id" in capsys.readouterr().err
    assert not Path(store).parent.joinpath("evil").exists()


def test_verify_and_gc_commands(prefect_harness, samples_dir: Path, tmp_path: Path, store: str, capsys) -> None:
    for size in (5, 7, 9):
        assert main(["index", str(samples_dir / "manual.pdf"), "--store", store, "--page-group-size", str(size)]) == 0
    versions = Path(store, "docs/manual/versions")
    assert len(list(versions.iterdir())) == 3
    assert main(["gc", "--keep", "1", "--store", store]) == 0
    assert len(list(versions.iterdir())) == 1
    latest = json.loads(Path(store, "docs/manual/latest.json").read_text())["version"]
    assert (versions / latest).is_dir()
    (versions / latest / "nodes.parquet").write_bytes(b"tampered")
    capsys.readouterr()
    assert main(["verify", "manual", "--store", store]) == 1
    assert "nodes.parquet sha256 mismatch" in capsys.readouterr().err
