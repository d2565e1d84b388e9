"""Deployment files stay true to the code: prefect.yaml entrypoints load, parameters exist, schedules parse;
the IAM policy grants exactly list+read on the source prefix and read/write (no delete) on the index prefix."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

import yaml
from prefect.client.schemas.schedules import CronSchedule
from prefect.flows import load_flow_from_entrypoint

ROOT = Path(__file__).resolve().parents[2]


def test_prefect_yaml_deployments_match_the_flows():
    spec = yaml.safe_load((ROOT / "prefect.yaml").read_text())
    deployments = {d["name"]: d for d in spec["deployments"]}
    assert {"nightly", "weekly-rebuild-stale"} <= set(deployments)
    for dep in deployments.values():
        flow = load_flow_from_entrypoint(str(ROOT / dep["entrypoint"]))
        assert flow.name == dep["flow_name"]
        accepted = inspect.signature(flow.fn).parameters
        assert set(dep["parameters"]) <= set(accepted), dep["name"]
        for schedule in dep["schedules"]:
            CronSchedule(cron=schedule["cron"], timezone=schedule["timezone"])  # Prefect's own validation
    assert deployments["nightly"]["schedules"][0]["cron"] == "0 2 * * *"
    assert deployments["weekly-rebuild-stale"]["schedules"][0]["cron"].endswith("* 6")


def test_iam_policy_is_least_privilege():
    policy = json.loads((ROOT / "infra/iam-policy.json").read_text())
    grants = {}
    for st in policy["Statement"]:
        assert st["Effect"] == "Allow" and "*" not in json.dumps(st["Action"])
        actions = st["Action"] if isinstance(st["Action"], list) else [st["Action"]]
        grants.setdefault(st["Resource"], set()).update(actions)
    assert grants == {
        "arn:aws:s3:::pagetree-source": {"s3:ListBucket"},
        "arn:aws:s3:::pagetree-source/filings/*": {"s3:GetObject"},
        "arn:aws:s3:::pagetree-index": {"s3:ListBucket"},
        "arn:aws:s3:::pagetree-index/index/*": {"s3:GetObject", "s3:PutObject"},  # gc's DeleteObject: iam-policy-gc.json
    }
    lists = [st for st in policy["Statement"] if st["Action"] == "s3:ListBucket"]
    assert all("s3:prefix" in json.dumps(st.get("Condition", {})) for st in lists)
