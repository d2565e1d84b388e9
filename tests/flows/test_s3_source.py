"""S3Source against moto's standalone server over HTTP: listing, filters and every fetch fault, typed."""

from __future__ import annotations

import hashlib

import pytest

from flows.s3source import S3Source
from flows.sources import ObjectChanged, ObjectDenied, ObjectGone, SourceError, TransientObjectError
from tests.support.s3 import fault_proxy, moto_endpoint, new_bucket, s3  # noqa: F401  (fixtures)

pytestmark = pytest.mark.integration


def _fill(s3, bucket: str, names: list[str], body: bytes = b"%PDF-1.4 body") -> None:
    for name in names:
        s3.put_object(Bucket=bucket, Key=name, Body=body)


def test_listing_is_paged_lazily_and_filtered(s3, fault_proxy):
    bucket = new_bucket(s3)
    _fill(s3, bucket, [f"in/a{i:02}.pdf" for i in range(7)] + ["in/notes.txt", "in/skip/x.pdf", "other/z.pdf", "in/"])
    source = S3Source(f"s3://{bucket}/in", endpoint_url=fault_proxy.url, page_size=2, exclude=["skip/*"])
    listed_before = fault_proxy.requests
    it = source.list()
    first = [next(it)]
    # The first page ("in/" marker, a00) yields one object: the rest of the listing has not been requested.
    assert fault_proxy.requests - listed_before == 1
    rest = list(it)
    keys = [o.key for o in first + rest]
    assert keys == [f"a{i:02}.pdf" for i in range(7)]
    assert fault_proxy.requests - listed_before == 5  # 10 keys under in/ at 2 per page
    obj = first[0]
    assert obj.uri == f"s3://{bucket}/in/a00.pdf"
    assert obj.size == len(b"%PDF-1.4 body")
    assert obj.etag == hashlib.md5(b"%PDF-1.4 body").hexdigest()
    assert obj.last_modified and obj.last_modified[:4].isdigit()


def test_missing_bucket_fails_at_start_with_a_clear_message(moto_endpoint):
    with pytest.raises(SourceError, match="does not exist"):
        S3Source("s3://no-such-bucket-pagetree/x", endpoint_url=moto_endpoint)


def test_download_streams_whole_object(s3, moto_endpoint, tmp_path):
    bucket = new_bucket(s3)
    body = bytes(range(256)) * 9000  # > 2 MiB: several chunks
    s3.put_object(Bucket=bucket, Key="big.pdf", Body=body)
    source = S3Source(f"s3://{bucket}", endpoint_url=moto_endpoint)
    (obj,) = list(source.list())
    path, transferred = source.download(obj, str(tmp_path))
    assert transferred == len(body)
    assert path.read_bytes() == body


def test_fetch_faults_are_typed(s3, fault_proxy, tmp_path):
    bucket = new_bucket(s3)
    _fill(s3, bucket, ["denied.pdf", "gone.pdf", "changed.pdf", "cut.pdf", "slow.pdf"])
    s3.put_object(Bucket=bucket, Key="cold.pdf", Body=b"%PDF archived", StorageClass="GLACIER")
    source = S3Source(f"s3://{bucket}", endpoint_url=fault_proxy.url, max_attempts=1)
    objs = {o.key: o for o in source.list()}
    fault_proxy.add("denied.pdf", "403")
    fault_proxy.add("gone.pdf", "delete")
    fault_proxy.add("cut.pdf", "truncate")
    fault_proxy.add("slow.pdf", "503")
    s3.put_object(Bucket=bucket, Key="changed.pdf", Body=b"%PDF new content")
    expected = {
        "denied.pdf": (ObjectDenied, "access_denied"),
        "cold.pdf": (ObjectDenied, "access_denied"),
        "gone.pdf": (ObjectGone, "gone"),
        "changed.pdf": (ObjectChanged, "changed_during_run"),
        "cut.pdf": (TransientObjectError, "truncated"),
        "slow.pdf": (TransientObjectError, "throttled"),
    }
    for key, (cls, kind) in expected.items():
        with pytest.raises(cls) as info:
            source.download(objs[key], str(tmp_path))
        assert info.value.kind == kind, key
        assert info.value.transient == (cls is TransientObjectError)
    assert list(tmp_path.iterdir()) == []  # no partial files left behind


def test_stat_gives_the_listed_object_and_a_missing_key_is_gone(s3, moto_endpoint):
    bucket = new_bucket(s3)
    _fill(s3, bucket, ["in/a.pdf"])
    source = S3Source(f"s3://{bucket}/in", endpoint_url=moto_endpoint)
    [listed] = list(source.list())
    assert source.stat("a.pdf") == listed
    with pytest.raises(ObjectGone, match="deleted between listing and download"):
        source.stat("missing.pdf")
