"""rebuild_stale and gc flows under Prefect's test harness, on a local folder and store."""

from __future__ import annotations

import pytest

from flows.ingest import ingest
from flows.maintenance import gc
from flows.rebuild import is_stale, rebuild_stale
from index_store.store import Store
from parsers.pipeline import PipelineSettings
from tests.support.s3 import pdf_bytes

pytestmark = pytest.mark.integration
OLD = {"page_group_size": 10}
NEW = {"page_group_size": 5}


@pytest.fixture
def indexed(tmp_path, prefect_harness):
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    for rel in ("a.pdf", "b.pdf", "sub/c.pdf"):
        (src / rel).write_bytes(pdf_bytes(rel, pages=2))
    store = str(tmp_path / "index")
    report = ingest(str(src), store=store, settings=OLD)
    assert report["counts"]["new"] == 3
    return src, store


def test_is_stale_filters():
    rec = {"doc_id": "fil__2023", "fingerprint": "old", "published_at": "2026-01-02T00:00:00Z",
           "source": {"uri": "s3://b/filings/2023/x.pdf"}}
    assert is_stale(rec, "new") and not is_stale(rec, "old")
    assert is_stale(rec, "new", doc_prefix="fil__") and not is_stale(rec, "new", doc_prefix="man")
    assert is_stale(rec, "new", source_prefix="s3://b/filings/") and not is_stale(rec, "new", source_prefix="s3://b/manuals/")
    assert is_stale(rec, "new", published_before="2026-02-01") and not is_stale(rec, "new", published_before="2026-01-01")


def test_nothing_is_stale_under_the_same_pipeline(indexed):
    _, store = indexed
    report = rebuild_stale(store=store, settings=OLD)
    assert report["counts"]["seen"] == 0


def test_rebuild_by_prefix_then_all_with_a_missing_source(indexed):
    src, store_uri = indexed
    store = Store(store_uri)
    old = {d: store.latest(d)["version"] for d in ("a", "b", "sub__c")}
    new_fp = PipelineSettings(**NEW).fingerprint()

    dry = rebuild_stale(store=store_uri, settings=NEW, dry_run=True)
    assert {d["doc_id"]: d["status"] for d in dry["documents"]} == {"a": "skipped", "b": "skipped", "sub__c": "skipped"}
    assert {d: store.latest(d)["version"] for d in old} == old

    sliced = rebuild_stale(store=store_uri, settings=NEW, doc_prefix="sub")
    assert [(d["doc_id"], d["status"]) for d in sliced["documents"]] == [("sub__c", "rebuilt")]
    assert store.latest("sub__c")["fingerprint"] == new_fp and store.latest("sub__c")["version"] != old["sub__c"]
    assert store.latest("a")["version"] == old["a"]

    (src / "b.pdf").unlink()
    rest = rebuild_stale(store=store_uri, settings=NEW)
    status = {d["doc_id"]: (d["status"], d["error_kind"]) for d in rest["documents"]}
    assert status == {"a": ("rebuilt", None), "b": ("failed", "gone")}
    assert store.latest("b")["version"] == old["b"]  # kept, not deleted
    assert Store(store_uri).backend.exists(f"runs/{rest['run_id']}.json")

    # An ingest under the new pipeline now sees a and sub/c as unchanged.
    again = ingest(str(src), store=store_uri, settings=NEW)
    assert {d["doc_id"]: d["status"] for d in again["documents"]} == {"a": "unchanged", "sub__c": "unchanged"}

    removed = gc(store=store_uri, keep=1)
    assert sorted(removed["versions_removed"]) == [f"a@{old['a']}", f"sub__c@{old['sub__c']}"]
    assert [m["version"] for m in store.versions("b")] == [old["b"]]
    assert store.verify() == []
