"""Unreadable entries in a source folder are one row each; the rest of the batch completes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from flows.cli import main
from flows.sources import LocalSource, ObjectError, ObjectGone
from tests.pdfs import text_pdf


def _pdf(path: Path, title: str = "Doc") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return text_pdf(path, [f"{title}\nA page of text about {title}."])


def _hostile_folder(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    _pdf(src / "good.pdf", "Good")
    _pdf(src / "sub" / "inner.pdf", "Inner")
    _pdf(tmp_path / "elsewhere" / "secret.pdf", "Secret")
    (src / "dangling.pdf").symlink_to(src / "missing.pdf")
    (src / "loop.pdf").symlink_to(src / "loop.pdf")
    os.mkfifo(src / "pipe.pdf")
    (src / "outside.pdf").symlink_to(tmp_path / "elsewhere" / "secret.pdf")
    (src / "linked-dir").symlink_to(tmp_path / "elsewhere")
    (src / "inside.pdf").symlink_to(src / "sub" / "inner.pdf")
    return src


def test_listing_gives_one_row_per_unreadable_entry(tmp_path: Path) -> None:
    src = _hostile_folder(tmp_path)
    objs = {o.key: o for o in LocalSource(src).list()}
    kinds = {key: o.problem_kind for key, o in objs.items()}
    assert kinds == {"dangling.pdf": "unreadable", "loop.pdf": "unreadable", "pipe.pdf": "not_a_file",
                     "outside.pdf": "symlink_outside", "linked-dir": "symlink_outside", "good.pdf": None,
                     "inside.pdf": None, "sub/inner.pdf": None}
    assert "not followed" in objs["outside.pdf"].problem
    with pytest.raises(ObjectError) as info:
        LocalSource(src).download(objs["pipe.pdf"], "")
    assert info.value.kind == "not_a_file"


def test_a_file_removed_while_listing_is_one_row(tmp_path: Path) -> None:
    src = tmp_path / "src"
    for name in ("a.pdf", "b.pdf", "c.pdf"):
        _pdf(src / name)
    listing = LocalSource(src).list()
    first = next(listing)
    (src / "b.pdf").unlink()
    rest = list(listing)
    assert first.key == "a.pdf" and [(o.key, o.problem_kind) for o in rest] == [("b.pdf", "gone"), ("c.pdf", None)]


def test_a_fifo_swapped_in_after_listing_is_not_read(tmp_path: Path) -> None:
    src = tmp_path / "src"
    _pdf(src / "a.pdf")
    (obj,) = LocalSource(src).list()
    (src / "a.pdf").unlink()
    os.mkfifo(src / "a.pdf")  # opening it for reading would block the worker
    with pytest.raises(ObjectError) as info:
        LocalSource(src).download(obj, "")
    assert info.value.kind == "not_a_file"


@pytest.mark.integration
def test_ingest_of_a_hostile_folder_publishes_the_good_files_and_reports_the_rest(prefect_harness, tmp_path: Path,
                                                                                capsys) -> None:
    src, store = _hostile_folder(tmp_path), tmp_path / "index"
    assert main(["ingest", str(src), "--store", str(store)]) == 1
    report = json.loads(next((store / "runs").glob("*.json")).read_text())
    rows = {d["doc_id"]: d for d in report["documents"]}
    assert {d for d, r in rows.items() if r["status"] == "new"} == {"good", "inside", "sub__inner"}
    assert sorted(f["kind"] for f in report["failures"]) == ["not_a_file", "unreadable", "unreadable"]
    skipped = [r for r in rows.values() if r["status"] == "skipped"]
    assert len(skipped) == 2 and all("not followed" in r["reason"] for r in skipped)
    assert {r["error_kind"] for r in skipped} == {"symlink_outside"}
    assert not any("secret" in p.name.lower() for p in (store / "docs").iterdir())
    err = capsys.readouterr().err
    assert "Traceback" not in err
    for phrase in ("dangling.pdf: dangling symlink", "loop.pdf: symlink loop", "pipe.pdf: not a regular file"):
        assert phrase in err
    assert main(["verify", "--store", str(store)]) == 0


def test_permission_denied_entries_are_rows(tmp_path: Path) -> None:
    """Real EACCES: the listing runs in a forked child that drops to 'nobody' when the tests run as root."""
    import json
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="pagetree-perm-"))  # under /tmp: reachable by 'nobody'
    try:
        base.chmod(0o755)
        src = base / "src"
        _pdf(src / "open.pdf")
        _pdf(src / "secret.pdf")
        _pdf(src / "locked" / "inside.pdf")
        for path in (src, src / "open.pdf", src / "secret.pdf"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        (src / "secret.pdf").chmod(0o000)
        (src / "locked").chmod(0o000)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into pytest
            try:
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                source = LocalSource(src)
                objs = {o.key: o for o in source.list()}
                rows = {key: o.problem_kind for key, o in objs.items()}
                try:
                    source.download(objs["secret.pdf"], "")
                    rows["download"] = "read"
                except ObjectError as exc:
                    rows["download"] = exc.kind
                os.write(write, json.dumps(rows).encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as fh:
            rows = json.loads(fh.read() or "{}")
        os.waitpid(pid, 0)
        assert rows == {"open.pdf": None, "secret.pdf": None, "locked/": "unreadable", "download": "access_denied"}
    finally:
        for path in (src / "locked", src / "secret.pdf"):
            path.chmod(0o755)
        shutil.rmtree(base, ignore_errors=True)


def test_stat_gives_the_listed_object_and_a_missing_file_is_gone(tmp_path: Path) -> None:
    _pdf(tmp_path / "a.pdf")
    source = LocalSource(tmp_path)
    [listed] = list(source.list())
    assert source.stat("a.pdf") == listed
    assert LocalSource(tmp_path / "a.pdf").stat("a.pdf") == listed  # a source that is one file
    with pytest.raises(ObjectGone, match="no longer exists"):
        source.stat("missing.pdf")
