"""Leftovers of interrupted publications: verify warns (never-published, uncommitted versions) instead of failing,
gc removes them after a grace period, a full disk leaves no temp files, a missing store fails verify."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from flows.cli import main
from index_store import layout
from index_store.errors import StoreError
from index_store.publish import build_manifest, encode_version, publish_document
from index_store.store import Store, dumps, sha256_bytes
from tests.index_store.test_store_local import _doc
from tests.support.s3 import moto_endpoint, new_bucket, s3  # noqa: F401  (fixtures)

V1, V2 = "0123456789abcdef", "fedcba9876543210"
ROOT = Path(__file__).resolve().parents[2]


def _orphan(store: Store, doc_id: str, version: str) -> None:
    """What a first publication killed between its manifest and latest.json leaves: a committed version folder
    (written as Store.publish writes it, created on 2026-01-01)."""
    doc = _doc(doc_id, version)
    files = encode_version(doc["tree"], doc["nodes"], doc["pages"])
    manifest = build_manifest(tree=doc["tree"], source=doc["source"], pipeline=doc["pipeline"], stats=doc["stats"],
                              decisions=doc["decisions"])
    manifest.update(created_at="2026-01-01T00:00:00.000Z", files={n: sha256_bytes(d) for n, d in files.items()})
    store.backend.write_version(layout.version_prefix(doc_id, version), {**files, layout.MANIFEST: dumps(manifest)})


def test_never_published_versions_are_a_warning_and_gc_removes_them_after_the_grace(tmp_path: Path, capsys) -> None:
    store = Store(str(tmp_path))
    assert publish_document(store, **_doc("good", V1))
    _orphan(store, "lost", V2)
    problems, warnings = store.audit()
    assert problems == [] and len(warnings) == 1 and "lost: never published" in warnings[0]
    assert main(["verify", "--store", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "verify: OK" in captured.out and "WARNING lost: never published" in captured.err
    # The orphan's manifest says 2026-01-01: older than a day's grace, unlike a publication in progress.
    assert store.gc(keep=3, grace_seconds=10 * 365 * 86400) == []
    assert main(["gc", "--store", str(tmp_path)]) == 0
    assert f"removed lost@{V2}" in capsys.readouterr().out
    assert store.audit() == ([], []) and store.versions("good")
    assert publish_document(store, **_doc("lost", V2)) and store.verify() == []


def test_corruption_is_still_an_error(tmp_path: Path) -> None:
    store = Store(str(tmp_path))
    assert publish_document(store, **_doc("d", V1))
    (tmp_path / "docs/d/versions" / V1 / "tree.json").write_bytes(b"{}")
    problems, _ = store.audit()
    assert problems and "tree.json sha256 mismatch" in problems[0]
    assert main(["verify", "--store", str(tmp_path)]) == 1


def test_verify_and_gc_of_a_missing_store_fail(tmp_path: Path, capsys) -> None:
    missing = str(tmp_path / "does" / "not" / "exist")
    assert main(["verify", "--store", missing]) == 4
    assert main(["gc", "--store", missing]) == 4
    err = capsys.readouterr().err
    assert err.count("does not exist") == 2 and "OK" not in err
    assert not Path(missing).exists()
    with pytest.raises(StoreError):
        Store(missing).check()


def _age(path: Path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


def test_gc_removes_stale_staging_folders_and_temp_files_only(tmp_path: Path, capsys) -> None:
    store = Store(str(tmp_path))
    assert publish_document(store, **_doc("d", V1))
    versions = tmp_path / "docs/d/versions"
    stale, fresh = versions / f".staging-{V2}-{'a' * 32}", versions / f".staging-{V2}-{'b' * 32}"
    for folder in (stale, fresh):
        folder.mkdir()
        (folder / "tree.json").write_bytes(b"{")
    _age(stale, 7200)
    tmp_latest = tmp_path / "docs/d" / f".latest.json.{'c' * 32}.tmp"
    tmp_latest.write_bytes(b"")
    _age(tmp_latest, 7200)
    lock = tmp_path / "docs/d/.latest.json.lock"
    _age(lock, 7200)
    assert main(["gc", "--grace-hours", "1", "--store", str(tmp_path)]) == 0
    assert "2 leftovers of interrupted writes" in capsys.readouterr().out
    assert not stale.exists() and not tmp_latest.exists()
    assert fresh.exists() and lock.exists() and store.verify() == []


def test_a_write_that_fails_for_lack_of_space_leaves_no_temp_file(tmp_path: Path) -> None:
    # A real failing write: the child's file size limit (RLIMIT_FSIZE) makes write() fail with EFBIG part-way.
    code = f"""
import resource, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from index_store.backends import LocalBackend
backend = LocalBackend({str(tmp_path)!r})
backend.put_bytes("docs/d/latest.json", b"{{}}")
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    backend.put_bytes("docs/d/latest.json", b"x" * 100_000)
except OSError as exc:
    print("failed", exc.errno)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("failed"), result.stderr
    assert sorted(p.name for p in (tmp_path / "docs/d").iterdir()) == ["latest.json"]
    assert (tmp_path / "docs/d/latest.json").read_bytes() == b"{}"


@pytest.mark.integration
def test_s3_versions_without_manifest_are_warned_about_and_collected(s3, moto_endpoint) -> None:
    store = Store(f"s3://{new_bucket(s3)}/idx", endpoint_url=moto_endpoint)
    assert publish_document(store, **_doc("d", V1))
    store.backend.put_bytes(f"{layout.version_prefix('d', V2)}/tree.json", b"{}")  # killed before its manifest
    problems, warnings = store.audit()
    assert problems == [] and "without a manifest" in warnings[0] and V2 in warnings[0]
    assert store.gc(keep=3) == []  # written a moment ago: within the grace period
    assert store.gc(keep=3, grace_seconds=0) == [("d", V2)]
    assert store.audit() == ([], []) and [m["version"] for m in store.versions("d")] == [V1]
    with pytest.raises(StoreError):
        Store("s3://pagetree-no-such-bucket-x/idx", endpoint_url=moto_endpoint).check()
