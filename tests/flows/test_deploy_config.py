"""Deployment defaults that follow the product (issue 21): the pull step that serves the image and a clone, the
nightly include, heartbeats and the zombie-run automation, the gc role, the pinned Prefect of the stack, and the
first run under infra/iam-policy.json, where S3 answers 403 for a missing key."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from flows.deploy_steps import set_app_directory
from flows.ingest import ingest
from index_store.backends import S3Backend
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, pdf_bytes, s3  # noqa: F401  (fixtures)

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "prefect.yaml").read_text())
DEPLOYMENTS = {d["name"]: d for d in SPEC["deployments"]}


def test_pull_step_uses_the_clone_named_by_the_environment_else_the_image_folder(tmp_path, monkeypatch):
    [step] = SPEC["pull"]
    [(fqn, inputs)] = step.items()
    assert fqn == "flows.deploy_steps.set_app_directory" and inputs == {"default": "/app"}

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PAGETREE_APP_DIR", str(ROOT))
    assert set_app_directory(**inputs) == {"directory": str(ROOT)}
    assert Path.cwd() == ROOT

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PAGETREE_APP_DIR")
    with pytest.raises(FileNotFoundError, match="PAGETREE_APP_DIR is not set and the default '/nowhere'"):
        set_app_directory(default="/nowhere")
    monkeypatch.setenv("PAGETREE_APP_DIR", str(tmp_path))  # a folder, but not a checkout
    with pytest.raises(FileNotFoundError, match="not a pagetree checkout"):
        set_app_directory(**inputs)
    assert Path.cwd() == tmp_path


def test_nightly_include_covers_every_format_the_product_reads():
    include = {p.lower() for p in DEPLOYMENTS["nightly"]["parameters"]["include"]}
    assert {"*.pdf", "*.htm", "*.html", "*.xhtml", "*.md", "*.markdown"} <= include


def test_a_file_of_another_format_is_a_report_row_not_a_crash(prefect_harness, tmp_path):
    """With the nightly include, a Markdown file is listed: a row of its own in the report whether or not this
    version reads Markdown (issue 15), and the PDF beside it is indexed."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "guide.pdf").write_bytes(pdf_bytes("Guide", pages=2))
    (source / "notes.md").write_text("# Notes\n\nSome text.\n")
    (source / "image.png").write_bytes(b"\x89PNG not listed")
    report = ingest(str(source), store=str(tmp_path / "store"), include=DEPLOYMENTS["nightly"]["parameters"]["include"],
                    retry_base_seconds=0.01)
    rows = {d["uri"].rsplit("/", 1)[-1]: d for d in report["documents"]}
    assert set(rows) == {"guide.pdf", "notes.md"}
    assert rows["guide.pdf"]["status"] == "new"
    notes = rows["notes.md"]
    assert notes["status"] in ("new", "failed")
    if notes["status"] == "failed":
        assert notes["error_kind"] and "\n" not in notes["error"]


def test_runs_send_heartbeats_often_enough_for_the_zombie_automation():
    from prefect.events.schemas.automations import AutomationCore

    env = SPEC["definitions"]["work_pool"]["job_variables"]["env"]
    frequency = int(env["PREFECT_FLOWS_HEARTBEAT_FREQUENCY"])
    raw = yaml.safe_load((ROOT / "infra/automations/crash-zombie-runs.yaml").read_text())
    automation = AutomationCore.model_validate(raw)  # what `prefect automation create --from-file` validates
    trigger = automation.trigger
    assert trigger.posture == "Proactive" and "prefect.flow-run.heartbeat" in trigger.after
    within = trigger.within.total_seconds()
    assert 2 * frequency <= within <= 120  # a late heartbeat never crashes a live run; a dead one is found in 2 min
    assert [a.type for a in automation.actions] == ["change-flow-run-state"]
    assert automation.actions[0].state.value == "CRASHED"
    # Only runs tagged pagetree: a flow on the same server with Prefect's 180 s heartbeat is left alone.
    assert all("pagetree" in d["tags"] for d in SPEC["deployments"])
    assert "prefect.tag.pagetree" in json.dumps(raw["trigger"]["match_related"])


def test_deployment_runner_parameters_exist_on_the_flow():
    params = DEPLOYMENTS["backfill"]["parameters"]
    assert params["task_runner"] in ("threads", "processes", "dask") and params["workers"] >= 1


def test_gc_alone_may_delete():
    nightly = json.loads((ROOT / "infra/iam-policy.json").read_text())
    gc = json.loads((ROOT / "infra/iam-policy-gc.json").read_text())

    def actions(policy: dict) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {}
        for st in policy["Statement"]:
            assert st["Effect"] == "Allow"
            acts = st["Action"] if isinstance(st["Action"], list) else [st["Action"]]
            out.setdefault(st["Resource"], set()).update(acts)
        return out

    assert "s3:DeleteObject" not in json.dumps(nightly)
    assert actions(gc) == {"arn:aws:s3:::pagetree-index": {"s3:ListBucket"},
                           "arn:aws:s3:::pagetree-index/index/*": {"s3:GetObject", "s3:DeleteObject"}}
    assert all("s3:prefix" in json.dumps(st.get("Condition", {}))
               for st in gc["Statement"] if st["Action"] == "s3:ListBucket")
    # gc runs on its own queue, so that only a worker holding the gc role picks it up.
    assert DEPLOYMENTS["monthly-gc"]["work_pool"]["work_queue_name"] == "maintenance"
    assert DEPLOYMENTS["nightly"]["work_pool"]["work_queue_name"] == "default"


def test_stack_pins_one_prefect_release_restarts_the_worker_and_keeps_the_pool():
    dockerfile = (ROOT / "infra/Dockerfile").read_text()
    compose = yaml.safe_load((ROOT / "infra/docker-compose.yml").read_text())
    pinned = re.search(r"^ARG PREFECT_VERSION=(\d+\.\d+\.\d+)$", dockerfile, re.M).group(1)
    assert '"prefect==${PREFECT_VERSION}"' in dockerfile
    server_image = compose["services"]["prefect-server"]["image"]
    assert server_image == "prefecthq/prefect:${PREFECT_VERSION:-%s}-python3.11" % pinned
    worker = compose["services"]["worker"]
    assert worker["build"]["args"]["PREFECT_VERSION"] == "${PREFECT_VERSION:-%s}" % pinned
    assert worker["restart"] in ("unless-stopped", "always", "on-failure")
    assert "--overwrite" not in worker["command"] and "work-pool create" not in worker["command"]


# -- infra/iam-policy.json: a missing key answers 403 ------------------------------------------------------------
def test_first_run_on_an_empty_index_when_missing_keys_answer_403(prefect_harness, tmp_path, s3, moto_endpoint,
                                                                  fault_proxy):
    """Under infra/iam-policy.json, ListBucket is granted only with an s3:prefix condition, which a GET or HEAD
    does not carry: S3 answers 403 AccessDenied, not 404, for a missing key. The proxy answers so for the reads
    of keys that do not exist yet (each document's latest.json and first manifest); the run must index both."""
    bucket = new_bucket(s3, "idx")
    source = tmp_path / "src"
    source.mkdir()
    for name in ("one", "two"):
        (source / f"{name}.pdf").write_bytes(pdf_bytes(name, pages=2))
    fault_proxy.add("/latest.json", "403", times=2, method="GET")
    fault_proxy.add("/manifest.json", "403", times=2, method="HEAD")
    report = ingest(str(source), store=f"s3://{bucket}/index", store_endpoint_url=fault_proxy.url,
                    retry_base_seconds=0.01)
    assert report["counts"]["new"] == 2 and report["counts"]["failed"] == 0, report["failures"]
    assert all(f.hits == 2 for f in fault_proxy.faults)  # the 403s were served, and taken for "missing"


def test_a_403_on_a_key_that_exists_is_still_a_denial(s3, moto_endpoint, fault_proxy):
    import botocore.exceptions

    bucket = new_bucket(s3, "idx")
    s3.put_object(Bucket=bucket, Key="index/runs/r.json", Body=b"{}")
    backend = S3Backend(f"s3://{bucket}/index", endpoint_url=fault_proxy.url)
    fault_proxy.add("/runs/r.json", "403", method="GET")
    fault_proxy.add("/runs/r.json", "403", method="HEAD")
    with pytest.raises(botocore.exceptions.ClientError, match="AccessDenied|403"):
        backend.get_bytes("runs/r.json")
    with pytest.raises(botocore.exceptions.ClientError):
        backend.exists("runs/r.json")
    assert backend.exists("runs/missing.json") is False
