"""The versioned store: publish immutable versions, move latest.json, list, gc, verify.

A version is visible only once its manifest exists (the manifest is written
last and is the commit); ``latest.json`` moves only after that, with a
conditional write so two concurrent publishers never corrupt it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
from datetime import datetime, timezone
from typing import Any, Iterator

from index_store import layout
from index_store.backends import Backend, open_backend
from index_store.errors import ConflictError, FormatError, IntegrityError, NotFound, StoreError
from index_store.model import Tree
from index_store.retry import RetryPolicy, retry_call

#: How old an unfinished write must be before gc removes it: a publisher may be between its manifest and
#: latest.json (retrying a lost race for seconds), or still writing a staging folder.
DEFAULT_GRACE_SECONDS = 24 * 3600
#: First backoff after losing the race for latest.json: another writer's read-and-put takes milliseconds.
LATEST_RETRY_BASE_SECONDS = 0.05


def utcnow() -> str:
    """ISO 8601 UTC to the millisecond (``2026-11-30T15:39:21.054Z``): versions published, and runs started,
    within one second still sort in the order they happened."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def dumps(obj: Any) -> bytes:
    return json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=False).encode("utf-8")


class Store:
    """One store root (local directory or s3://bucket/prefix)."""

    def __init__(self, uri: str, backend: Backend | None = None, **options: Any):
        self.backend = backend or open_backend(uri, **options)
        self.uri = self.backend.uri

    # -- reading ---------------------------------------------------------
    def _json(self, key: str) -> dict[str, Any]:
        data = self.backend.get_bytes(key)
        try:
            return json.loads(data)
        except ValueError as exc:
            raise FormatError(f"{key} is not valid JSON") from exc

    def latest(self, doc_id: str) -> dict[str, Any] | None:
        """Content of latest.json, or None for a document never published."""
        layout.check_doc_id(doc_id)
        try:
            return self._json(layout.latest_key(doc_id))
        except NotFound:
            return None

    def resolve(self, doc_id: str, version: str | None = None) -> str:
        """The version to read: ``version`` if given and published, else latest."""
        if version:
            if not self.backend.exists(f"{layout.version_prefix(doc_id, version)}/{layout.MANIFEST}"):
                raise NotFound(f"version {version} of {doc_id!r} not found in {self.uri}")
            return version
        latest = self.latest(doc_id)
        if latest is None:
            raise NotFound(f"document {doc_id!r} not found in {self.uri}")
        return str(latest["version"])

    def read_file(self, doc_id: str, version: str, name: str) -> bytes:
        return self.backend.get_bytes(f"{layout.version_prefix(doc_id, version)}/{name}")

    def manifest(self, doc_id: str, version: str | None = None) -> dict[str, Any]:
        version = self.resolve(doc_id, version)
        return self._json(f"{layout.version_prefix(doc_id, version)}/{layout.MANIFEST}")

    def tree(self, doc_id: str, version: str | None = None) -> Tree:
        version = self.resolve(doc_id, version)
        return Tree.from_dict(self._json(f"{layout.version_prefix(doc_id, version)}/{layout.TREE}"))

    def has_version(self, doc_id: str, version: str) -> bool:
        return self.backend.exists(f"{layout.version_prefix(doc_id, version)}/{layout.MANIFEST}")

    def doc_ids(self) -> Iterator[str]:
        yield from self.backend.list_dirs(layout.DOCS)

    def versions(self, doc_id: str) -> list[dict[str, Any]]:
        """Manifests of all published versions, oldest first."""
        out = []
        for version in self.backend.list_dirs(layout.versions_prefix(doc_id)):
            try:
                out.append(self._json(f"{layout.version_prefix(doc_id, version)}/{layout.MANIFEST}"))
            except (NotFound, FormatError):
                continue  # not committed (staging or interrupted upload): invisible
        out.sort(key=lambda m: (m.get("created_at", ""), m.get("version", "")))
        return out

    def incomplete(self, doc_id: str) -> list[str]:
        """Version folders without a manifest (an upload interrupted before its commit): invisible to readers."""
        return [v for v in self.backend.list_dirs(layout.versions_prefix(doc_id))
                if not self.backend.exists(f"{layout.version_prefix(doc_id, v)}/{layout.MANIFEST}")]

    def check(self) -> None:
        """Raise StoreError when the store cannot be read at all (a missing folder or bucket)."""
        root = self.backend.local_path("")
        if root is not None:
            if not root.is_dir():
                raise StoreError(f"store {self.uri} does not exist")
            return
        try:
            next(iter(self.backend.list_dirs(layout.DOCS)), None)
        except StoreError:
            raise
        except Exception as exc:
            raise StoreError(f"store {self.uri} cannot be read: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from exc

    def catalog(self) -> Iterator[dict[str, Any]]:
        """latest.json of every document (cheap: one small object per document)."""
        for doc_id in self.doc_ids():
            latest = self.latest(doc_id)
            if latest is not None:
                yield {"doc_id": doc_id, **latest}

    # -- writing ---------------------------------------------------------
    def publish(self, doc_id: str, version: str, files: dict[str, bytes], manifest: dict[str, Any],
                latest_extra: dict[str, Any] | None = None) -> bool:
        """Publish one version and point latest.json at it. Returns False if it was already latest."""
        layout.check_doc_id(doc_id)
        prefix = layout.version_prefix(doc_id, version)
        manifest = dict(manifest)
        manifest["files"] = {name: sha256_bytes(data) for name, data in files.items()}
        payload = dict(files)
        payload[layout.MANIFEST] = dumps(manifest)
        self.backend.write_version(prefix, payload)
        record = {"version": version, "published_at": utcnow(), **(latest_extra or {})}
        return self.update_latest(doc_id, record)

    def update_latest(self, doc_id: str, record: dict[str, Any], attempts: int = 8) -> bool:
        """Point latest.json at ``record`` (an already published version) with a conditional write.

        Returns False when latest already says exactly this. Retries with backoff when another writer
        moved latest.json in between; raises ConflictError after ``attempts`` losses.
        """
        key = layout.latest_key(doc_id)

        def once() -> bool:
            try:
                data, tag = self.backend.get_with_tag(key)
                current = json.loads(data)
            except NotFound:
                current, tag = None, None
            wanted = record
            if current and current.get("version") == record["version"]:
                if all(current.get(k) == v for k, v in record.items() if k != "published_at"):
                    return False
                wanted = {**record, "published_at": current.get("published_at", record["published_at"])}
            self.backend.put_if(key, dumps(wanted), tag)
            return not (current and current.get("version") == record["version"])

        try:
            return retry_call(once, RetryPolicy(attempts - 1, LATEST_RETRY_BASE_SECONDS),
                              lambda exc: isinstance(exc, ConflictError))
        except ConflictError:
            raise ConflictError(f"could not update {key} after {attempts} attempts (concurrent writers)") from None

    def put_run(self, run_id: str, report: dict[str, Any]) -> str:
        key = layout.run_key(run_id)
        self.backend.put_bytes(key, dumps(report))
        return key

    # -- maintenance -----------------------------------------------------
    def gc(self, keep: int = 3, doc_id: str | None = None,
           grace_seconds: float = DEFAULT_GRACE_SECONDS) -> list[tuple[str, str]]:
        """Delete all but the newest ``keep`` versions of each document (latest is always kept), and versions
        never published or never committed (no latest.json, no manifest) once older than ``grace_seconds``."""
        if keep < 1:
            raise ValueError("keep must be at least 1")
        removed = []
        cutoff = time.time() - grace_seconds
        for did in [doc_id] if doc_id else list(self.doc_ids()):
            latest = (self.latest(did) or {}).get("version")
            manifests = self.versions(did)
            versions = [m["version"] for m in manifests]
            if latest is None:  # an interrupted first publication: nothing to keep once it is stale
                doomed = [m["version"] for m in manifests if _epoch(m.get("created_at")) < cutoff]
            else:
                keep_set = set(versions[-keep:]) | {latest}
                doomed = [v for v in versions if v not in keep_set]
            doomed += [v for v in self.incomplete(did) if self._newest_write(layout.version_prefix(did, v)) < cutoff]
            for version in doomed:
                self.backend.delete_prefix(layout.version_prefix(did, version))
                removed.append((did, version))
        return removed

    def _newest_write(self, prefix: str) -> float:
        times = []
        for key in self.backend.list_keys(prefix + "/"):
            with contextlib.suppress(NotFound):
                times.append(self.backend.last_modified(key))
        return max(times, default=0.0)

    def clean_debris(self, grace_seconds: float = DEFAULT_GRACE_SECONDS) -> list[str]:
        """Remove what interrupted writes left (staging folders, temp files) once older than ``grace_seconds``."""
        removed = []
        for key in self.backend.debris(time.time() - grace_seconds):
            with contextlib.suppress(NotFound, FileNotFoundError):
                self.backend.delete_prefix(key)
                removed.append(key)
        return removed

    def verify(self, doc_id: str | None = None) -> list[str]:
        """Re-hash every file of every version against its manifest; return problems (empty = sound)."""
        return self.audit(doc_id)[0]

    def audit(self, doc_id: str | None = None) -> tuple[list[str], list[str]]:
        """(problems, warnings). Problems are corruption: a file missing or not matching its manifest, latest.json
        pointing nowhere. Warnings are leftovers of interrupted publications that readers never see and gc
        removes: versions of a document never published (no latest.json), versions without a manifest."""
        self.check()
        if doc_id is not None:
            layout.check_doc_id(doc_id)
            if not any(True for _ in self.backend.list_keys(layout.doc_prefix(doc_id) + "/")):
                raise NotFound(f"document {doc_id!r} not found in {self.uri}")
        problems: list[str] = []
        warnings: list[str] = []
        for did in [doc_id] if doc_id else list(self.doc_ids()):
            latest = self.latest(did)
            manifests = self.versions(did)
            incomplete = self.incomplete(did)
            if incomplete:
                warnings.append(f"{did}: {len(incomplete)} version(s) without a manifest (an interrupted upload, "
                                f"never visible): {', '.join(incomplete)}; gc removes them")
            if latest is None:
                if manifests:
                    warnings.append(f"{did}: never published (no latest.json): orphaned version(s) "
                                    f"{', '.join(m.get('version', '?') for m in manifests)}; gc removes them")
            elif not any(m.get("version") == latest.get("version") for m in manifests):
                problems.append(f"{did}: latest.json points at missing version {latest.get('version')}")
            for manifest in manifests:
                version = manifest.get("version", "?")
                for name, expected in (manifest.get("files") or {}).items():
                    try:
                        actual = sha256_bytes(self.read_file(did, version, name))
                    except NotFound:
                        problems.append(f"{did}@{version}: {name} is missing")
                        continue
                    if actual != expected:
                        problems.append(f"{did}@{version}: {name} sha256 mismatch (expected {expected[:12]}…, got {actual[:12]}…)")
                missing = set(layout.DATA_FILES) - set(manifest.get("files") or {})
                if missing:
                    problems.append(f"{did}@{version}: manifest lists no {', '.join(sorted(missing))}")
        return problems, warnings


def _epoch(iso: str | None) -> float:
    """Seconds since the epoch of an ISO 8601 UTC timestamp ('...Z'); 0 for a missing or unreadable one."""
    try:
        return datetime.fromisoformat(str(iso).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def raise_on_problems(problems: list[str]) -> None:
    if problems:
        raise IntegrityError("; ".join(problems))
