"""The retrieval benchmark's held-out manuals set: halves fixed by document, per-document rows, the set's shape."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.retrieval import HELDOUT, doc_halves, half_hits, per_document

ROWS = [  # two documents, pages read per method/form, best first
    {"doc": "b", "targets": [3], "tree/term": [3, 9], "page_bm25/term": [9, 3]},
    {"doc": "b", "targets": [4], "tree/term": [1, 2], "page_bm25/term": [4]},
    {"doc": "a", "targets": [7], "tree/term": [7], "page_bm25/term": [1, 2, 3, 4, 7]},
]


def test_halves_alternate_over_sorted_documents() -> None:
    assert doc_halves(["e", "c", "a", "d", "b"]) == {"A": ["a", "c", "e"], "B": ["b", "d"]}


def test_per_document_and_half_hits() -> None:
    got = per_document(ROWS, ["tree", "page_bm25"], ["term"])
    assert got["b"] == {"questions": 2, "tree/term": {"@1": 0.5, "@5": 0.5}, "page_bm25/term": {"@1": 0.5, "@5": 1.0}}
    assert got["a"]["page_bm25/term"] == {"@1": 0.0, "@5": 1.0}
    half = half_hits(ROWS, ["tree/term"], ["b"])
    assert half["questions"] == 2 and half["tree/term"] == {"@1": 0.5, "@3": 0.5, "@5": 0.5}


def test_committed_set_has_the_development_sets_shape() -> None:
    rows = [json.loads(x) for x in (HELDOUT / "retrieval.jsonl").read_text().splitlines()]
    pages = json.loads((HELDOUT / "retrieval_pages.json").read_text())["documents"]
    docs = {r["doc_id"] for r in rows}
    assert len(docs) >= 8 and all(sum(r["doc_id"] == d for r in rows) <= 40 for d in docs)
    for r in rows:
        assert r["question"] == f"Where does the manual explain {r['query']}?"
        assert r["target_pages"] and not set(r["target_pages"]) & set(pages[r["doc_id"]]["excluded_pages"])
        assert r["source"] in ("index-link", "index-label") and r["term_match"] in ("phrase", "qualified", "words")
    assert Path(HELDOUT / "README.md").exists()


def test_miss_classes_tell_section_from_page_misses() -> None:
    from types import SimpleNamespace

    from benchmarks.retrieval import miss_classes
    from index_store.model import Node

    root = Node("0000", "Manual", 0, 1, 10, nodes=[
        Node("0001", "Intro", 1, 1, 4, nodes=[Node("0002", "Scope", 2, 2, 3)]),
        Node("0003", "Usage", 1, 5, 10)])
    doc = SimpleNamespace(tree=SimpleNamespace(root=root))
    rows = [
        {"targets": [2], "tree/term": [2, 9], "page_bm25/term": [9]},      # a hit: not counted
        {"targets": [3], "tree/term": [2, 3], "page_bm25/term": [3]},      # same deepest section (Scope), lost to BM25
        {"targets": [4], "tree/term": [6, 7], "page_bm25/term": [1]},      # Intro vs Usage: another section
        {"targets": [9], "tree/term": [1, 2, 3, 4, 5, 6], "page_bm25/term": [9]},
    ]
    got = miss_classes(rows, doc, "term", bm25=True)
    assert got == {"misses": 3, "same_section": 1, "other_section": 2, "in_top5": 1, "bm25_hit": 2}
