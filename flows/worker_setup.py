"""Dask's preload hook for the workers that index documents (``dask worker --preload flows.worker_setup``; the
temporary cluster of flows.runners preloads it too).

A worker imports the indexing chain (PyMuPDF, pyarrow, boto3, Prefect's task engine) when it starts, so that
the first batch it runs does not pay for those imports: ~2 s of CPU per process. Nothing else is changed.
"""

from __future__ import annotations


def dask_setup(worker: object) -> None:
    """Called once when a worker process starts, before it runs any task."""
    import flows.document  # noqa: F401  (imports parsers.pipeline, index_store and Prefect's task machinery)
