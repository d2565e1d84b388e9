"""Storage backends: a local directory (the default) and S3 (boto3).

Both speak in keys relative to the store root ("docs/x/latest.json"). Version
folders are written through ``write_version`` so each backend can make the
publication atomic in its own way: local stages then renames a folder; S3
writes data objects first and the manifest last (the manifest is the commit).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import uuid
from pathlib import Path
from typing import Any, Iterator, Protocol
from urllib.parse import urlparse

from index_store.errors import ConflictError, NotFound, StoreError

MANIFEST = "manifest.json"
_DEBRIS_DIR = re.compile(r"^\.(staging|deleting)-")
_DEBRIS_FILE = re.compile(r"^\..+\.[0-9a-f]{32}\.tmp$")

def new_s3_client(endpoint_url: str | None = None, config: Any = None, **kwargs: Any) -> Any:
    """A boto3 S3 client from a fresh session: the standard credential chain is read again each time, so a
    rotated key or a changed profile is seen. Building one costs ~0.1 s of CPU (botocore loads the S3 model);
    flows keep one per worker process (flows.document.cached_source, open_store)."""
    import boto3

    return boto3.session.Session().client("s3", endpoint_url=endpoint_url or None, config=config, **kwargs)


class Backend(Protocol):
    uri: str

    def get_bytes(self, key: str) -> bytes: ...
    def get_with_tag(self, key: str) -> tuple[bytes, str | None]: ...
    def put_bytes(self, key: str, data: bytes) -> None: ...
    def put_if(self, key: str, data: bytes, expected_tag: str | None) -> None: ...
    def exists(self, key: str) -> bool: ...
    def list_keys(self, prefix: str) -> Iterator[str]: ...
    def list_dirs(self, prefix: str) -> Iterator[str]: ...
    def delete_prefix(self, prefix: str) -> None: ...
    def write_version(self, prefix: str, files: dict[str, bytes]) -> None: ...
    def local_path(self, key: str) -> Path | None: ...
    def last_modified(self, key: str) -> float: ...
    def debris(self, older_than: float) -> list[str]: ...


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class LocalBackend:
    """A directory on disk. Atomic by staging + fsync + rename."""

    def __init__(self, root: str | os.PathLike[str]):
        self.root = Path(root).expanduser().resolve()
        self.uri = str(self.root)

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if path != self.root and self.root not in path.parents:
            raise StoreError(f"key escapes the store: {key!r}")
        return path

    def local_path(self, key: str) -> Path | None:
        return self._path(key)

    def get_bytes(self, key: str) -> bytes:
        try:
            return self._path(key).read_bytes()
        except (FileNotFoundError, NotADirectoryError) as exc:
            raise NotFound(f"{key} not found in {self.uri}") from exc

    def get_with_tag(self, key: str) -> tuple[bytes, str | None]:
        data = self.get_bytes(key)
        return data, hashlib.md5(data).hexdigest()

    def put_bytes(self, key: str, data: bytes) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{uuid.uuid4().hex}.tmp")
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):  # a full disk must not leave (zero-byte) temp files behind
                tmp.unlink()
            raise
        _fsync_dir(path.parent)

    @contextlib.contextmanager
    def _lock(self, key: str) -> Iterator[None]:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path.with_name(f".{path.name}.lock"), "a+") as fh:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)

    def put_if(self, key: str, data: bytes, expected_tag: str | None) -> None:
        """Write only if the object still has ``expected_tag`` (None: must not exist)."""
        with self._lock(key):
            try:
                _, tag = self.get_with_tag(key)
            except NotFound:
                tag = None
            if tag != expected_tag:
                raise ConflictError(f"{key} changed while we were writing it")
            self.put_bytes(key, data)

    def exists(self, key: str) -> bool:
        return self._path(key).exists()

    def list_keys(self, prefix: str) -> Iterator[str]:
        base = self._path(prefix) if prefix else self.root
        if not base.exists():
            return
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(filenames):
                if name.startswith("."):
                    continue
                yield str((Path(dirpath) / name).relative_to(self.root))

    def list_dirs(self, prefix: str) -> Iterator[str]:
        base = self._path(prefix)
        if not base.is_dir():
            return
        for entry in sorted(os.scandir(base), key=lambda e: e.name):
            if entry.is_dir() and not entry.name.startswith("."):
                yield entry.name

    def last_modified(self, key: str) -> float:
        try:
            return self._path(key).stat().st_mtime
        except FileNotFoundError as exc:
            raise NotFound(f"{key} not found in {self.uri}") from exc

    def debris(self, older_than: float) -> list[str]:
        """Keys of what interrupted writes leave, last modified before ``older_than`` (epoch seconds): staging
        and half-deleted version folders, temp files of replaced objects. Readers never see them."""
        found = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            for name in [d for d in dirnames if _DEBRIS_DIR.match(d)] + [f for f in filenames if _DEBRIS_FILE.match(f)]:
                path = Path(dirpath) / name
                with contextlib.suppress(OSError):
                    if path.lstat().st_mtime < older_than:
                        found.append(path.relative_to(self.root).as_posix())
            dirnames[:] = [d for d in dirnames if not _DEBRIS_DIR.match(d)]
        return sorted(found)

    def delete_prefix(self, prefix: str) -> None:
        path = self._path(prefix)
        if path.is_dir():
            # Rename first so a reader never sees a half-deleted version folder.
            trash = path.with_name(f".deleting-{path.name}-{uuid.uuid4().hex}")
            os.replace(path, trash)
            shutil.rmtree(trash, ignore_errors=True)
        elif path.exists():
            path.unlink()

    def _write_file(self, path: Path, data: bytes) -> None:
        with open(path, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())

    def write_version(self, prefix: str, files: dict[str, bytes]) -> None:
        final = self._path(prefix)
        if final.exists():
            return  # content-addressed: an existing version is identical
        staging = final.parent / f".staging-{final.name}-{uuid.uuid4().hex}"
        staging.mkdir(parents=True)
        try:
            names = [n for n in files if n != MANIFEST] + ([MANIFEST] if MANIFEST in files else [])
            for name in names:
                self._write_file(staging / name, files[name])
            _fsync_dir(staging)
            try:
                os.rename(staging, final)
            except OSError:
                if not final.exists():
                    raise
            _fsync_dir(final.parent)
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)


class S3Backend:
    """s3://bucket/prefix via boto3. Data objects first, manifest last, latest.json conditional."""

    def __init__(self, uri: str, *, endpoint_url: str | None = None, client: Any = None, **client_kwargs: Any):
        parsed = urlparse(uri)
        if parsed.scheme != "s3" or not parsed.netloc:
            raise StoreError(f"not an s3:// URI: {uri!r}")
        self.uri = uri.rstrip("/")
        self.bucket = parsed.netloc
        self.prefix = parsed.path.strip("/")
        if client is None:
            from botocore.config import Config

            endpoint_url = endpoint_url or os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
            client = new_s3_client(
                endpoint_url,
                # The planner reads latest.json with 16 threads: a pool of 10 would churn connections.
                config=Config(retries={"max_attempts": 8, "mode": "adaptive"}, max_pool_connections=32),
                **client_kwargs,
            )
        self.client = client

    def _key(self, key: str) -> str:
        return f"{self.prefix}/{key}" if self.prefix else key

    def local_path(self, key: str) -> Path | None:
        return None

    def last_modified(self, key: str) -> float:
        try:
            return self.client.head_object(Bucket=self.bucket, Key=self._key(key))["LastModified"].timestamp()
        except Exception as exc:
            if self._error_code(exc) in ("404", "NoSuchKey", "NotFound"):
                raise NotFound(f"{key} not found in {self.uri}") from exc
            raise

    def debris(self, older_than: float) -> list[str]:
        return []  # objects are written whole: no staging or temp objects (incomplete versions: Store.gc)

    def _error_code(self, exc: Exception) -> str:
        return str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))

    def _absent(self, exc: Exception, key: str) -> bool:
        """Whether ``exc``, from a GET or HEAD of ``key``, means that the key does not exist.

        Without s3:ListBucket on the bucket, S3 answers 403 instead of 404 for a missing key, and a ListBucket
        grant limited by an ``s3:prefix`` condition (infra/iam-policy.json) does not count. Such a policy does
        allow listing the key itself, so one LIST tells a missing key (a first run on an empty index) from a
        real denial, which is raised as before."""
        code = self._error_code(exc)
        if code in ("NoSuchKey", "404", "NotFound"):
            return True
        if code not in ("AccessDenied", "403"):
            return False
        try:
            page = self.client.list_objects_v2(Bucket=self.bucket, Prefix=self._key(key), MaxKeys=1)
        except Exception:
            return False  # listing is denied too: the 403 stands
        return not any(obj["Key"] == self._key(key) for obj in page.get("Contents", []))

    def get_with_tag(self, key: str) -> tuple[bytes, str | None]:
        try:
            obj = self.client.get_object(Bucket=self.bucket, Key=self._key(key))
        except Exception as exc:
            if self._absent(exc, key):
                raise NotFound(f"{key} not found in {self.uri}") from exc
            raise
        return obj["Body"].read(), obj.get("ETag")

    def get_bytes(self, key: str) -> bytes:
        return self.get_with_tag(key)[0]

    def put_bytes(self, key: str, data: bytes) -> None:
        self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data)

    def put_if(self, key: str, data: bytes, expected_tag: str | None) -> None:
        kwargs: dict[str, Any] = {"IfNoneMatch": "*"} if expected_tag is None else {"IfMatch": expected_tag}
        try:
            self.client.put_object(Bucket=self.bucket, Key=self._key(key), Body=data, **kwargs)
        except Exception as exc:
            if self._error_code(exc) in ("PreconditionFailed", "412", "ConditionalRequestConflict", "409"):
                raise ConflictError(f"{key} changed while we were writing it") from exc
            raise

    def exists(self, key: str) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self._key(key))
            return True
        except Exception as exc:
            if self._absent(exc, key):
                return False
            raise

    def list_keys(self, prefix: str) -> Iterator[str]:
        full = self._key(prefix)
        strip = len(self.prefix) + 1 if self.prefix else 0
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=full):
            for obj in page.get("Contents", []):
                yield obj["Key"][strip:]

    def list_dirs(self, prefix: str) -> Iterator[str]:
        full = self._key(prefix.rstrip("/") + "/")
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.bucket, Prefix=full, Delimiter="/"):
            for cp in page.get("CommonPrefixes", []):
                yield cp["Prefix"][len(full):].rstrip("/")

    def delete_prefix(self, prefix: str) -> None:
        keys = list(self.list_keys(prefix.rstrip("/") + "/"))
        if not keys and self.exists(prefix):
            keys = [prefix]  # a single object, as LocalBackend.delete_prefix allows
        # The manifest goes first, so a reader stops seeing the version before its data disappears.
        keys.sort(key=lambda k: not k.endswith(MANIFEST))
        for i in range(0, len(keys), 1000):
            chunk = keys[i : i + 1000]
            self.client.delete_objects(Bucket=self.bucket, Delete={"Objects": [{"Key": self._key(k)} for k in chunk]})

    def write_version(self, prefix: str, files: dict[str, bytes]) -> None:
        if self.exists(f"{prefix}/{MANIFEST}"):
            return
        for name, data in files.items():
            if name != MANIFEST:
                self.put_bytes(f"{prefix}/{name}", data)
        if MANIFEST in files:
            self.put_bytes(f"{prefix}/{MANIFEST}", files[MANIFEST])


def open_backend(uri: str | os.PathLike[str], **options: Any) -> Backend:
    """A backend for a local path or an s3:// URI. ``options`` go to the S3 client (endpoint_url, ...)."""
    text = str(uri)
    if text.startswith("s3://"):
        return S3Backend(text, **options)
    if "://" in text and not text.startswith("file://"):
        raise StoreError(f"unsupported store URI {text!r}: use a local path or s3://bucket/prefix")
    return LocalBackend(text.removeprefix("file://"))
