"""Shared fixtures. Sample PDFs are generated in code; Prefect runs under its test harness."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

# A local OpenAI-compatible server (providers engineer); see tests/support/openai_server.py.
from tests.support.openai_server import openai_server  # noqa: E402,F401


@pytest.fixture(scope="session")
def samples_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from parsers.samples import generate

    folder = tmp_path_factory.mktemp("samples")
    generate(folder)
    return folder


@pytest.fixture(scope="session")
def prefect_harness():
    """Prefect's own test harness: a temporary database and API for the whole session."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield
