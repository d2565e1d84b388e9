"""prefect.yaml as docs/operations.md ("Deployments from a clone") deploys it: from a clean copy of the repo, a
real Prefect server, a process work pool and worker, `prefect deploy --all`, then `ingest/nightly` over a local
folder into a local store, once on the default runner and once on Dask chosen by a deployment parameter."""

from __future__ import annotations

import json
import shutil
import subprocess
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


@pytest.mark.timeout(300)
def test_nightly_deployment_runs_from_a_clean_clone_on_threads_then_dask(tmp_path: Path):
    clone = clean_clone(tmp_path / "clone")
    source, store = tmp_path / "source", tmp_path / "store"
    source.mkdir()
    for name in ("alpha", "beta"):
        (source / f"{name}.pdf").write_bytes(pdf_bytes(name.title(), pages=2))

    with LocalStack(tmp_path) as stack:
        # No scheduler service: it would fill ~100 future runs per schedule into the database while the test
        # runs; the schedules themselves are checked in test_ingest_deploy.py.
        stack.start_server(PREFECT_SERVER_SERVICES_SCHEDULER_ENABLED="false")
        # The commands of docs/operations.md, in its order.
        stack.prefect("work-pool", "create", "pagetree", "--type", "process")
        stack.start_worker(PAGETREE_APP_DIR=str(clone))  # starts (imports) while the deployments are made
        deployed = stack.prefect("--no-prompt", "deploy", "--all", cwd=clone)
        assert "ingest/nightly" in deployed.stdout

        run = stack.prefect("deployment", "run", "ingest/nightly", "--param", f"source={source}",
                            "--param", f"store={store}", "--watch", "--watch-timeout", "150", check=False)
        assert run.returncode == 0, run.stdout[-3000:] + "\nworker log:\n" + stack.log("worker")
        [first] = reports(store)
        assert first["counts"]["new"] == 2 and first["counts"]["failed"] == 0, first["counts"]
        assert "partial" not in first  # the final report replaced the checkpoints
        assert not any(n.startswith("task runner:") for n in first["notes"])  # the flow's own runner
        with stack.client() as client:
            from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

            artifacts = client.read_artifacts(artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["ingest-report"])))
        assert any(first["run_id"] in (a.description or "") for a in artifacts)

        (source / "gamma.pdf").write_bytes(pdf_bytes("Gamma", pages=2))
        run = stack.prefect("deployment", "run", "ingest/nightly", "--param", f"source={source}",
                            "--param", f"store={store}", "--param", "task_runner=dask", "--param", "workers=1",
                            "--watch", "--watch-timeout", "150", check=False)
        assert run.returncode == 0, run.stdout[-3000:] + "\nworker log:\n" + stack.log("worker")
        second = reports(store)[-1]
        assert second["run_id"] != first["run_id"]
        assert (second["counts"]["new"], second["counts"]["unchanged"]) == (1, 2), second["counts"]
        assert "task runner: dask (workers=1)" in second["notes"]
