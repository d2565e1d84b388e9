"""Document sources: where PDFs come from. A local folder here; S3 behind the same interface.

A source lists ``SourceObject``s cheaply (no content read) and materialises one
object as a local file on demand, so the planner can skip unchanged documents
without downloading them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import unquote, urlparse

from flows.source_types import (DEFAULT_INCLUDE, ObjectChanged, ObjectDenied, ObjectError, ObjectGone, Source,
                                SourceError, SourceObject, TransientObjectError, matches)
from index_store.layout import doc_id_from_path

# The shared types are imported from here by the flows and the tests; they live in flows/source_types.py.
__all__ = ["DEFAULT_INCLUDE", "LocalSource", "ObjectChanged", "ObjectDenied", "ObjectError", "ObjectGone", "Source",
           "SourceError", "SourceObject", "TransientObjectError", "default_doc_id", "matches", "open_source"]


class LocalSource:
    """Files under a folder (recursively), or an explicit list of files."""

    def __init__(self, root: str | os.PathLike[str], include: tuple[str, ...] = DEFAULT_INCLUDE, exclude: tuple[str, ...] = ()):
        self.root = Path(root).expanduser().resolve()
        self.uri = self.root.as_uri()
        self.include = include
        self.exclude = exclude
        if not self.root.exists():
            raise SourceError(f"source folder does not exist: {self.root}")

    def list(self) -> Iterator[SourceObject]:
        """Every matching file, sorted per folder. An entry that cannot be read is listed with its ``problem``
        (one row in the run report) instead of stopping the listing; symlinks are followed only while their
        target stays inside the source folder, and folders are never entered through a symlink."""
        if self.root.is_file():
            yield self._entry(self.root, self.root.name)
            return
        errors: list[OSError] = []
        for dirpath, dirnames, filenames in os.walk(self.root, onerror=errors.append):
            yield from self._unlisted(errors)
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in dirnames:
                path = Path(dirpath) / name
                if path.is_symlink() and not self._inside(path):
                    yield self._problem(path, self._key(path), "symlink_outside",
                                        "symlink to a folder outside the source folder: not followed")
            for name in sorted(filenames):
                path = Path(dirpath) / name
                key = self._key(path)
                if name.startswith(".") or not matches(key, self.include, self.exclude):
                    continue
                yield self._entry(path, key)
        yield from self._unlisted(errors)

    def _key(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def _inside(self, path: Path) -> bool:
        try:
            target = path.resolve(strict=True)
        except (OSError, RuntimeError):  # dangling, or a symlink loop
            return False
        return target == self.root or self.root in target.parents

    def _unlisted(self, errors: list[OSError]) -> Iterator[SourceObject]:
        """Folders os.walk could not read (permission denied, removed while listing): one row each."""
        while errors:
            exc = errors.pop(0)
            path = Path(exc.filename or self.root)
            key = self._key(path) if path != self.root and self.root in path.parents else path.name
            yield self._problem(path, key + "/", "unreadable", f"cannot list folder: {exc.strerror or exc}")

    def _problem(self, path: Path, key: str, kind: str, message: str) -> SourceObject:
        return SourceObject(uri=path.absolute().as_uri(), key=key, size=0, etag="", problem=f"{key}: {message}",
                            problem_kind=kind)

    def _entry(self, path: Path, key: str) -> SourceObject:
        """The object for a listed file, or one with a ``problem`` when it cannot be read."""
        try:
            st = path.lstat()
        except FileNotFoundError:
            return self._problem(path, key, "gone", "removed while the folder was listed")
        except OSError as exc:
            return self._problem(path, key, "unreadable", f"cannot read: {exc.strerror or exc}")
        if stat.S_ISLNK(st.st_mode):
            if not self._inside(path):
                try:
                    path.stat()
                except OSError as exc:
                    why = "symlink loop" if exc.errno == errno.ELOOP else "dangling symlink (its target does not exist)"
                    return self._problem(path, key, "unreadable", why)
                return self._problem(path, key, "symlink_outside", "symlink to a file outside the source folder: not followed")
            try:
                st = path.stat()
            except OSError as exc:
                return self._problem(path, key, "unreadable", f"cannot read: {exc.strerror or exc}")
        if not stat.S_ISREG(st.st_mode):
            return self._problem(path, key, "not_a_file", "not a regular file (a FIFO, socket or device): not read")
        return self._object(path, key, st)

    def stat(self, key: str) -> SourceObject:
        """The file at ``key`` (the source's own file when it is one) as it is now; ObjectGone when it is not there."""
        path = self.root if self.root.is_file() else self.root / key
        try:
            return self._object(path, key)
        except FileNotFoundError as exc:
            raise ObjectGone(f"{path} no longer exists") from exc

    def _object(self, path: Path, key: str, st: os.stat_result | None = None) -> SourceObject:
        st = st or path.stat()
        from datetime import datetime, timezone

        modified = datetime.fromtimestamp(st.st_mtime, timezone.utc).isoformat(timespec="seconds")
        return SourceObject(uri=path.as_uri(), key=key, size=st.st_size, etag=f"{st.st_mtime_ns:x}-{st.st_size:x}", last_modified=modified)

    @contextlib.contextmanager
    def fetch(self, obj: SourceObject) -> Iterator[Path]:
        yield self.download(obj, "")[0]

    def download(self, obj: SourceObject, dest_dir: str) -> tuple[Path, int]:
        path = Path(unquote(urlparse(obj.uri).path))
        if obj.problem:
            raise ObjectError(obj.problem, obj.problem_kind)
        # Checked again at read time: the entry may have been replaced since it was listed.
        try:
            st = path.stat()
        except FileNotFoundError as exc:
            raise ObjectGone(f"{obj.key} was removed after listing") from exc
        except OSError as exc:
            raise ObjectError(f"{obj.key}: cannot read: {exc.strerror or exc}", "unreadable") from exc
        if not stat.S_ISREG(st.st_mode):
            raise ObjectError(f"{obj.key}: not a regular file (a FIFO, socket or device): not read", "not_a_file")
        if path.is_symlink() and not self._inside(path):
            raise ObjectError(f"{obj.key}: symlink to a file outside the source folder: not followed", "symlink_outside")
        if not os.access(path, os.R_OK):
            raise ObjectDenied(f"{obj.key}: permission denied")
        return path, 0  # read in place: nothing is transferred


def open_source(uri: str, **options: Any) -> Source:
    """A source for a local folder/file or an s3:// prefix."""
    if uri.startswith("s3://"):
        from flows.s3source import S3Source  # imported lazily: boto3 only when needed

        return S3Source(uri, **options)
    return LocalSource(uri, **{k: v for k, v in options.items() if k in ("include", "exclude")})


def default_doc_id(obj: SourceObject) -> str:
    return doc_id_from_path(obj.key)
