"""An s3://bucket/prefix source (boto3): paginated listing as a generator, streaming downloads.

Listing reads one page (<= 1,000 keys) at a time and yields objects, so a
prefix with millions of keys never sits in memory. A download streams the body
to a temporary file, checks its length against the listing, and pins the ETag
seen at listing time (``IfMatch``) so a replaced object is never mistaken for
the listed one. S3 error codes become the typed errors of ``flows.sources``.

Endpoint and credentials come from the standard AWS chain (env, profile,
instance role; ``AWS_ENDPOINT_URL[_S3]`` for S3-compatible servers such as
MinIO) unless ``endpoint_url`` is given explicitly.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlparse

from flows.source_types import (
    DEFAULT_INCLUDE,
    ObjectChanged,
    ObjectDenied,
    ObjectError,
    ObjectGone,
    SourceError,
    SourceObject,
    TransientObjectError,
    matches,
)

CHUNK = 1 << 20
_GONE = {"NoSuchKey", "404", "NotFound"}
_DENIED = {"AccessDenied", "403", "InvalidObjectState", "AllAccessDisabled", "Forbidden"}
_CHANGED = {"PreconditionFailed", "412"}
_TRANSIENT = {"SlowDown", "503", "500", "502", "504", "InternalError", "ServiceUnavailable", "RequestTimeout",
              "RequestTimeTooSkewed", "Throttling", "ThrottlingException"}


def error_code(exc: BaseException) -> str:
    """The S3 error code of a botocore ClientError ('' for anything else)."""
    response = getattr(exc, "response", None) or {}
    return str(response.get("Error", {}).get("Code", "") or response.get("ResponseMetadata", {}).get("HTTPStatusCode", ""))


def make_client(endpoint_url: str | None = None, max_attempts: int = 5, **kwargs: Any) -> Any:
    """An S3 client from the AWS chain."""
    from botocore.config import Config

    from index_store.backends import new_s3_client

    config = Config(
        retries={"max_attempts": max_attempts, "mode": "standard"},  # standard mode retries SlowDown/5xx with backoff
        connect_timeout=10,
        read_timeout=60,
        max_pool_connections=32,
    )
    return new_s3_client(endpoint_url, config, **kwargs)


class S3Source:
    """Objects under ``s3://bucket/prefix`` matching include/exclude globs (keys relative to the prefix)."""

    def __init__(
        self,
        uri: str,
        *,
        include: tuple[str, ...] | list[str] = DEFAULT_INCLUDE,
        exclude: tuple[str, ...] | list[str] = (),
        endpoint_url: str | None = None,
        max_attempts: int = 5,
        page_size: int = 1000,
        client: Any = None,
        check: bool = True,
    ):
        parsed = urlparse(uri)
        if parsed.scheme != "s3" or not parsed.netloc:
            raise SourceError(f"not an s3:// URI: {uri!r}")
        self.bucket = parsed.netloc
        self.prefix = parsed.path.strip("/")
        self.uri = f"s3://{self.bucket}/{self.prefix}" if self.prefix else f"s3://{self.bucket}"
        self.include = tuple(include or DEFAULT_INCLUDE)
        self.exclude = tuple(exclude or ())
        self.page_size = page_size
        self.client = client or make_client(endpoint_url, max_attempts)
        if check:
            self.check()

    def check(self) -> None:
        """Fail at the start, with a clear message, when the bucket is missing or unreadable."""
        from botocore.exceptions import BotoCoreError, ClientError

        try:
            # A one-key listing of our prefix, not HeadBucket: a least-privilege policy grants s3:ListBucket
            # only under the prefix (infra/iam-policy.json), and HeadBucket carries no prefix.
            self.client.list_objects_v2(Bucket=self.bucket, Prefix=self._list_prefix(), MaxKeys=1)
        except ClientError as exc:
            code = error_code(exc)
            if code in ("404", "NoSuchBucket", "NotFound"):
                raise SourceError(f"source bucket {self.bucket!r} does not exist ({self.uri})") from exc
            if code in ("403", "AccessDenied"):
                raise SourceError(f"access denied to source bucket {self.bucket!r}: check the credentials' s3:ListBucket permission") from exc
            raise SourceError(f"cannot reach source bucket {self.bucket!r}: {code or exc}") from exc
        except BotoCoreError as exc:
            raise SourceError(f"cannot reach the S3 endpoint for {self.uri}: {exc}") from exc

    def _list_prefix(self) -> str:
        return f"{self.prefix}/" if self.prefix else ""

    def list(self) -> Iterator[SourceObject]:
        """Matching objects, one listing page at a time (nothing beyond the current page is held)."""
        prefix = self._list_prefix()
        paginator = self.client.get_paginator("list_objects_v2")
        pages = paginator.paginate(Bucket=self.bucket, Prefix=prefix, PaginationConfig={"PageSize": self.page_size})
        for page in pages:
            for entry in page.get("Contents", ()):
                key = entry["Key"][len(prefix):]
                if not key or key.endswith("/") or not matches(key, self.include, self.exclude):
                    continue
                modified = entry.get("LastModified")
                yield SourceObject(
                    uri=f"s3://{self.bucket}/{entry['Key']}",
                    key=key,
                    size=int(entry.get("Size", 0)),
                    etag=str(entry.get("ETag", "")).strip('"'),
                    last_modified=modified.isoformat() if modified is not None else None,
                )

    def stat(self, key: str) -> SourceObject:
        """The object at ``key`` (under the prefix) as it is now, from a HEAD request; errors as for a download."""
        from botocore.exceptions import BotoCoreError, ClientError

        full_key = f"{self._list_prefix()}{key}"
        uri = f"s3://{self.bucket}/{full_key}"
        try:
            head = self.client.head_object(Bucket=self.bucket, Key=full_key)
        except (BotoCoreError, ClientError) as exc:
            raise _classify(exc, SourceObject(uri, key, 0, "")) from exc
        modified = head.get("LastModified")
        return SourceObject(uri, key, int(head["ContentLength"]), str(head["ETag"]).strip('"'),
                            modified.isoformat() if modified else None)

    def _full_key(self, obj: SourceObject) -> str:
        return obj.uri[len(f"s3://{self.bucket}/"):]

    def download(self, obj: SourceObject, dest_dir: str) -> tuple[Path, int]:
        """Stream ``obj`` into a new file under ``dest_dir``; raise an ObjectError subclass on failure."""
        from botocore.exceptions import BotoCoreError, ClientError

        fd, name = tempfile.mkstemp(prefix="pagetree-", suffix=".pdf", dir=dest_dir or None)
        written, expected = 0, -1
        try:
            with os.fdopen(fd, "wb") as out:
                try:
                    kwargs = {"IfMatch": f'"{obj.etag}"'} if obj.etag else {}
                    response = self.client.get_object(Bucket=self.bucket, Key=self._full_key(obj), **kwargs)
                    expected = int(response.get("ContentLength", -1))
                    for block in response["Body"].iter_chunks(CHUNK):
                        out.write(block)
                        written += len(block)
                except ClientError as exc:
                    raise _classify(exc, obj) from exc
                except (BotoCoreError, OSError) as exc:
                    # IncompleteRead, connection reset, read timeout: the body did not arrive whole.
                    kind = "truncated" if 0 <= written < expected else "transient"
                    raise TransientObjectError(f"{obj.key}: download interrupted after {written} bytes: {exc}", kind=kind) from exc
            if written != expected or written != obj.size:
                raise TransientObjectError(
                    f"{obj.key}: truncated download ({written} bytes received, {expected} announced, {obj.size} listed)",
                    kind="truncated",
                )
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(name)
            raise
        return Path(name), written

    @contextlib.contextmanager
    def fetch(self, obj: SourceObject) -> Iterator[Path]:
        path, _ = self.download(obj, "")
        try:
            yield path
        finally:
            with contextlib.suppress(OSError):
                path.unlink()


def _classify(exc: Exception, obj: SourceObject) -> ObjectError:
    code = error_code(exc)
    if code in _GONE:
        return ObjectGone(f"{obj.key}: deleted between listing and download")
    if code in _DENIED:
        return ObjectDenied(f"{obj.key}: access denied ({code})")
    if code in _CHANGED:
        return ObjectChanged(f"{obj.key}: replaced since it was listed (ETag no longer {obj.etag}); retried next run")
    if code in _TRANSIENT:
        return TransientObjectError(f"{obj.key}: {code} (retryable)", kind="throttled" if code in ("SlowDown", "503") else "transient")
    return ObjectError(f"{obj.key}: {code or type(exc).__name__}: {exc}")
