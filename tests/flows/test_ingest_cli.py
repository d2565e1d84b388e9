"""`pagetree ingest` / `pagetree rebuild-stale` with the S3 flags, through the real CLI entry point."""

from __future__ import annotations

import json

import pytest

from flows.cli import main
from tests.support.s3 import moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def test_cli_ingest_from_s3_prints_the_run_summary(prefect_harness, s3, moto_endpoint, tmp_path, capsys):
    src = new_bucket(s3, "cli")
    s3.put_object(Bucket=src, Key="in/a.pdf", Body=pdf_bytes("A", pages=2))
    s3.put_object(Bucket=src, Key="in/big.pdf", Body=pdf_bytes("Big", pages=40))
    store = str(tmp_path / "index")
    size_a = s3.head_object(Bucket=src, Key="in/a.pdf")["ContentLength"]

    code = main(["ingest", f"s3://{src}/in", "--store", store, "--endpoint-url", moto_endpoint,
                 "--max-size", str(size_a + 10), "--chunk-size", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "documents: 2 seen, 1 new, 0 changed, 0 rebuilt, 0 unchanged, 1 skipped, 0 failed" in out
    assert f"pages: 2 indexed, 0 OCR; {size_a} bytes downloaded" in out
    assert "model:" not in out  # no model configured: no model line

    code = main(["ingest", f"s3://{src}/in", "--store", store, "--endpoint-url", moto_endpoint, "--json",
                 "--max-size", str(size_a + 10)])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["counts"]["unchanged"] == 1 and report["counts"]["bytes_downloaded"] == 0
    assert report["counts"]["skipped"] == 1

    code = main(["rebuild-stale", "--store", store, "--page-group-size", "3", "--dry-run", "--endpoint-url", moto_endpoint,
                 "--json"])
    dry = json.loads(capsys.readouterr().out)
    assert code == 0 and [(d["doc_id"], d["status"]) for d in dry["documents"]] == [("a", "skipped")]


def test_cli_missing_bucket_exits_4_with_one_line(prefect_harness, moto_endpoint, tmp_path, capsys):
    code = main(["ingest", "s3://pagetree-cli-missing/x", "--store", str(tmp_path / "i"), "--endpoint-url", moto_endpoint])
    err = capsys.readouterr().err
    assert code == 4
    assert "source bucket 'pagetree-cli-missing' does not exist" in err
