"""Document sources: where PDFs come from. A local folder here; S3 behind the same interface.

A source lists ``SourceObject``s cheaply (no content read) and materialises one
object as a local file on demand, so the planner can skip unchanged documents
without downloading them.
"""

from __future__ import annotations

import contextlib
import fnmatch
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator, Protocol
from urllib.parse import unquote, urlparse

from index_store.layout import doc_id_from_path


# Keys ingested by default: PDFs, HTML (EDGAR filings, manuals) and Markdown. The format itself is read from
# the content (parsers/formats.py); what matches but is none of them is reported as ``unsupported_format``.
DEFAULT_INCLUDE = ("*.pdf", "*.htm", "*.html", "*.xhtml", "*.md", "*.markdown")


class SourceError(Exception):
    """Root of source errors; raised as-is when the source itself is unusable (missing folder or bucket)."""


class ObjectError(SourceError):
    """One object could not be fetched. ``kind`` goes into the run report; ``transient`` errors are retried."""

    kind = "fetch"
    transient = False

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        if kind:
            self.kind = kind


class ObjectGone(ObjectError):
    """Listed, but deleted before we could download it (picked up as removed on the next run)."""

    kind = "gone"


class ObjectDenied(ObjectError):
    """The object exists but reading it is refused (AccessDenied, archived storage class)."""

    kind = "access_denied"


class ObjectChanged(ObjectError):
    """The object was replaced between listing and download (ETag no longer matches); retried next run."""

    kind = "changed_during_run"


class TransientObjectError(ObjectError):
    """Throttling, a 5xx, a dropped connection or a truncated body: worth retrying now."""

    kind = "transient"
    transient = True


@dataclass(frozen=True)
class SourceObject:
    uri: str  # file:///abs/path or s3://bucket/key
    key: str  # path relative to the source root
    size: int
    etag: str  # a cheap change token: S3 ETag, or mtime+size for local files
    last_modified: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Source(Protocol):
    uri: str

    def list(self) -> Iterator[SourceObject]: ...

    def fetch(self, obj: SourceObject) -> contextlib.AbstractContextManager[Path]: ...

    def download(self, obj: SourceObject, dest_dir: str) -> tuple[Path, int]:
        """Materialise ``obj`` under ``dest_dir`` (or return its own path); return (path, bytes transferred)."""
        ...


def _matches(key: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> bool:
    name = key.lower()
    if include and not any(fnmatch.fnmatch(name, pat.lower()) for pat in include):
        return False
    return not any(fnmatch.fnmatch(name, pat.lower()) for pat in exclude)


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
        if self.root.is_file():
            yield self._object(self.root, self.root.name)
            return
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                path = Path(dirpath) / name
                key = path.relative_to(self.root).as_posix()
                if name.startswith(".") or not _matches(key, self.include, self.exclude):
                    continue
                yield self._object(path, key)

    def _object(self, path: Path, key: str) -> SourceObject:
        st = path.stat()
        from datetime import datetime, timezone

        modified = datetime.fromtimestamp(st.st_mtime, timezone.utc).isoformat(timespec="seconds")
        return SourceObject(uri=path.as_uri(), key=key, size=st.st_size, etag=f"{st.st_mtime_ns:x}-{st.st_size:x}", last_modified=modified)

    @contextlib.contextmanager
    def fetch(self, obj: SourceObject) -> Iterator[Path]:
        yield self.download(obj, "")[0]

    def download(self, obj: SourceObject, dest_dir: str) -> tuple[Path, int]:
        path = Path(unquote(urlparse(obj.uri).path))
        if not path.is_file():
            raise ObjectGone(f"{obj.key} was removed after listing")
        return path, 0  # read in place: nothing is transferred


def open_source(uri: str, **options: Any) -> Source:
    """A source for a local folder/file or an s3:// prefix."""
    if uri.startswith("s3://"):
        from flows.s3source import S3Source  # imported lazily: boto3 only when needed

        return S3Source(uri, **options)
    return LocalSource(uri, **{k: v for k, v in options.items() if k in ("include", "exclude")})


def default_doc_id(obj: SourceObject) -> str:
    return doc_id_from_path(obj.key)
