"""Hostile input on the read side (issue 14 items 6, 7, 12): escape sequences and bidi overrides from a PDF
never reach the terminal raw, huge titles are cut in the tree, page specs are checked before they are
expanded, request bodies are capped, v-prefixed version ids are accepted and /docs works offline."""

from __future__ import annotations

import re
import tracemalloc
from pathlib import Path

import httpx
import pytest

from flows.cli import main
from query.errors import InvalidRequest, NotFoundError
from query.index import open_index, parse_page_spec
from tests.query.conftest import publish
from tests.query.test_query_http import _get, api  # noqa: F401  (the module's live server fixture)
from tests.pdfs import text_pdf

# What must never be printed raw: C0 controls but newline and tab, DEL, C1 controls, bidi and line separators.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
HOSTILE = "Safety\x1b]0;pwned\x07 \x1b[2J\u202etxt.exe\rline\x9b31m\u2028split"
HUGE = "Limits " + "very long heading words " * 4000  # ~100 KB


def test_line_and_block_escape_every_control_but_keep_text() -> None:
    from query.terminal import block, line

    assert line("a\x1b[2Jb\u202ec\nd\te\r") == "a\\x1b[2Jb\\u202ec d e "
    assert block("one\r\ntwo\n\tthree\x07\x9b") == "one\ntwo\n\tthree\\x07\\x9b"
    assert line("Zürich – Ωμέγα 日本") == "Zürich – Ωμέγα 日本"
    assert not RAW.search(line(HOSTILE)) and not RAW.search(block(HOSTILE))


@pytest.fixture(scope="module")
def hostile_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("hostile")
    pdf = text_pdf(folder / "h.pdf", ["Front page", "Safety\nKeep the cover closed.", "Limits\nThe limit is 42 newton metres."],
                   toc=[[1, HOSTILE, 2], [1, HUGE, 3]], title="Hostile\x1b[2J manual")
    store = str(folder / "store")
    publish(store, pdf, "hostile")
    return store


def test_a_huge_outline_title_is_cut_in_the_tree_and_kept_whole_in_the_text(hostile_store: str) -> None:
    doc = open_index(hostile_store, "hostile")
    node = doc.tree.root.nodes[1]
    assert node.title.startswith("Limits very long heading") and len(node.title) <= 304
    assert " ".join(HUGE.split()) in doc.node_texts()[node.node_id]
    assert doc.tree.root.nodes[0].title == " ".join(HOSTILE.split())  # JSON keeps the title as is (only whitespace folded)


@pytest.mark.parametrize("argv", [
    ["tree", "hostile", "--summaries"], ["outline", "hostile"], ["read", "hostile", "0001"], ["read", "hostile", "0000"],
    ["grep", "hostile", "limit"], ["find", "hostile", "cover"], ["search", "cover closed", "--doc", "hostile"],
    ["pages", "hostile", "1-3"], ["list"], ["read", "hostile", "nope\x1b[2J"],
])
def test_nothing_from_a_document_reaches_the_terminal_raw(hostile_store: str, argv: list[str], capsys) -> None:
    main([*argv, "--store", hostile_store])
    out, err = capsys.readouterr()
    assert out.strip() or err.strip()
    assert not RAW.search(out.replace("\n", "").replace("\t", "")), out[:300]
    assert not RAW.search(err.replace("\n", ""))
    if argv[0] in ("tree", "outline"):
        assert "\\x1b]0;pwned\\x07" in out and "\\u202e" in out  # visible, not executed
        assert max(len(row) for row in out.splitlines()) < 400


def test_page_text_controls_are_escaped_in_pages_and_read(tmp_path: Path, capsys) -> None:
    from index_store.publish import publish_document
    from index_store.store import Store
    from parsers.pipeline import PipelineSettings, index_document

    pdf = text_pdf(tmp_path / "t.pdf", ["Intro\nplain text", "Body\nmore text"], toc=[[1, "Body", 2]])
    s = PipelineSettings(ocr=False)
    idx = index_document(pdf, "t", s)
    idx.pages[1].text = "Body\nred \x1b[31mtext\x1b[0m and \x1b]2;title\x07 done"  # a text layer can hold anything
    publish_document(Store(str(tmp_path / "st")), tree=idx.tree, nodes=idx.nodes, pages=idx.pages,
                     source={"sha256": idx.sha256}, pipeline={"fingerprint": s.fingerprint(), "settings": s.to_dict()},
                     stats=idx.stats, decisions=idx.decisions)
    assert main(["pages", "t", "2", "--store", str(tmp_path / "st")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "red \\x1b[31mtext" in out
    assert main(["pages", "t", "2", "--json", "--store", str(tmp_path / "st")]) == 0
    assert "\\u001b[31m" in capsys.readouterr().out  # JSON output is left to json.dumps


def test_page_specs_are_checked_before_anything_is_expanded() -> None:
    tracemalloc.start()
    try:
        for spec in ("1-5000000", "1-200000000", "3-" + "9" * 30, "9" * 900):
            with pytest.raises(NotFoundError, match="out of range 1-20"):
                parse_page_spec(spec, 20, limit=100_000)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000  # before: a list of every page asked for (5 M ints, then 200 M: 7.9 GB)
    with pytest.raises(InvalidRequest, match="more than 200 pages"):
        parse_page_spec("1-150,1-150", 500)
    for bad in ("x-y", "5-3", "", ",", "1-2-3", "1" + "," * 2000, "9" * 5000):
        with pytest.raises(InvalidRequest):
            parse_page_spec(bad, 20)
    assert parse_page_spec("5-6,2,5", 20) == [5, 6, 2]


def test_http_page_specs_and_grep_pages_are_4xx_never_500(api) -> None:  # noqa: F811
    for spec in ("1-1000000000", "1-50000000", "1-" + "9" * 30, "9" * 30):
        r = _get(api, "/v1/documents/acme-handbook/pages", spec=spec)
        assert r.status_code == 422 and "out of range 1-" in r.json()["detail"], (spec, r.text[:200])
    assert _get(api, "/v1/documents/acme-handbook/pages", spec="1,,x").status_code == 400
    r = _get(api, "/v1/documents/acme-handbook/grep", pattern="torque", pages="1-" + "9" * 30)
    assert r.status_code == 422 and "out of range" in r.json()["detail"]
    assert _get(api, "/v1/documents/acme-nope/pages", spec="1-" + "9" * 30).status_code == 404  # the document first


def test_http_request_bodies_are_capped(api) -> None:  # noqa: F811
    body = b'{"question": "' + b"x" * (2 * 2**20) + b'"}'
    r = httpx.post(api + "/v1/search", content=body, headers={"X-API-Key": "k-acme", "Content-Type": "application/json"},
                   timeout=30)
    assert r.status_code == 413

    def chunks():  # streamed without a Content-Length
        yield b'{"question": "'
        for _ in range(64):
            yield b"y" * 32768
        yield b'"}'

    r = httpx.post(api + "/v1/search", content=chunks(), headers={"X-API-Key": "k-acme", "Content-Type": "application/json"},
                   timeout=30)
    assert r.status_code == 413
    ok = httpx.post(api + "/v1/search", json={"question": "torque limit"}, headers={"X-API-Key": "k-acme"}, timeout=30)
    assert ok.status_code == 200


def test_v_prefixed_versions_are_accepted(api, query_store, capsys) -> None:  # noqa: F811
    old = query_store["versions"][0]
    r = _get(api, "/v1/documents/acme-handbook/tree", version="v" + old)
    assert r.status_code == 200 and r.json()["version"] == old
    assert main(["tree", "acme-handbook", "--version", "v" + old, "--depth", "1", "--store", query_store["uri"]]) == 0
    assert main(["list", "--store", query_store["uri"]]) == 0
    printed = re.findall(r"\bv([0-9a-f]{16})\b", capsys.readouterr().out)
    assert printed and all(open_index(query_store["uri"], "acme-handbook", "v" + v) for v in printed[:1])


def test_docs_page_needs_no_network(api) -> None:  # noqa: F811
    r = httpx.get(api + "/docs", timeout=10)
    assert r.status_code == 200 and "/openapi.json" in r.text and "/v1/search" in r.text
    assert "<script" not in r.text and "cdn" not in r.text.lower() and "https://" not in r.text
