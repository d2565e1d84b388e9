"""Prefect's thread and process pools that also say their size (``slots``).

``flows.ingest.runner_slots`` sizes its batches by how many tasks run at once. Prefect keeps a pool's size in
a private attribute, and copies the runner for every flow run (``duplicate()`` calls the class again with the
size), so the size is recorded here, at construction, where Prefect's public constructor hands it over.
"""

from __future__ import annotations

from prefect.task_runners import ProcessPoolTaskRunner, ThreadPoolTaskRunner


class _Sized:
    def __init__(self, max_workers: int | None = None):
        super().__init__(max_workers=max_workers)  # type: ignore[call-arg]  # the pool class after this one
        self.slots = max_workers


class SizedThreadPool(_Sized, ThreadPoolTaskRunner):
    pass


class SizedProcessPool(_Sized, ProcessPoolTaskRunner):
    pass
