"""Scale-out: the ingest flow on a real distributed LocalCluster (worker processes), S3 source on moto."""

from __future__ import annotations

import os

import pytest

from flows.ingest import ingest
from flows.runners import RunnerError, make_task_runner, with_runner
from index_store.store import Store
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _no_dask_profiler():
    """The clusters these tests start stand for existing clusters, set as docs/operations.md asks on CPython 3.11 <
    3.11.9: Dask's profiler can deadlock a worker there (flows/runners.py)."""
    import dask
    import distributed  # noqa: F401  its defaults first: leaving a config.set drops keys that did not exist on entry

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        yield


def test_ingest_on_a_dask_cluster_parses_in_worker_processes(prefect_harness, s3, moto_endpoint, tmp_path):
    from distributed import Client, LocalCluster

    src = new_bucket(s3, "dask")
    for i in range(4):
        s3.put_object(Bucket=src, Key=f"d{i}.pdf", Body=pdf_bytes(f"Dask {i}", pages=3))
    store_uri = str(tmp_path / "index")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        report = with_runner(ingest, "dask", dask_address=cluster.scheduler_address)(
            f"s3://{src}", store=store_uri, endpoint_url=moto_endpoint, chunk_size=2)
        with Client(cluster) as client:
            worker_pids = set(client.run(os.getpid).values())
    assert report["counts"]["new"] == 4 and report["counts"]["failed"] == 0
    assert len(worker_pids) == 2 and os.getpid() not in worker_pids
    store = Store(store_uri)
    assert sorted(store.doc_ids()) == ["d0", "d1", "d2", "d3"]
    assert store.verify() == []


def test_runner_selection():
    from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner
    from prefect_dask import DaskTaskRunner

    assert isinstance(make_task_runner("threads", 3), ThreadPoolTaskRunner)
    assert isinstance(make_task_runner("processes", 2), ProcessPoolTaskRunner)
    assert isinstance(make_task_runner("dask", 2), DaskTaskRunner)
    assert isinstance(make_task_runner("threads", dask_address="tcp://127.0.0.1:8786"), DaskTaskRunner)
    with pytest.raises(RunnerError):
        make_task_runner("fibers")
    with pytest.raises(RunnerError):
        make_task_runner("processes", dask_address="tcp://127.0.0.1:8786")


def test_model_calls_are_bounded_by_a_prefect_global_concurrency_limit(prefect_harness):
    """PAGETREE_MODEL_GCL names a Prefect global concurrency limit; with 1 slot on the server, four
    callers of a slow provider holding flows.models' slots never overlap."""
    import threading
    import time
    import uuid

    from prefect.client.orchestration import get_client
    from prefect.client.schemas.actions import GlobalConcurrencyLimitCreate

    from flows.models import prefect_slots
    from providers.offline import OfflineProvider

    name = f"pagetree-model-{uuid.uuid4().hex[:6]}"
    with get_client(sync_client=True) as client:
        client.create_global_concurrency_limit(GlobalConcurrencyLimitCreate(name=name, limit=1))

    class SlowOffline(OfflineProvider):
        active = 0
        peak = 0
        lock = threading.Lock()

        def complete(self, *args, **kwargs):
            with self.lock:
                SlowOffline.active += 1
                SlowOffline.peak = max(SlowOffline.peak, SlowOffline.active)
            time.sleep(0.3)
            with self.lock:
                SlowOffline.active -= 1
            return super().complete(*args, **kwargs)

    slots, provider = prefect_slots(name), SlowOffline()

    def call() -> None:
        with slots():  # what flows.models wraps around each HTTP attempt when PAGETREE_MODEL_GCL is set
            provider.complete("system", "some text to summarise")

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert SlowOffline.peak == 1


def test_a_batch_whose_worker_is_killed_is_rerun_one_document_per_task(prefect_harness, s3, moto_endpoint, fault_proxy,
                                                                         tmp_path):
    """A worker process killed mid-batch (as the OOM killer would) fails the batch as a whole; its documents
    are re-run one per task, so they are indexed in the same run instead of all failing."""
    import signal
    import threading
    import time

    import dask
    from distributed import Client, LocalCluster
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    src = new_bucket(s3, "killed")
    for i in range(6):
        s3.put_object(Bucket=src, Key=f"d{i}.pdf", Body=pdf_bytes(f"Killed {i}", pages=2))
    fault_proxy.stall_seconds = 30.0  # the window for d3-d4 to be published; the kill ends it (no wait when passing)
    fault_proxy.add("/d1.pdf", "stall", times=1)  # holds the first batch (d0-d2) on its worker until we kill it
    store_uri = str(tmp_path / "index")
    killed: list[int] = []
    # No Dask-level retry of a task whose worker died: the flow's own fallback must do the work.
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        pids = client.run(os.getpid)  # worker address -> pid

        def kill_when_stalled() -> None:
            # Once d1's download hangs and d3-d4 are published, the only busy worker is the one holding d0-d2
            # (d0 already published; d5 may be queued behind it): kill it, and only it, like an out-of-memory kill.
            # A generous deadline: on a loaded 2-core machine a fresh worker's imports alone took 40 s.
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                stalled = any(line.endswith("/d1.pdf") for line in fault_proxy.log)
                if stalled and {"d3", "d4"} <= set(Store(store_uri).doc_ids()):
                    busy = [addr for addr, keys in client.processing().items() if keys]
                    if len(busy) == 1:
                        os.kill(pids[busy[0]], signal.SIGKILL)
                        killed.append(pids[busy[0]])
                        return
                time.sleep(0.05)

        killer = threading.Thread(target=kill_when_stalled, daemon=True)
        killer.start()
        state = with_runner(ingest, "dask", dask_address=cluster.scheduler_address)(
            f"s3://{src}", store=store_uri, endpoint_url=fault_proxy.url, return_state=True)
        killer.join(5)
    report = state.result()
    assert killed, "the stalled download was never seen, so no worker was killed"
    assert {d["doc_id"]: d["status"] for d in report["documents"]} == {f"d{i}": "new" for i in range(6)}
    assert sorted(Store(store_uri).doc_ids()) == [f"d{i}" for i in range(6)]
    with get_client(sync_client=True) as prefect:
        for _ in range(50):
            runs = prefect.read_task_runs(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[state.state_details.flow_run_id])))
            batch_runs = [r for r in runs if r.name.startswith("index-documents")]
            if len(batch_runs) >= 6:
                break
            time.sleep(0.2)
    # 6 documents on 2 slots are 3 batches (3, 2, 1); the killed batch's 3 documents (and d5, if it was queued on
    # the killed worker) come back one per task.
    assert len(batch_runs) >= 6, [r.name for r in batch_runs]


def test_the_schedule_reads_a_dask_clusters_threads():
    from distributed import LocalCluster
    from prefect_dask import DaskTaskRunner

    from flows.ingest import runner_slots

    with LocalCluster(n_workers=3, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with DaskTaskRunner(address=cluster.scheduler_address) as runner:
            assert runner_slots(runner) == 3  # the cluster's threads, not the default of 4


def _unfinished_tasks(dask_scheduler) -> int:
    return sum(ts.state in ("waiting", "queued", "no-worker", "processing") for ts in dask_scheduler.tasks.values())


def test_the_flow_keeps_two_batches_per_worker_in_flight(prefect_harness, s3, moto_endpoint, tmp_path):
    """The flow sizes and submits the next batch when one finishes, keeping one ready per worker. Submitted all at
    once, Dask would assign a task group's first 2 x threads tasks to workers on arrival, and a small late batch
    could wait on a busy worker behind a large one while the other worker idles."""
    import threading
    import time

    from distributed import Client, LocalCluster

    src = new_bucket(s3, "window")
    for i in range(40):
        s3.put_object(Bucket=src, Key=f"d{i:02}.pdf", Body=pdf_bytes(f"Window {i}", pages=3))
    held: list[int] = []
    stop = threading.Event()
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        def watch() -> None:
            while not stop.is_set():
                held.append(client.run_on_scheduler(_unfinished_tasks))
                time.sleep(0.02)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            report = with_runner(ingest, "dask", dask_address=cluster.scheduler_address)(
                f"s3://{src}", store=str(tmp_path / "index"), endpoint_url=moto_endpoint)
        finally:
            stop.set()
            watcher.join(5)
    assert report["counts"]["new"] == 40 and report["counts"]["failed"] == 0
    # 40 documents on 2 slots: 20, 10, 5, 3 submitted at once, then the rest; submitted together, the batches
    # would have been 20, 10, 5, 3, 1, 1, all on the cluster at once.
    assert held and max(held) == 4, max(held)
