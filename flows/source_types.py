"""What every document source shares: the listed object, its typed errors and the Source interface.

flows/sources.py (local folders, and ``open_source``, which picks a source by URI) and flows/s3source.py (S3)
both build on this module, so the S3 source does not import the module that imports it.
"""

from __future__ import annotations

import contextlib
import fnmatch
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterator, Protocol


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
    # Set when the listing found the entry but it cannot be read (dangling symlink, FIFO, permission error,
    # a symlink leaving the source folder): the planner records one row for it and never fetches it.
    problem: str | None = None
    problem_kind: str | None = None  # unreadable | gone | not_a_file | symlink_outside

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class Source(Protocol):
    uri: str

    def list(self) -> Iterator[SourceObject]: ...

    def stat(self, key: str) -> SourceObject:
        """The object at ``key`` as it is now (size, change token), without reading it; ObjectGone if absent."""
        ...

    def fetch(self, obj: SourceObject) -> contextlib.AbstractContextManager[Path]: ...

    def download(self, obj: SourceObject, dest_dir: str) -> tuple[Path, int]:
        """Materialise ``obj`` under ``dest_dir`` (or return its own path); return (path, bytes transferred)."""
        ...


def matches(key: str, include: tuple[str, ...], exclude: tuple[str, ...]) -> bool:
    name = key.lower()
    if include and not any(fnmatch.fnmatch(name, pat.lower()) for pat in include):
        return False
    return not any(fnmatch.fnmatch(name, pat.lower()) for pat in exclude)
