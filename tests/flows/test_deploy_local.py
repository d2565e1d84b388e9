"""prefect.yaml as docs/operations.md ("Deployments from a clone") deploys it: from a clean copy of the repo, a
real Prefect server, a process work pool and worker, `prefect deploy --all`, then `ingest/nightly` over a local
folder into a local store, once on the default runner and once on Dask chosen by a deployment parameter."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.prefect_stack import LocalStack
from tests.support.s3 import pdf_bytes

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.integration


def clean_clone(dest: Path) -> Path:
    """The tracked files of this checkout, as `git clone` has them (with uncommitted edits: what is tested is
    what would be committed); no .venv, .prefect, stores or caches."""
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    for name in filter(None, files.decode().split("\0")):
        src = ROOT / name
        if src.is_file() and not src.is_symlink():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    return dest


def reports(store: Path) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted((store / "runs").glob("*.json"))]


def flow_run_id(created: str) -> str:
    return next(line.split("UUID:")[1].strip() for line in created.splitlines() if "UUID:" in line)


@pytest.mark.timeout(360)
def test_nightly_deployment_runs_from_a_clean_clone_on_threads_then_dask(tmp_path: Path):
    clone = clean_clone(tmp_path / "clone")
    source, store, dask_store = tmp_path / "source", tmp_path / "store", tmp_path / "dask-store"
    source.mkdir()
    for name in ("alpha", "beta"):
        (source / f"{name}.pdf").write_bytes(pdf_bytes(name.title(), pages=2))

    with LocalStack(tmp_path) as stack:
        # No scheduler service: it would fill ~100 future runs per schedule into the database while the test
        # runs (the schedules are checked in test_ingest_deploy.py). The second run waits for the first one's
        # slot (nightly has concurrency_limit 1) and asks again every second instead of every 30 s.
        stack.start_server(PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED="false",
                           PREFECT_SERVER_DEPLOYMENTS_CONCURRENCY_SLOT_WAIT_SECONDS="1")
        # The commands of docs/operations.md, in its order.
        stack.prefect("work-pool", "create", "pagetree", "--type", "process")
        stack.start_worker(PAGETREE_APP_DIR=str(clone))  # starts (imports) while the deployments are made
        deployed = stack.prefect("--no-prompt", "deploy", "--all", cwd=clone)
        assert "ingest/nightly" in deployed.stdout

        # Two runs of ingest/nightly, queued at once: the default runner, then Dask chosen by a parameter.
        threads = flow_run_id(stack.prefect("deployment", "run", "ingest/nightly", "--param", f"source={source}",
                                            "--param", f"store={store}").stdout)
        dask = flow_run_id(stack.prefect("deployment", "run", "ingest/nightly", "--param", f"source={source}",
                                         "--param", f"store={dask_store}", "--param", "task_runner=dask",
                                         "--param", "workers=1").stdout)
        states: dict[str, str] = {}
        deadline = time.monotonic() + 240
        with stack.client() as client:
            while time.monotonic() < deadline and len(states) < 2:
                for run_id in (threads, dask):
                    state = client.read_flow_run(run_id).state
                    if state is not None and state.is_final():
                        states[run_id] = state.name
                time.sleep(1)
            from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

            artifacts = client.read_artifacts(artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["ingest-report"])))
        assert states == {threads: "Completed", dask: "Completed"}, f"{states}\nworker log:\n{stack.log('worker')}"

    [first] = reports(store)
    assert first["counts"]["new"] == 2 and first["counts"]["failed"] == 0, first["counts"]
    assert "partial" not in first  # the final report replaced the checkpoints
    assert not any(n.startswith("task runner:") for n in first["notes"])  # the flow's own runner
    [second] = reports(dask_store)
    assert second["counts"]["new"] == 2 and second["counts"]["failed"] == 0, second["counts"]
    assert "task runner: dask (workers=1)" in second["notes"]
    assert {first["run_id"], second["run_id"]} <= {(a.description or "").removeprefix("pagetree run ") for a in artifacts}
