"""The ingest flow end to end: S3 source and S3 store on moto over HTTP, flows under Prefect's test harness.

A fault proxy between boto3 and moto counts the requests for PDF objects, so
"skipped without downloading" is observed on the wire, not inferred.
"""

from __future__ import annotations

import json
import threading

import pytest

from flows.ingest import ingest
from flows.sources import SourceError
from index_store.store import Store
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration
FAST = {"retry_base_seconds": 0.02, "chunk_size": 2}


def _pdf_gets(proxy) -> int:
    return sum(1 for line in proxy.log if line.startswith("GET ") and ".pdf" in line)


def _stores(s3, moto_endpoint):
    src, dst = new_bucket(s3, "src"), new_bucket(s3, "idx")
    return src, dst, Store(f"s3://{dst}/index", endpoint_url=moto_endpoint)


def test_first_run_indexes_then_unchanged_run_downloads_nothing(prefect_harness, s3, moto_endpoint, fault_proxy):
    src, dst, store = _stores(s3, moto_endpoint)
    bodies = {f"lib/doc{i}.pdf": pdf_bytes(f"Doc {i}", pages=2 + i) for i in range(3)}
    for key, body in bodies.items():
        s3.put_object(Bucket=src, Key=key, Body=body)
    s3.put_object(Bucket=src, Key="lib/readme.txt", Body=b"not listed")
    args = dict(store=f"s3://{dst}/index", endpoint_url=fault_proxy.url, store_endpoint_url=moto_endpoint, **FAST)

    first = ingest(f"s3://{src}/lib", **args)
    assert first["counts"]["new"] == 3 and first["counts"]["failed"] == 0
    assert first["counts"]["bytes_downloaded"] == sum(len(b) for b in bodies.values())
    assert first["counts"]["pages"] == 2 + 3 + 4
    assert sorted(store.doc_ids()) == ["doc0", "doc1", "doc2"]
    latest = store.latest("doc1")
    assert latest["source"]["etag"] == s3.head_object(Bucket=src, Key="lib/doc1.pdf")["ETag"].strip('"')
    saved = json.loads(s3.get_object(Bucket=dst, Key=f"index/runs/{first['run_id']}.json")["Body"].read())
    assert saved["counts"] == first["counts"]

    gets_before = _pdf_gets(fault_proxy)
    second = ingest(f"s3://{src}/lib", **args)
    assert second["counts"]["unchanged"] == 3 and second["counts"]["published"] == 0
    assert second["counts"]["bytes_downloaded"] == 0
    assert _pdf_gets(fault_proxy) == gets_before  # not one GET of a PDF on the wire


def test_touched_object_with_same_bytes_makes_no_new_version(prefect_harness, s3, moto_endpoint, fault_proxy):
    src, dst, store = _stores(s3, moto_endpoint)
    body = pdf_bytes("Touched", pages=2)
    s3.put_object(Bucket=src, Key="t.pdf", Body=body)
    args = dict(store=f"s3://{dst}/index", endpoint_url=fault_proxy.url, store_endpoint_url=moto_endpoint, **FAST)
    ingest(f"s3://{src}", **args)
    version = store.latest("t")["version"]
    # A multipart re-upload of the same bytes: a new ETag ("...-1"), same sha256.
    upload = s3.create_multipart_upload(Bucket=src, Key="t.pdf")
    part = s3.upload_part(Bucket=src, Key="t.pdf", UploadId=upload["UploadId"], PartNumber=1, Body=body)
    s3.complete_multipart_upload(Bucket=src, Key="t.pdf", UploadId=upload["UploadId"],
                                 MultipartUpload={"Parts": [{"ETag": part["ETag"], "PartNumber": 1}]})
    new_etag = s3.head_object(Bucket=src, Key="t.pdf")["ETag"].strip('"')
    assert new_etag.endswith("-1")

    touched = ingest(f"s3://{src}", **args)
    (doc,) = touched["documents"]
    assert doc["status"] == "unchanged" and doc["bytes_downloaded"] == len(body)
    assert [m["version"] for m in store.versions("t")] == [version]
    assert store.latest("t")["source"]["etag"] == new_etag
    gets = _pdf_gets(fault_proxy)
    assert ingest(f"s3://{src}", **args)["counts"]["bytes_downloaded"] == 0
    assert _pdf_gets(fault_proxy) == gets


def test_one_bad_object_never_fails_the_run_and_is_retried_next_run(prefect_harness, s3, moto_endpoint, fault_proxy):
    src, dst, store = _stores(s3, moto_endpoint)
    names = ["good", "denied", "cold", "gone", "slow", "cut_once", "cut_always", "notpdf"]
    for name in names:
        if name == "cold":
            s3.put_object(Bucket=src, Key="cold.pdf", Body=pdf_bytes(name), StorageClass="GLACIER")
        else:
            s3.put_object(Bucket=src, Key=f"{name}.pdf", Body=b"plain text" if name == "notpdf" else pdf_bytes(name))
    fault_proxy.add("/denied.pdf", "403")
    fault_proxy.add("/gone.pdf", "delete", times=1)
    fault_proxy.add("/slow.pdf", "503", times=3)  # more than the client's own retries: the task retries
    fault_proxy.add("/cut_once.pdf", "truncate", times=1)
    fault_proxy.add("/cut_always.pdf", "truncate")
    args = dict(store=f"s3://{dst}/index", endpoint_url=fault_proxy.url, store_endpoint_url=moto_endpoint,
                source_max_attempts=1, **FAST)

    report = ingest(f"s3://{src}", **args)
    by_id = {d["doc_id"]: d for d in report["documents"]}
    assert {k: v["status"] for k, v in by_id.items()} == {
        "good": "new", "slow": "new", "cut_once": "new",
        "denied": "failed", "cold": "failed", "gone": "failed", "cut_always": "failed", "notpdf": "failed",
    }
    kinds = {f["doc_id"]: f["kind"] for f in report["failures"]}
    assert kinds == {"denied": "access_denied", "cold": "access_denied", "gone": "gone",
                     "cut_always": "truncated", "notpdf": "not_pdf"}
    assert "deleted between listing and download" in by_id["gone"]["error"]
    assert sorted(store.doc_ids()) == ["cut_once", "good", "slow"]
    assert store.verify() == []

    # Faults cleared: the next run retries the failures (nothing was published for them) and skips the rest.
    fault_proxy.faults.clear()
    again = ingest(f"s3://{src}", **args)
    status = {d["doc_id"]: d["status"] for d in again["documents"]}
    assert status == {"good": "unchanged", "slow": "unchanged", "cut_once": "unchanged",
                      "denied": "new", "cut_always": "new", "cold": "failed", "notpdf": "failed"}


def test_a_stalled_document_times_out_and_the_rest_of_the_run_goes_on(prefect_harness, s3, moto_endpoint,
                                                                     fault_proxy, tmp_path):
    src = new_bucket(s3, "stall")
    for name in ("stuck", "fine"):
        s3.put_object(Bucket=src, Key=f"{name}.pdf", Body=pdf_bytes(name))
    fault_proxy.stall_seconds = 6.0
    fault_proxy.add("/stuck.pdf", "stall")
    report = ingest(f"s3://{src}", store=str(tmp_path / "index"), endpoint_url=fault_proxy.url, doc_timeout=3.0, **FAST)
    status = {d["doc_id"]: (d["status"], d["error_kind"]) for d in report["documents"]}
    assert status == {"stuck": ("failed", "timeout"), "fine": ("new", None)}


def test_missing_source_bucket_is_a_clear_error_at_start(prefect_harness, s3, moto_endpoint, tmp_path):
    with pytest.raises(SourceError, match="does not exist"):
        ingest("s3://pagetree-no-such-bucket/x", store=str(tmp_path / "index"), endpoint_url=moto_endpoint)
    assert not (tmp_path / "index" / "runs").exists()


def test_removed_documents_are_reported_and_tombstoned_never_deleted(prefect_harness, s3, moto_endpoint):
    src, dst, store = _stores(s3, moto_endpoint)
    bodies = {name: pdf_bytes(name) for name in ("keep", "drop")}
    for name, body in bodies.items():
        s3.put_object(Bucket=src, Key=f"p/{name}.pdf", Body=body)
    args = dict(store=f"s3://{dst}/index", endpoint_url=moto_endpoint, store_endpoint_url=moto_endpoint, **FAST)
    ingest(f"s3://{src}/p", **args)
    version = store.latest("drop")["version"]
    s3.delete_object(Bucket=src, Key="p/drop.pdf")

    report = ingest(f"s3://{src}/p", tombstone_removed=True, **args)
    assert report["removed_from_source"] == ["drop"]
    latest = store.latest("drop")
    assert latest["version"] == version and latest["removed_from_source"]["run_id"] == report["run_id"]
    assert store.has_version("drop", version)
    assert ingest(f"s3://{src}/p", **args)["removed_from_source"] == []  # reported once, when it disappears

    s3.put_object(Bucket=src, Key="p/drop.pdf", Body=bodies["drop"])
    back = ingest(f"s3://{src}/p", **args)
    assert {d["doc_id"]: d["status"] for d in back["documents"]} == {"keep": "unchanged", "drop": "unchanged"}
    assert not store.latest("drop").get("removed_from_source")


def test_two_runs_at_once_on_one_store_leave_a_sound_latest(prefect_harness, s3, moto_endpoint):
    src, dst, store = _stores(s3, moto_endpoint)
    for i in range(4):
        s3.put_object(Bucket=src, Key=f"d{i}.pdf", Body=pdf_bytes(f"race {i}"))
    results: list[dict] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(ingest(f"s3://{src}", store=f"s3://{dst}/index", endpoint_url=moto_endpoint,
                                  store_endpoint_url=moto_endpoint, **FAST))
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == [] and len(results) == 2
    assert all(r["counts"]["failed"] == 0 for r in results)
    for i in range(4):
        latest = store.latest(f"d{i}")  # parses: never a torn or interleaved write
        assert store.has_version(f"d{i}", latest["version"])
    assert store.verify() == []
