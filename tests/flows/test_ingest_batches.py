"""Documents indexed in batches: one Prefect task per batch, each document still its own retry unit.

The batch task runs here in-process against moto over HTTP behind the fault proxy
(real boto3, real S3 errors); the flow test runs under Prefect's test harness and
counts the task runs the API server recorded.
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path

import pytest

from flows.document import cached_source
from flows.ingest import PlanItem, batches, index_documents, ingest, least_batch, source_spec
from flows.ingest_run import rerun_outcome
from flows.sources import SourceObject
from index_store.store import Store
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)


def _item(name: str, size: int = 100) -> PlanItem:
    return PlanItem(SourceObject(f"s3://b/{name}.pdf", f"{name}.pdf", size, "etag"), name, "index", "new")


def test_batches_are_capped_by_count_and_bytes_and_keep_the_order():
    items = [_item(f"d{i:02}") for i in range(40)]
    assert [len(g) for g in batches(items, 8, 10_000, slots=1)] == [8, 8, 8, 8, 8]
    assert [i.doc_id for g in batches(items, 8, 10_000) for i in g] == [i.doc_id for i in items]
    # A document over the byte cap goes alone; the cap also closes the batch before it.
    items[3] = _item("big", 20_000)
    assert [[i.doc_id for i in g] for g in batches(items, 8, 10_000, slots=1)][:3] == [
        ["d00", "d01", "d02"], ["big"], [f"d{i:02}" for i in range(4, 12)]]


def test_batches_shrink_towards_the_end_so_workers_finish_together():
    # Guided self-scheduling: each batch takes at most ceil(remaining / slots) documents.
    # 40 on 2 slots: 40->8 (cap), 32->8, 24->8, 16->8, 8->4, 4->2, 2->1, 1->1.
    assert [len(g) for g in batches([_item(f"d{i}") for i in range(40)], 8, 10_000, slots=2)] == [8, 8, 8, 8, 4, 2, 1, 1]

    # The property that matters, on a simulated run: equal documents, each free worker taking the next batch
    # in order, plus a fixed cost per batch (a task run). The last worker finishes at most one document
    # (and one task run) after the ideal, and there are far fewer batches than documents.
    for docs, size, slots in [(200, 32, 2), (200, 32, 4), (1000, 32, 8), (37, 16, 3), (5, 32, 2)]:
        sizes = [len(g) for g in batches([_item(f"d{i}") for i in range(docs)], size, 10**9, slots=slots)]
        assert sum(sizes) == docs and sizes == sorted(sizes, reverse=True)
        per_task = 0.5  # a document costs 1
        free = [0.0] * slots
        for n in sizes:
            w = free.index(min(free))
            free[w] += per_task + n
        ideal = (docs + per_task * len(sizes)) / slots
        assert max(free) <= ideal + 1 + per_task, (docs, size, slots, sizes, free)
        assert len(sizes) <= docs / size + 2 * slots * (1 + math.log2(max(2, size))), (docs, sizes)


def test_few_documents_are_spread_over_several_tasks():
    # Three changed documents on a nightly run must not queue behind each other in one task.
    assert [len(g) for g in batches([_item(f"d{i}") for i in range(3)], 8, 10_000)] == [1, 1, 1]
    # 20 on 4 slots: 20->5, 15->4, 11->3, 8->2, 6->2, then singles.
    assert [len(g) for g in batches([_item(f"d{i}") for i in range(20)], 8, 10_000)] == [5, 4, 3, 2, 2, 1, 1, 1, 1]
    assert list(batches([], 8, 10_000)) == []


def test_the_shrinking_stops_at_the_least_batch_worth_a_task_run():
    # 40 on 2 slots, at least 3: 8, 8, 8, 8, then 8->4, 4->3 (not 2), and the last one.
    assert [len(g) for g in batches([_item(f"d{i}") for i in range(40)], 8, 10_000, slots=2, least=3)] == [
        8, 8, 8, 8, 4, 3, 1]
    # The cap still wins, and a large document still goes alone.
    assert [len(g) for g in batches([_item(f"d{i}") for i in range(10)], 4, 10_000, slots=2, least=6)] == [4, 4, 2]
    items = [_item("a"), _item("big", 20_000), _item("b")]
    assert [[i.doc_id for i in g] for g in batches(items, 8, 10_000, slots=1, least=8)] == [["a"], ["big"], ["b"]]


def test_least_batch_weighs_a_task_runs_overhead_against_one_documents_time():
    assert least_batch(0.3, 0.06, 64) == 5  # small PDFs: five documents cost what a task run costs
    assert least_batch(0.3, 2.0, 64) == 1  # large documents: every split is worth it
    assert least_batch(30.0, 0.01, 64) == 64  # never above the batch cap
    assert least_batch(0.0, 0.06, 64) == least_batch(0.3, 0.0, 64) == 1  # nothing measured yet


def test_a_rerun_keeps_the_status_the_plan_gave():
    # The dead batch may have published a document before its worker died: the re-run then finds the same
    # content and says 'unchanged', but for this run it is new, changed or rebuilt, as planned.
    from flows.report import DocOutcome

    for planned in ("new", "changed", "rebuilt"):
        item = PlanItem(SourceObject("s3://b/x.pdf", "x.pdf", 1, "e"), "x", "index", planned)
        assert rerun_outcome(item, DocOutcome("x", "s3://b/x.pdf", "unchanged")).status == planned
    failed = DocOutcome("x", "s3://b/x.pdf", "failed", error="boom")
    assert rerun_outcome(_item("x"), failed).status == "failed"


def test_one_batch_isolates_each_documents_failure_retry_and_timeout(s3, moto_endpoint, fault_proxy, tmp_path):
    src = new_bucket(s3, "batch")
    names = ["good", "denied", "stuck", "slow", "notpdf", "last"]
    for name in names:
        s3.put_object(Bucket=src, Key=f"{name}.pdf", Body=b"plain text" if name == "notpdf" else pdf_bytes(name, pages=2))
    fault_proxy.add("/denied.pdf", "403")
    fault_proxy.add("/slow.pdf", "503", times=2)  # beyond the client's single attempt: our own retries
    fault_proxy.stall_seconds = 6.0
    fault_proxy.add("/stuck.pdf", "stall", times=1)
    spec = source_spec(f"s3://{src}", endpoint_url=fault_proxy.url, max_attempts=1)
    objects = {o.key: o for o in cached_source(spec).list()}
    jobs = [{"doc_id": n, "obj": objects[f"{n}.pdf"], "status": "new", "reason": "", "spec": spec} for n in names]

    t0 = time.perf_counter()
    outcomes = index_documents.fn(jobs, str(tmp_path / "index"), {}, None, retry_base=0.01, doc_timeout=2.0)
    elapsed = time.perf_counter() - t0

    assert [(o.doc_id, o.status, o.error_kind) for o in outcomes] == [
        ("good", "new", None), ("denied", "failed", "access_denied"), ("stuck", "failed", "timeout"),
        ("slow", "new", None), ("notpdf", "failed", "not_pdf"), ("last", "new", None)]
    stuck = outcomes[2]
    assert 1.9 <= stuck.seconds < 5.0 and elapsed < 5.9  # cut at the 2 s timeout, not after the 6 s stall
    assert sorted(Store(str(tmp_path / "index")).doc_ids()) == ["good", "last", "slow"]
    assert all(o.pages == 2 for o in outcomes if o.status == "new")


def test_a_batch_downloads_the_next_document_while_the_current_one_is_worked_on(s3, moto_endpoint, fault_proxy,
                                                                                  tmp_path, monkeypatch):
    src = new_bucket(s3, "ahead")
    for name in ("a", "b", "c"):
        s3.put_object(Bucket=src, Key=f"{name}.pdf", Body=pdf_bytes(name, pages=2))
    fault_proxy.stall_seconds = 1.5
    fault_proxy.add("/a.pdf", "stall", times=1)  # the first download hangs for 1.5 s
    spec = source_spec(f"s3://{src}", endpoint_url=fault_proxy.url, max_attempts=1)
    objects = {o.key: o for o in cached_source(spec).list()}
    jobs = [{"doc_id": n, "obj": objects[f"{n}.pdf"], "status": "new", "reason": "", "spec": spec} for n in "abc"]
    # A temp folder of its own: other test runs on the machine create and remove pagetree-fetch-* folders in /tmp.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    before = set(tmp.glob("pagetree-fetch-*"))

    outcomes = index_documents.fn(jobs, str(tmp_path / "index"), {}, None, retry_base=0.01, doc_timeout=30)

    assert [(o.doc_id, o.status) for o in outcomes] == [("a", "new"), ("b", "new"), ("c", "new")]
    arrived: dict[str, float] = {}  # the first GET of each document
    for line, t in zip(fault_proxy.log, fault_proxy.arrived):
        if line.startswith("GET ") and line.endswith(".pdf"):
            arrived.setdefault(line.rsplit("/", 1)[-1], t)
    # b's GET went out while a's was still hanging (one document ahead), c's only once a's turn had come.
    assert arrived["b.pdf"] - arrived["a.pdf"] < 0.75
    assert arrived["c.pdf"] - arrived["a.pdf"] >= 1.4
    assert set(tmp.glob("pagetree-fetch-*")) <= before  # every download folder is gone


@pytest.mark.integration
def test_the_flow_runs_one_task_per_batch_and_maps_outcomes_back(prefect_harness, s3, moto_endpoint, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    src = new_bucket(s3, "perbatch")
    for i in range(6):
        s3.put_object(Bucket=src, Key=f"d{i}.pdf", Body=pdf_bytes(f"Batch {i}", pages=i + 1))
    state = ingest(f"s3://{src}", store=str(tmp_path / "index"), endpoint_url=moto_endpoint, return_state=True)
    report = state.result()
    assert {d["doc_id"]: (d["status"], d["pages"]) for d in report["documents"]} == {
        f"d{i}": ("new", i + 1) for i in range(6)}

    # 6 documents on the default thread runner (4 slots assumed): batches of 2, 1, 1, 1, 1, i.e. 5 task runs.
    flow_run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        for _ in range(50):  # task runs are recorded from events, a moment after they finish
            runs = client.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
            batch_runs = [r for r in runs if r.name.startswith("index-documents")]
            if len(batch_runs) >= 5 and all(r.state and r.state.is_final() for r in batch_runs):
                break
            time.sleep(0.2)
    assert len(batch_runs) == 5


def test_the_schedule_reads_the_runners_slots():
    from prefect.settings import PREFECT_TASKS_RUNNER_THREAD_POOL_MAX_WORKERS, temporary_settings
    from prefect.task_runners import ThreadPoolTaskRunner

    from flows.ingest import runner_slots
    from flows.runners import make_task_runner

    assert runner_slots(make_task_runner("threads", 3)) == 3
    assert runner_slots(make_task_runner("processes", 2)) == 2
    assert runner_slots(make_task_runner("threads", 3).duplicate()) == 3  # Prefect copies the runner per flow run
    assert runner_slots(ThreadPoolTaskRunner()) == 4  # unbounded: the default
    with temporary_settings({PREFECT_TASKS_RUNNER_THREAD_POOL_MAX_WORKERS: 5}):
        assert runner_slots(ThreadPoolTaskRunner()) == 5  # Prefect's default pool, sized by its setting
    assert runner_slots(None) == 4  # outside a flow run
