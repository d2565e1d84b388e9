"""terms.parquet: each version's page terms, written at index time, read by routing for a question's words only.

The table must give routing exactly what it would get from tokenising the pages at question time (the page BM25 of
query.lexical), and a table from another tokeniser, or a damaged one, must never be used."""

from __future__ import annotations

import hashlib
import logging
import shutil

import pytest

from index_store.store import Store
from query import terms as qterms
from query.index import open_index
from query.lexical import lexical_index
from query.search import select_documents
from query.text import tokenize
from tests.query.conftest import publish, routing_manuals

QUESTIONS = ["Where does the manual explain zygomorphic flowers?", "How do I keep a spade sharp?",
             "What do roots take up?", "Which flowers last longer in cold water?"]

# A change-detector for the tokeniser the tables are written with: when it fails, tokens changed, so tables
# written before are stale. Bump query.terms.TERMS_VERSION and record the new digest here (both together).
TOKENISER_SAMPLE = ("Statements, statement's; resetting the flower-\nbeds in FY2018 (Form 10-K): ﬁnancial\u00a0"
                    "café Zygomorphic running ran runs 3M 1.2.3 naïve co-operate ÉTÉ")
TOKENISER_DIGEST = {"1": "7dd9d2b905814f3c"}


@pytest.fixture(scope="module")
def stores(tmp_path_factory) -> dict[str, str]:
    """The same three manuals in two stores: one published with terms.parquet, one without (as versions
    indexed before the table existed)."""
    folder = tmp_path_factory.mktemp("terms")
    manuals = routing_manuals(folder, more_tool_pages=40)
    out = {}
    for name, with_terms in (("plain", False), ("terms", True)):
        store = str(folder / name)
        for pdf, doc_id in manuals:
            publish(store, pdf, doc_id, write_terms=with_terms)
        out[name] = store
    return out


def test_the_table_holds_exactly_the_page_bm25_postings(stores):
    """Every term's pages and counts, and the page count, as query.lexical builds them from the pages."""
    for doc_id in ("m-0001", "m-0002", "m-0003"):
        doc = open_index(stores["terms"], doc_id)
        bm25 = lexical_index(doc).page_bm25
        read = doc.page_postings(list(bm25.postings) + ["nosuchterm"])
        assert read is not None and read.n == bm25.n == len(doc.pages())
        assert read.postings == bm25.postings
        assert len(read.postings) > 5


def test_routing_reads_the_table_and_scores_as_if_it_had_tokenised_the_pages(stores, tmp_path):
    fresh = {name: str(shutil.copytree(uri, tmp_path / name)) for name, uri in stores.items()}  # nothing loaded yet
    for question in QUESTIONS:
        with_table, step = select_documents(fresh["terms"], question)
        without, step_plain = select_documents(fresh["plain"], question)
        assert with_table == without and step["candidates"] == step_plain["candidates"]
    assert select_documents(fresh["terms"], QUESTIONS[0])[0][0][0] == "m-0002"
    # Routing through the table built no document's lexical index; without it, every candidate's was built.
    ids = ("m-0001", "m-0002", "m-0003")
    assert all(open_index(fresh["terms"], d).memoized("lexical") is None for d in ids)
    assert all(open_index(fresh["plain"], d).memoized("lexical") is not None for d in ids)


def test_a_table_from_another_tokeniser_or_a_damaged_one_is_not_used(stores, tmp_path, caplog):
    store = Store(stores["terms"])
    version = store.latest("m-0002")["version"]
    data = store.read_file("m-0002", version, "terms.parquet")
    import pyarrow.parquet as pq
    import pyarrow as pa

    table = pq.read_table(pa.BufferReader(data))
    stale = tmp_path / "stale.parquet"
    pq.write_table(table.replace_schema_metadata({qterms.VERSION_KEY: b"0", qterms.PAGES_KEY: b"3"}), stale)
    word = tokenize("zygomorphic")[0]
    assert qterms.read_terms(str(stale), [word]) is None
    assert qterms.read_terms(data, [word]).postings == {word: [(1, 1)]}  # page 2, once

    # A damaged table in a store: routing warns and reads the pages instead, with the same answer.
    copy = tmp_path / "damaged"
    shutil.copytree(stores["terms"], copy)
    path = Store(str(copy)).backend.local_path(f"docs/m-0002/versions/{version}/terms.parquet")
    path.write_bytes(data[: len(data) // 2])
    with caplog.at_level(logging.WARNING, logger="query.index"):
        ranked, _ = select_documents(str(copy), QUESTIONS[0])
    assert ranked[0][0] == "m-0002" and "terms.parquet unreadable" in caplog.text
    assert open_index(str(copy), "m-0002").memoized("lexical") is not None
    assert open_index(str(copy), "m-0001").memoized("lexical") is None


def test_the_tokeniser_has_not_changed_under_the_tables_version():
    digest = hashlib.sha256(" ".join(tokenize(TOKENISER_SAMPLE)).encode()).hexdigest()[:16]
    assert TOKENISER_DIGEST.get(qterms.TERMS_VERSION) == digest, (
        f"query.text.tokenize changed its tokens (digest {digest}): terms.parquet tables written before are stale. "
        "Bump query.terms.TERMS_VERSION and record the digest in this test.")
