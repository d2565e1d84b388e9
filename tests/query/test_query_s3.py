"""Loading from an s3:// store (moto's S3 server over HTTP): latest, pinned versions, lazy Parquet reads."""

from __future__ import annotations

import pytest

from index_store.store import Store
from query import NotFoundError, open_index, search, versions
from tests.query.conftest import FILING, HANDBOOK, make_pdf, publish
from tests.support.s3 import moto_endpoint, new_bucket, s3  # noqa: F401  (fixtures)


def test_open_read_and_search_an_s3_store(moto_endpoint, s3, tmp_path):  # noqa: F811
    bucket = new_bucket(s3, "query")
    uri = f"s3://{bucket}/index"
    store = Store(uri, endpoint_url=moto_endpoint)
    handbook = make_pdf(tmp_path / "handbook.pdf", HANDBOOK, "Acme Widget Handbook")
    old = publish(store, handbook, "acme-handbook", page_group_size=7)
    new = publish(store, make_pdf(tmp_path / "handbook2.pdf", HANDBOOK + FILING[1:2], "Acme Widget Handbook"), "acme-handbook")

    doc = open_index(uri, "acme-handbook", endpoint_url=moto_endpoint)
    assert doc.version == new and doc.tree.page_count == 13
    assert "ZX-9981" in doc.read_pages("11")[0]["text"]
    pinned = open_index(store, "acme-handbook", version=old)
    assert pinned.tree.page_count == 12
    assert {v["version"] for v in versions(store, "acme-handbook")} == {old, new}
    hit = search("spare gasket part number", ["acme-handbook"], store=store).results[0]
    assert (hit.doc_id, hit.pages) == ("acme-handbook", [11])
    with pytest.raises(NotFoundError):
        open_index(store, "acme-handbook", version="0123456789abcdef")
    with pytest.raises(NotFoundError):
        open_index(store, "missing-doc")
