"""What query modules ask a loaded document through its public interface: has_node, memo (the lexical index)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from query import open_index
from query.lexical import LexicalIndex, lexical_index


def test_has_node_answers_for_the_tree_and_nothing_else(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    assert all(doc.has_node(n.node_id) for n in doc.nodes())
    assert not doc.has_node("9999") and not doc.has_node("") and not doc.has_node("0000 ")


def test_memo_builds_once_per_loaded_version_even_when_asked_at_once(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    builds: list[int] = []

    def build() -> object:
        builds.append(1)
        return object()

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda _: doc.memo("probe", build), range(16)))
    assert len(builds) == 1 and all(g is got[0] for g in got)
    assert doc.memo("other", object) is not got[0]  # each name its own value


def test_the_lexical_index_is_kept_per_document_and_version(query_store):
    old, new = query_store["versions"]
    doc = open_index(query_store["uri"], "acme-handbook", new)
    idx = lexical_index(doc)
    assert isinstance(idx, LexicalIndex) and lexical_index(doc) is idx
    assert lexical_index(open_index(query_store["uri"], "acme-handbook", old)) is not idx
    assert lexical_index(open_index(query_store["uri"], "globex-10k")) is not idx
