"""The local store: atomic publish, latest.json, history, gc, verify, interrupted writes, races."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from index_store import layout
from index_store.backends import LocalBackend
from index_store.errors import NotFound
from index_store.model import Node, PageRecord, Tree, flatten, number_tree
from index_store.publish import publish_document
from index_store.store import Store
from index_store.tables import read_table


def _doc(doc_id: str, version: str, title: str = "Doc") -> dict:
    root = Node("", title, 0, 1, 2, nodes=[Node("", "Intro", 1, 1, 1, summary="s1"), Node("", "Body", 1, 2, 2, summary="s2")])
    number_tree(root)
    tree = Tree(doc_id=doc_id, version=version, page_count=2, structure_source="bookmarks", page_offset=None, root=root)
    pages = [PageRecord(1, "i", "intro text", "text", None), PageRecord(2, "1", "body text", "ocr", 91.5)]
    rows = flatten(root, {"0001": "intro text", "0002": "body text"})
    return dict(tree=tree, nodes=rows, pages=pages,
                source={"uri": "file:///x.pdf", "etag": "e1", "sha256": "ab" * 32, "bytes": 10},
                pipeline={"fingerprint": "f" * 64, "package_version": "0.1.0", "settings": {}},
                stats={"pages": 2}, decisions={})


def test_publish_writes_the_exact_layout(tmp_path: Path) -> None:
    store = Store(str(tmp_path))
    assert publish_document(store, **_doc("d1", "0123456789abcdef"))
    base = tmp_path / "docs" / "d1"
    latest = json.loads((base / "latest.json").read_text())
    assert latest["version"] == "0123456789abcdef" and latest["published_at"].endswith("Z")
    vdir = base / "versions" / "0123456789abcdef"
    assert sorted(p.name for p in vdir.iterdir()) == ["manifest.json", "nodes.parquet", "pages.parquet", "tree.json"]
    manifest = json.loads((vdir / "manifest.json").read_text())
    for key in ("doc_id", "version", "source", "pipeline", "created_at", "stats", "files"):
        assert key in manifest
    assert set(manifest["source"]) >= {"uri", "etag", "sha256", "bytes"}
    assert set(manifest["pipeline"]) >= {"fingerprint", "package_version", "settings"}
    assert set(manifest["files"]) == {"tree.json", "nodes.parquet", "pages.parquet"}
    tree = json.loads((vdir / "tree.json").read_text())
    assert tree["schema_version"] == 2 and tree["root"]["node_id"] == "0000"
    assert [n["node_id"] for n in tree["root"]["nodes"]] == ["0001", "0002"]
    nodes = read_table(str(vdir / "nodes.parquet")).to_pylist()
    assert [n["path"] for n in nodes] == ["Doc", "Intro", "Body"] and nodes[1]["parent_id"] == "0000"
    pages = read_table(str(vdir / "pages.parquet")).to_pylist()
    assert pages[1]["text_source"] == "ocr" and pages[1]["ocr_confidence"] == pytest.approx(91.5)
    assert pages[0]["ocr_confidence"] is None and pages[0]["label"] == "i"
    assert store.verify() == []


def test_republishing_same_version_is_a_no_op(tmp_path: Path) -> None:
    store = Store(str(tmp_path))
    assert publish_document(store, **_doc("d1", "0123456789abcdef"))
    before = (tmp_path / "docs/d1/latest.json").read_bytes()
    assert not publish_document(store, **_doc("d1", "0123456789abcdef"))
    assert (tmp_path / "docs/d1/latest.json").read_bytes() == before


def test_history_gc_keeps_newest_and_latest(tmp_path: Path) -> None:
    store = Store(str(tmp_path))
    versions = [f"{i:016x}" for i in range(1, 6)]
    for v in versions:
        publish_document(store, **_doc("d1", v))
    assert [m["version"] for m in store.versions("d1")] == versions
    removed = store.gc(keep=2)
    assert sorted(v for _, v in removed) == versions[:3]
    assert [m["version"] for m in store.versions("d1")] == versions[3:]
    assert store.latest("d1")["version"] == versions[-1]
    assert store.verify() == []


def test_verify_reports_tampered_and_missing_files(tmp_path: Path) -> None:
    store = Store(str(tmp_path))
    publish_document(store, **_doc("d1", "0123456789abcdef"))
    vdir = tmp_path / "docs/d1/versions/0123456789abcdef"
    (vdir / "tree.json").write_text((vdir / "tree.json").read_text().replace("Intro", "Intra"))
    (vdir / "pages.parquet").unlink()
    problems = store.verify("d1")
    assert any("tree.json sha256 mismatch" in p for p in problems)
    assert any("pages.parquet is missing" in p for p in problems)


class _CrashBeforeManifest(LocalBackend):
    """A backend whose process 'dies' right after the data files are written."""

    def _write_file(self, path: Path, data: bytes) -> None:
        if path.name == layout.MANIFEST:
            raise OSError("injected crash between data files and manifest")
        super()._write_file(path, data)


def test_failure_between_data_and_manifest_leaves_no_visible_version(tmp_path: Path) -> None:
    crashing = Store(str(tmp_path), backend=_CrashBeforeManifest(tmp_path))
    with pytest.raises(OSError, match="injected crash"):
        publish_document(crashing, **_doc("d1", "0123456789abcdef"))
    store = Store(str(tmp_path))
    assert store.latest("d1") is None and store.versions("d1") == []
    with pytest.raises(NotFound):
        store.tree("d1")
    assert publish_document(store, **_doc("d1", "0123456789abcdef"))
    assert store.tree("d1").version == "0123456789abcdef" and store.verify() == []


def test_killed_process_mid_write_leaves_no_visible_version(tmp_path: Path) -> None:
    # A real hard crash: the child exits (no cleanup, no finally) after writing the data files.
    code = f"""
import os, sys
sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
from pathlib import Path
from index_store.backends import LocalBackend
from index_store.store import Store
from index_store.publish import publish_document
from tests.index_store.test_store_local import _doc
class Dying(LocalBackend):
    def _write_file(self, path, data):
        if path.name == "manifest.json":
            os._exit(9)
        super()._write_file(path, data)
publish_document(Store({str(tmp_path)!r}, backend=Dying({str(tmp_path)!r})), **_doc("d1", "0123456789abcdef"))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 9, result.stderr
    leftovers = list((tmp_path / "docs/d1/versions").iterdir())
    assert leftovers and all(p.name.startswith(".staging-") for p in leftovers)  # the half-written folder is hidden
    store = Store(str(tmp_path))
    assert store.versions("d1") == [] and store.latest("d1") is None
    assert publish_document(store, **_doc("d1", "0123456789abcdef"))
    assert [m["version"] for m in store.versions("d1")] == ["0123456789abcdef"]


def test_concurrent_publishers_never_corrupt_latest(tmp_path: Path) -> None:
    versions = [f"{i:016x}" for i in range(1, 9)]
    errors: list[Exception] = []

    def work(v: str) -> None:
        try:
            publish_document(Store(str(tmp_path)), **_doc("d1", v))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(v,)) for v in versions]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    latest = json.loads((tmp_path / "docs/d1/latest.json").read_text())
    assert latest["version"] in versions
    assert len(Store(str(tmp_path)).versions("d1")) == len(versions)


def test_versions_published_within_one_second_keep_their_order(tmp_path: Path) -> None:
    """Version ids are content hashes: within one second only created_at's milliseconds order them."""
    store = Store(str(tmp_path))
    versions = ["f" * 16, "0" * 16, "8" * 16]  # hash order is not publication order
    for v in versions:
        publish_document(store, **_doc("d1", v))
        time.sleep(0.005)
    assert [m["version"] for m in store.versions("d1")] == versions
    assert sorted(v for _, v in store.gc(keep=1)) == sorted(versions[:2])
    assert store.latest("d1")["version"] == versions[-1]
