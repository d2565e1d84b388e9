"""The S3 index-store backend's conditional writes against moto over HTTP: the latest.json race."""

from __future__ import annotations

import json
import threading

import pytest

from index_store.backends import S3Backend
from index_store.errors import ConflictError
from index_store.store import Store
from tests.support.s3 import moto_endpoint, new_bucket, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def test_put_if_refuses_a_stale_tag_and_an_existing_key(s3, moto_endpoint):
    backend = S3Backend(f"s3://{new_bucket(s3)}/idx", endpoint_url=moto_endpoint)
    backend.put_if("docs/a/latest.json", b'{"version": "1"}', None)
    with pytest.raises(ConflictError):
        backend.put_if("docs/a/latest.json", b'{"version": "x"}', None)  # If-None-Match: * on an existing key
    _, tag = backend.get_with_tag("docs/a/latest.json")
    backend.put_if("docs/a/latest.json", b'{"version": "2"}', tag)
    with pytest.raises(ConflictError):
        backend.put_if("docs/a/latest.json", b'{"version": "3"}', tag)  # tag of the overwritten object
    assert json.loads(backend.get_bytes("docs/a/latest.json")) == {"version": "2"}


def test_concurrent_latest_moves_all_land_and_never_tear(s3, moto_endpoint):
    store = Store(f"s3://{new_bucket(s3)}/idx", endpoint_url=moto_endpoint)
    versions = [f"{i:016x}" for i in range(8)]
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(versions))

    def move(version: str) -> None:
        barrier.wait()
        try:
            store.update_latest("doc", {"version": version, "published_at": "2026-01-01T00:00:00Z", "writer": version})
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=move, args=(v,)) for v in versions]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    latest = store.latest("doc")
    assert latest["version"] in versions and latest["writer"] == latest["version"]  # one writer's whole record
