"""The reading tools of a loaded document: outline, read with cursor, pages, grep, find, versions, cache."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from query import InvalidRequest, NotFoundError, open_index
from query.index import cache_clear, versions


def test_import_pulls_in_neither_prefect_nor_pymupdf():
    # flows.cli: the `pagetree` entry point, whose query commands import neither either.
    code = ("import query, query.search, query.lexical, query.xref, query.chunks, flows.cli, sys; "
            "bad = [m for m in ('prefect', 'pymupdf', 'fitz') if m in sys.modules]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_outline_depth_and_more_marker(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    top = doc.outline(depth=1)
    titles = [n["title"] for n in top["nodes"]]
    assert titles[0:3] == ["1 Introduction", "2 Installation", "3 Operation"]
    intro = top["nodes"][0]
    assert intro["more"] == "[+2 subsections]" and "nodes" not in intro
    deeper = doc.outline("0008", depth=2)
    assert [n["title"] for n in deeper["nodes"]] == ["4.1 Cleaning", "4.2 Calibration"]
    assert all("summary" in n for n in deeper["nodes"])


def test_read_truncates_with_a_cursor_that_reassembles_the_section(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    wiring = next(n for n in doc.nodes() if n.title == "2.2 Wiring")
    whole = doc.read(wiring.node_id, max_chars=200_000)
    assert not whole["truncated"] and whole["next_cursor"] is None
    assert "blue conductor" in whole["text"] and "terminal screw" in whole["text"]
    assert whole["path"] == "2 Installation > 2.2 Wiring" and (whole["start_page"], whole["end_page"]) == (5, 6)
    pieces, cursor = [], 0
    while cursor is not None:
        part = doc.read(wiring.node_id, max_chars=700, cursor=cursor)
        assert len(part["text"]) <= 700
        pieces.append(part["text"])
        cursor = part["next_cursor"]
    assert len(pieces) > 3 and "".join(pieces) == whole["text"]
    with pytest.raises(InvalidRequest):
        doc.read(wiring.node_id, max_chars=10, cursor=len(whole["text"]) + 1)


def test_read_pages_spec_and_errors(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    got = doc.read_pages("10-11,2")
    assert [p["page"] for p in got] == [10, 11, 2]
    assert "reference weight" in got[0]["text"] and got[0]["path"] == "4 Maintenance > 4.2 Calibration"
    assert "ZX-9981" in got[1]["text"]
    with pytest.raises(InvalidRequest):
        doc.read_pages("3-1")
    with pytest.raises(InvalidRequest):
        doc.read_pages("five")
    with pytest.raises(NotFoundError):
        doc.read_pages("13")


def test_unknown_document_node_and_version_are_not_found(query_store):
    with pytest.raises(NotFoundError):
        open_index(query_store["uri"], "no-such-doc")
    with pytest.raises(NotFoundError):
        open_index(query_store["uri"], "../etc")
    with pytest.raises(NotFoundError):
        open_index(query_store["uri"], "acme-handbook", version="0123456789abcdef")
    with pytest.raises(NotFoundError):
        open_index(query_store["uri"], "acme-handbook").read("9999")


def test_grep_is_scoped_and_capped(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    everywhere = doc.grep(r"terminal \w")
    assert {h["page"] for h in everywhere} == {5, 6}
    assert doc.grep(r"terminal", node_id="0008") == []  # 3 Operation has no terminals
    assert len(doc.grep(r"conductor|screw", max_hits=3)) == 3
    assert [h["page"] for h in doc.grep(r"part (number|FZ)", pages="11")] == [11]
    with pytest.raises(InvalidRequest):
        doc.grep("(unclosed")


def test_catastrophic_regex_is_linear_and_unsupported_syntax_is_refused(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    t0 = time.monotonic()
    assert doc.grep(r"(x|xx)+y", node_id="0010") == []  # exponential for a backtracking engine
    assert doc.grep(r"(x+x+)+y") == []
    assert time.monotonic() - t0 < 5
    with pytest.raises(InvalidRequest):
        doc.grep(r"(a)\1")  # backreference: RE2 refuses it rather than risk backtracking
    with pytest.raises(InvalidRequest):
        doc.grep("x" * 501)


def test_find_exact_substring_returns_sections_and_pages(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    found = doc.find("part number zx-9981")
    assert [(f["title"], f["pages"]) for f in found] == [("Appendix C Spare parts", [11])]
    assert doc.find("no such phrase anywhere") == []
    with pytest.raises(InvalidRequest):
        doc.find("   ")


def test_versions_history_and_pinned_version(query_store):
    old, new = query_store["versions"]
    assert old != new
    history = versions(query_store["uri"], "acme-handbook")
    assert [v["version"] for v in history] == [old, new]
    assert [v["latest"] for v in history] == [False, True]
    pinned = open_index(query_store["uri"], "acme-handbook", version=old)
    assert pinned.version == old and open_index(query_store["uri"], "acme-handbook").version == new
    assert [v["version"] for v in pinned.versions()] == [old, new]
    with pytest.raises(NotFoundError):
        versions(query_store["uri"], "no-such-doc")


def test_loaded_documents_are_cached_by_version(query_store):
    cache_clear()
    a = open_index(query_store["uri"], "acme-handbook")
    assert open_index(query_store["uri"], "acme-handbook") is a
    assert open_index(query_store["uri"], "acme-handbook", version=query_store["versions"][0]) is not a
