#!/usr/bin/env bash
# End-to-end check of the docker-compose stack, for a maintainer with a Docker engine and Compose v2:
# build + up, three sample PDFs into s3://pagetree-source/filings/, `prefect deploy --all` from the
# worker container, run ingest/nightly and check the store (latest.json, tree.json, Parquet tables,
# manifest, runs/<run-id>.json and its counts), run it again and check every document is `unchanged`,
# `pagetree verify`, then tear the stack down (volumes included). Exits non-zero on the first failure.
#   infra/smoke.sh                                          # docker-compose.yml as is (pulls minio, prefecthq, python images)
#   infra/make-local-base.sh && PAGETREE_LOCAL_IMAGES=1 infra/smoke.sh   # no registry: + docker-compose.local.yml
# Env: PAGETREE_LOCAL_IMAGES=1 (add the local override), SMOKE_PROJECT (compose project, default
# pagetree-smoke, so a `pagetree` stack's volumes are never touched; ports 9000/4200 must be free),
# SMOKE_TIMEOUT (seconds per flow run, default 900), KEEP_UP=1 (leave the stack running at the end).
# Everything runs inside the stack's containers: the host needs only docker and the compose plugin.
# Not part of pytest or .ci/run (CI has no Docker engine).
set -euo pipefail
cd "$(dirname "$0")/.."

project=${SMOKE_PROJECT:-pagetree-smoke}
timeout=${SMOKE_TIMEOUT:-900}
files=(-f infra/docker-compose.yml)
[ "${PAGETREE_LOCAL_IMAGES:-0}" = 1 ] && files+=(-f infra/docker-compose.local.yml)
compose() { docker compose -p "$project" "${files[@]}" "$@"; }
step() { printf '\n== %s  (%s)\n' "$*" "$(date -u +%T)"; }

finish() {
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "smoke: FAILED (exit $rc); last service logs:" >&2
    compose logs --no-color --tail 60 >&2 || true
  fi
  if [ "${KEEP_UP:-0}" = 1 ]; then
    echo "smoke: stack left running (project $project): docker compose -p $project ${files[*]} down -v"
  else
    compose down -v --remove-orphans >/dev/null 2>&1 || true
  fi
  [ "$rc" = 0 ] && echo "smoke: OK"
  exit "$rc"
}
trap finish EXIT

step "compose ${files[*]} (project $project)"
docker compose version
compose down -v --remove-orphans >/dev/null 2>&1 || true          # a fresh store every time
compose up -d --build                 # returns once buckets exited 0 and the server is healthy
compose ps

step "sample PDFs -> s3://pagetree-source/filings/"
compose exec -T worker sh -ec '
  pagetree samples /tmp/smoke-samples
  python - <<EOF
import boto3, pathlib
s3 = boto3.client("s3")
for p in sorted(pathlib.Path("/tmp/smoke-samples").glob("*.pdf")):
    s3.upload_file(str(p), "pagetree-source", "filings/" + p.name)
    print("uploaded filings/" + p.name, p.stat().st_size, "bytes")
EOF'

step "prefect deploy --all (from the worker container)"
# The worker creates the pool when it starts (only if missing); deploying before that fails on a missing pool.
compose exec -T worker sh -c 'for i in $(seq 120); do prefect work-pool inspect pagetree >/dev/null 2>&1 && exit 0; sleep 1; done; echo "no pagetree pool after 120 s" >&2; exit 1'
compose run --rm -T worker prefect --no-prompt deploy --all

# One run of ingest/nightly, watched to a terminal state (non-zero exit unless Completed).
run_nightly() {
  compose exec -T worker prefect deployment run ingest/nightly --watch --watch-timeout "$timeout"
}

# Checks the newest ingest report and the store from inside the worker (boto3 + pagetree, AWS_* env).
# $1: first|second; $2: the number of reports of the ingest flow expected so far.
check_store() {
  compose exec -T worker python - "$1" "$2" <<'EOF'
import json, sys
import boto3

mode, n_reports = sys.argv[1], int(sys.argv[2])
bucket, prefix = "pagetree-index", "index/"
s3 = boto3.client("s3")
keys = {o["Key"]: o["Size"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        for o in page.get("Contents", [])}
sources = sorted(o["Key"] for o in s3.list_objects_v2(Bucket="pagetree-source", Prefix="filings/").get("Contents", []))
n = len(sources)
errors = []

def need(cond, msg):
    if not cond:
        errors.append(msg)

reports = []
for key in sorted(k for k in keys if k.startswith(prefix + "runs/") and k.endswith(".json")):
    report = json.loads(s3.get_object(Bucket=bucket, Key=key)["Body"].read())
    if report.get("flow") == "ingest":
        reports.append((key, report))
need(len(reports) == n_reports, f"{len(reports)} ingest run reports, expected {n_reports}")
key, report = reports[-1]
counts = report["counts"]
print(f"report {key}: {json.dumps(counts)}")
if mode == "first":
    expect = {"seen": n, "new": n, "changed": 0, "unchanged": 0, "failed": 0, "skipped": 0, "published": n}
    need(counts["pages"] > 0, "no pages indexed")
    need(counts["bytes_downloaded"] == sum(o["Size"] for o in
         s3.list_objects_v2(Bucket="pagetree-source", Prefix="filings/")["Contents"]), "bytes_downloaded != source bytes")
else:
    expect = {"seen": n, "new": 0, "changed": 0, "unchanged": n, "failed": 0, "skipped": 0, "published": 0}
    need(counts["bytes_downloaded"] == 0, "an unchanged run downloaded bytes")
for field, value in expect.items():
    need(counts.get(field) == value, f"counts.{field} = {counts.get(field)}, expected {value}")
need(report.get("failures") == [], f"failures: {report.get('failures')}")

for src in sources:
    doc_id = src.rsplit("/", 1)[1].rsplit(".", 1)[0]
    latest_key = f"{prefix}docs/{doc_id}/latest.json"
    if latest_key not in keys:
        errors.append(f"missing {latest_key}")
        continue
    latest = json.loads(s3.get_object(Bucket=bucket, Key=latest_key)["Body"].read())
    vdir = f"{prefix}docs/{doc_id}/versions/{latest['version']}/"
    for name in ("manifest.json", "tree.json", "nodes.parquet", "pages.parquet"):
        need(keys.get(vdir + name, 0) > 0, f"missing or empty {vdir + name}")
    versions = {k.split("/versions/")[1].split("/")[0] for k in keys if k.startswith(f"{prefix}docs/{doc_id}/versions/")}
    need(versions == {latest["version"]}, f"{doc_id}: versions {sorted(versions)} (one expected)")
    print(f"{doc_id}: v{latest['version']} {latest.get('page_count')} pages, {latest.get('structure_source')}")

if errors:
    print("store check FAILED:\n  " + "\n  ".join(errors), file=sys.stderr)
    sys.exit(1)
print(f"store check ({mode} run): OK")
EOF
}

step "run 1: ingest/nightly"
run_nightly
check_store first 1

step "run 2: ingest/nightly (every document unchanged)"
run_nightly
check_store second 2

step "pagetree verify + tree"
compose exec -T worker pagetree verify --store s3://pagetree-index/index
# head inside the container: a closed pipe on the host side makes `compose exec` exit 255.
compose exec -T worker sh -c 'pagetree tree manual --store s3://pagetree-index/index | head -5'
