"""The Dask cluster flows.runners starts: its workers preload the indexing imports, its scheduler hands a
single-threaded worker one task at a time. Real processes (a Dask LocalCluster from the runner's own settings).
"""

from __future__ import annotations

import pytest

from flows.runners import make_task_runner

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
def _no_dask_profiler():
    """The clusters these tests start stand for existing clusters, set as docs/operations.md asks on CPython 3.11 <
    3.11.9: Dask's profiler can deadlock a worker there (flows/runners.py)."""
    import dask
    import distributed  # noqa: F401  its defaults first: leaving a config.set drops keys that did not exist on entry

    with dask.config.set({"distributed.worker.profile.enabled": False}):
        yield


def _imported_before_any_task() -> bool:
    import sys

    return "flows.document" in sys.modules and "parsers.pipeline" in sys.modules


def test_the_runners_workers_import_the_indexing_chain_when_they_start():
    from distributed import Client, LocalCluster

    with LocalCluster(**make_task_runner("dask", 1).cluster_kwargs) as cluster, Client(cluster) as client:
        assert list(client.run(_imported_before_any_task).values()) == [True]  # client.run: no task has run


def _profiling() -> bool:
    import dask

    return bool(dask.config.get("distributed.worker.profile.enabled"))


def test_the_runners_workers_do_not_sample_their_threads():
    """Dask's profiler (sys._current_frames every 10 ms) can deadlock a worker on CPython 3.11 < 3.11.9
    (flows/runners.py): the temporary cluster's workers run without it."""
    import dask
    from distributed import Client

    from flows.runners import local_cluster

    with dask.config.set({"distributed.worker.profile.enabled": True}), \
            local_cluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        assert list(client.run(_profiling).values()) == [False]  # whatever the ambient setting


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
