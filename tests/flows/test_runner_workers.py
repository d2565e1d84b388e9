"""Worker processes started by flows.runners skip PyMuPDF's layout model (an ONNX load pagetree never uses).

Real processes: a Dask LocalCluster built from the runner's own cluster settings, and a spawn-context process
pool with the runner's initializer, each compared with a plain spawned process.
"""

from __future__ import annotations

import importlib.util
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from flows.runners import make_task_runner
from flows.worker_setup import skip_layout_model

pytestmark = pytest.mark.integration


def layout_model_loaded() -> bool:
    """In a worker: does importing PyMuPDF load pymupdf_layout's model? (and does parsing still work?)"""
    import pymupdf

    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "still parses")
    assert "still parses" in doc[0].get_text()
    return pymupdf._get_layout is not None


def test_worker_processes_skip_the_layout_model_and_plain_ones_do_not():
    from distributed import Client, LocalCluster

    installed = importlib.util.find_spec("pymupdf.layout") is not None  # pymupdf_layout comes with the bench extra
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as plain:
        assert plain.submit(layout_model_loaded).result(60) == installed

    with ProcessPoolExecutor(1, mp_context=spawn, initializer=skip_layout_model) as pool:
        assert pool.submit(layout_model_loaded).result(60) is False
    assert make_task_runner("processes", 1)._initializer is skip_layout_model  # what the processes runner passes

    with LocalCluster(**make_task_runner("dask", 1).cluster_kwargs) as cluster, Client(cluster) as client:
        assert client.submit(layout_model_loaded, pure=False).result(60) is False


def _busy(seconds: float) -> int:
    import time

    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
    return n


def _profile_state(dask_worker=None) -> tuple[bool, int]:
    """In a worker: are the statistical profiler's callbacks there, and how many stack samples were taken?
    (The recent profile moves to the history each second: both are counted.)"""
    samples = dask_worker.profile_recent.get("count", 0)
    samples += sum(profile.get("count", 0) for _, profile in dask_worker.profile_history)
    return "profile" in dask_worker.periodic_callbacks, samples


def test_dask_workers_from_the_runner_do_not_run_the_statistical_profiler():
    from distributed import Client, LocalCluster

    # A plain worker samples its running task every 10 ms: 0.5 s of work leaves dozens of samples ...
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        client.submit(_busy, 0.5, pure=False).result(60)
        (present, samples), = client.run(_profile_state).values()
        assert present and samples > 10
    # ... a worker started with the runner's preload (flows.worker_setup) takes none.
    with LocalCluster(**make_task_runner("dask", 1).cluster_kwargs) as cluster, Client(cluster) as client:
        client.submit(_busy, 0.5, pure=False).result(60)
        (present, samples), = client.run(_profile_state).values()
        assert not present and samples == 0


def _nap(seconds: float) -> float:
    import time

    time.sleep(seconds)
    return seconds


def test_the_runners_dask_cluster_hands_a_worker_one_task_at_a_time():
    """Batches shrink towards the end of a run; that only balances the workers if a busy worker is not also
    holding the next batch in reserve (Dask's default worker-saturation of 1.1 gives it one)."""
    import dask
    from distributed import Client, LocalCluster

    from flows.runners import local_cluster

    def held(cluster_factory) -> int:
        """Most tasks the single-threaded worker held at once once the queue was in use. Dask assigns a task group's
        first 2 x nthreads tasks eagerly, before it queues; what follows shows the scheduler's hand-out policy."""
        import time

        with cluster_factory(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            futures = [client.submit(_nap, 0.4, pure=False) for _ in range(7)]
            most = 0
            while not all(f.done() for f in futures):
                done = sum(f.done() for f in futures)
                held_now = sum(len(keys) for keys in client.processing().values())
                if 2 <= done <= len(futures) - 2:
                    most = max(most, held_now)
                time.sleep(0.05)
            return most

    with dask.config.set({"distributed.scheduler.worker-saturation": 1.1}):
        assert held(LocalCluster) == 2  # Dask's default: one running, one held in reserve
        assert held(local_cluster) == 1  # the runner's cluster: one at a time, whatever the ambient default
    runner = make_task_runner("dask", 2)
    assert runner.cluster_class == "flows.runners.local_cluster"


async def _ticks(dask_worker=None, dask_scheduler=None) -> int:
    """Event-loop ticks a Dask server takes in one second (its responsiveness probe, distributed.admin.tick);
    a coroutine, so that it waits on the server's event loop without blocking it."""
    import asyncio

    server = dask_worker or dask_scheduler
    before = server._tick_counter
    await asyncio.sleep(1.0)
    return server._tick_counter - before


def test_the_runners_cluster_and_preloaded_workers_tick_every_500_ms_not_20():
    from distributed import Client, LocalCluster

    from flows.runners import local_cluster

    plain = dict(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None)
    with LocalCluster(**plain) as cluster, Client(cluster) as client:
        assert next(iter(client.run(_ticks).values())) >= 20  # Dask's default: every 20 ms
    # The runner's temporary cluster: scheduler and workers alike.
    with local_cluster(**plain) as cluster, Client(cluster) as client:
        assert next(iter(client.run(_ticks).values())) <= 3
        assert client.run_on_scheduler(_ticks) <= 3
    # An existing cluster configured by someone else, whose workers preload flows.worker_setup.
    with LocalCluster(**plain, preload=["flows.worker_setup"]) as cluster, Client(cluster) as client:
        assert next(iter(client.run(_ticks).values())) <= 3
        assert client.run_on_scheduler(_ticks) >= 20  # the scheduler is the operator's (docs/operations.md)
