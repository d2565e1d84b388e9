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
