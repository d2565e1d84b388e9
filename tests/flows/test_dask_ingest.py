"""Scale-out: the ingest flow on a real distributed LocalCluster (worker processes), S3 source on moto."""

from __future__ import annotations

import os

import pytest

from flows.ingest import ingest
from flows.runners import RunnerError, make_task_runner, with_runner
from index_store.store import Store
from tests.support.s3 import moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


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
