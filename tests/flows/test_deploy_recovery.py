"""A run that dies leaves a partial report, and the next run says what it picked up (flows/checkpoint.py).

The kill itself (worker host SIGKILLed under a real server and the zombie automation) is measured by
benchmarks/deploy_recovery.py; here the two halves are pinned in process, on moto over HTTP."""

from __future__ import annotations

import json
import threading
import time

import pytest

from flows import checkpoint
from flows.ingest import ingest
from index_store.store import Store
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def _runs(s3, bucket: str) -> dict[str, dict]:
    out = {}
    for obj in s3.list_objects_v2(Bucket=bucket, Prefix="index/runs/").get("Contents", []):
        out[obj["Key"]] = json.loads(s3.get_object(Bucket=bucket, Key=obj["Key"])["Body"].read())
    return out


def test_partial_report_lists_what_is_published_while_the_run_goes_on(prefect_harness, s3, moto_endpoint,
                                                                        fault_proxy, monkeypatch):
    # At most one partial report a second: a and b finish together, so the report that lists both is the one
    # written when the second is up (a trailing write), while c's download hangs.
    monkeypatch.setattr(checkpoint, "CHECKPOINT_SECONDS", 1.0)
    src, dst = new_bucket(s3, "src"), new_bucket(s3, "idx")
    for name in ("a", "b", "c"):
        s3.put_object(Bucket=src, Key=f"f/{name}.pdf", Body=pdf_bytes(name, pages=2))
    fault_proxy.stall_seconds = 4.0
    fault_proxy.add("/f/c.pdf", "stall", times=1)  # c's download hangs while a and b are published
    result: dict = {}
    run = threading.Thread(target=lambda: result.update(ingest(
        f"s3://{src}/f", store=f"s3://{dst}/index", endpoint_url=fault_proxy.url, store_endpoint_url=moto_endpoint,
        batch_size=1, retry_base_seconds=0.01)))
    run.start()
    seen = None
    deadline = time.monotonic() + 60
    while run.is_alive() and time.monotonic() < deadline:
        partial = [r for r in _runs(s3, dst).values() if r.get("partial")]
        if partial and partial[0]["counts"]["new"] == 2:
            seen = partial[0]
            break
        time.sleep(0.05)
    run.join(60)
    assert seen is not None, "no partial report with the two published documents while c was stalled"
    assert seen["status"] == "running" and seen["checkpoint_at"] and seen["finished_at"] is None
    assert {d["doc_id"] for d in seen["documents"]} == {"a", "b"}
    final = _runs(s3, dst)[f"index/runs/{result['run_id']}.json"]
    assert "partial" not in final and final["counts"]["new"] == 3  # the final report replaced it


def test_next_run_recovers_a_crashed_run_and_says_what_it_picked_up(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.states import Crashed

    source, store_dir = tmp_path / "src", tmp_path / "store"
    source.mkdir()
    for name in ("a", "b", "c"):
        (source / f"{name}.pdf").write_bytes(pdf_bytes(name, pages=2))
    # What a run killed with its worker leaves: a and b published, its partial report, its flow run Crashed.
    first = ingest(str(source), store=str(store_dir), include=["a.pdf", "b.pdf"])
    store = Store(str(store_dir))
    record = json.loads((store_dir / "runs" / f"{first['run_id']}.json").read_text())
    with get_client(sync_client=True) as client:
        dead = client.create_flow_run(ingest, state=Crashed(message="no heartbeat"))
    # b was published after the dead run's last checkpoint: the partial report lists only a.
    record.update(partial=True, status="running", checkpoint_at=record["started_at"], finished_at=None,
                  prefect_flow_run_id=str(dead.id), source=str(source),
                  documents=[d for d in record["documents"] if d["doc_id"] == "a"])
    store.put_run(first["run_id"], record)

    second = ingest(str(source), store=str(store_dir))
    assert (second["counts"]["new"], second["counts"]["unchanged"]) == (1, 2)
    [note] = [n for n in second["notes"] if n.startswith("recovered run")]
    assert first["run_id"] in note and "Crashed" in note
    assert "2 documents it had published were kept (1 of them after its last checkpoint; 0 indexed again" in note
    assert "1 others were indexed" in note
    old = json.loads((store_dir / "runs" / f"{first['run_id']}.json").read_text())
    assert old["status"] == "crashed" and old["recovered_by"] == second["run_id"] and old["partial"] is True
    assert old["published_after_last_checkpoint"] == ["b"]

    third = ingest(str(source), store=str(store_dir))  # recovered once: not again
    assert not [n for n in third["notes"] if n.startswith("recovered run")]


def test_a_partial_report_of_a_run_still_going_is_left_alone(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.states import Running

    source, store_dir = tmp_path / "src", tmp_path / "store"
    source.mkdir()
    (source / "a.pdf").write_bytes(pdf_bytes("a", pages=2))
    first = ingest(str(source), store=str(store_dir))
    store = Store(str(store_dir))
    with get_client(sync_client=True) as client:
        live = client.create_flow_run(ingest, state=Running())
    record = dict(first, partial=True, status="running", checkpoint_at="x", prefect_flow_run_id=str(live.id))
    store.put_run(first["run_id"], record)
    second = ingest(str(source), store=str(store_dir))
    assert any("has not finished (Prefect state: Running" in n for n in second["notes"])
    assert "recovered_by" not in json.loads((store_dir / "runs" / f"{first['run_id']}.json").read_text())
