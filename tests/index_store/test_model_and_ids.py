"""The format contract: tree round trip, extra fields kept, ids numbered, doc_id safety."""

from __future__ import annotations

import pytest

from index_store.errors import FormatError, InvalidDocId
from index_store.layout import check_doc_id, doc_id_from_path
from index_store.model import Node, Tree, flatten, number_tree


def _tree() -> Tree:
    root = Node("", "Doc", 0, 1, 9, nodes=[
        Node("", "A", 1, 1, 4, nodes=[Node("", "A.1", 2, 1, 2), Node("", "A.2", 2, 3, 4)]),
        Node("", "B", 1, 5, 9),
    ])
    number_tree(root)
    return Tree(doc_id="d", version="0" * 16, page_count=9, structure_source="toc", page_offset=4, root=root)


def test_pre_order_zero_padded_ids_and_levels() -> None:
    tree = _tree()
    assert [(n.node_id, n.title, n.level) for n in tree.nodes()] == [
        ("0000", "Doc", 0), ("0001", "A", 1), ("0002", "A.1", 2), ("0003", "A.2", 2), ("0004", "B", 1)]


def test_round_trip_keeps_unknown_fields() -> None:
    d = _tree().to_dict()
    d["future_field"] = {"x": 1}
    d["root"]["nodes"][0]["confidence"] = 0.9
    again = Tree.from_dict(d).to_dict()
    assert again == d
    assert set(d) >= {"schema_version", "doc_id", "version", "page_count", "structure_source", "page_offset", "root"}
    assert set(d["root"]) >= {"node_id", "title", "level", "start_page", "end_page", "summary", "nodes"}


def test_newer_schema_and_broken_trees_are_refused() -> None:
    d = _tree().to_dict()
    with pytest.raises(FormatError, match="newer"):
        Tree.from_dict({**d, "schema_version": 99})
    broken = _tree().to_dict()
    del broken["root"]["nodes"][0]["start_page"]
    with pytest.raises(FormatError):
        Tree.from_dict(broken)


def test_flatten_paths_and_parents() -> None:
    rows = flatten(_tree().root, {"0002": "text a1"})
    assert [(r.node_id, r.parent_id, r.path) for r in rows] == [
        ("0000", None, "Doc"), ("0001", "0000", "A"), ("0002", "0001", "A > A.1"), ("0003", "0001", "A > A.2"), ("0004", "0000", "B")]
    assert rows[2].text == "text a1" and rows[3].text == ""


@pytest.mark.parametrize(("rel", "expected"), [
    ("report.pdf", "report"),
    ("filings/2023/ACME-10-K.pdf", "filings__2023__ACME-10-K"),
    ("./a/b.pdf", "a__b"),
])
def test_doc_id_from_path(rel: str, expected: str) -> None:
    assert doc_id_from_path(rel) == expected


@pytest.mark.parametrize(("rel", "readable"), [
    ("filings/2023/ACME 10-K.PDF", "filings__2023__ACME-10-K-"),
    ("Ünïcode naïve.pdf", "Unicode-naive-"),
])
def test_lossy_names_keep_a_readable_stem_and_a_stable_suffix(rel: str, readable: str) -> None:
    doc_id = doc_id_from_path(rel)
    assert doc_id.startswith(readable) and len(doc_id) == len(readable) + 8
    assert doc_id_from_path(rel) == doc_id  # stable across runs


@pytest.mark.parametrize("pair", [
    ("a b.pdf", "a-b.pdf"), ("ü.pdf", "u.pdf"), ("x.PDF", "x.pdf"), ("x", "x.pdf"), ("a/b.pdf", "a__b.pdf"),
    ("a_/b.pdf", "a/_b.pdf"), ("日本.pdf", "中文.pdf"), ("a" * 250 + "1.pdf", "a" * 250 + "2.pdf"),
])
def test_distinct_paths_get_distinct_ids(pair: tuple[str, str]) -> None:
    first, second = (doc_id_from_path(rel) for rel in pair)
    assert first != second


@pytest.mark.parametrize("rel", ["CON.pdf", "nul.pdf", "com1.pdf", "Lpt9.pdf", "a..b.pdf", "aux.tar.pdf"])
def test_derived_ids_are_never_refused_device_names_or_double_dots(rel: str) -> None:
    doc_id = doc_id_from_path(rel)
    assert check_doc_id(doc_id) == doc_id and ".." not in doc_id


@pytest.mark.parametrize("rel", ["../etc/passwd.pdf", "/abs/file.pdf", "a/../../b.pdf", "bad\x00name.pdf", "tab\tname.pdf", "", "C:\\x.pdf"])
def test_unsafe_paths_are_rejected(rel: str) -> None:
    with pytest.raises(InvalidDocId):
        doc_id_from_path(rel)


@pytest.mark.parametrize("doc_id", ["..", "a/b", "/x", ".hidden", "x\ny", "sp ace", "a" * 201,
                                    "CON", "nul", "Com1", "LPT9", "aux.txt", "a..b", "trailing."])
def test_unsafe_doc_ids_are_rejected(doc_id: str) -> None:
    with pytest.raises(InvalidDocId):
        check_doc_id(doc_id)


@pytest.mark.parametrize("doc_id", ["console", "nullable", "com", "a.b", "a_b-c", "COM10"])
def test_ordinary_ids_are_accepted(doc_id: str) -> None:
    assert check_doc_id(doc_id) == doc_id
