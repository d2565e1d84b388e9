"""Offline tree search, cross-references, multi-document selection, chunks export and the CLI contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from query import InvalidRequest, NotFoundError, open_index, search
from query.chunks import iter_chunks
from query.cues import asked_statements, implied_statements, statement_kinds
from query.lexical import lexical_search
from query.xref import find_refs, resolve

REPO = Path(__file__).resolve().parents[2]


def _title(doc, hit) -> str:
    return doc.node(hit.node_id).title


def test_search_descends_to_the_section_and_cites_its_page(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    hits, trace = lexical_search(doc, "How often must the load sensor be calibrated?")
    assert (_title(doc, hits[0]), hits[0].pages) == ("4.2 Calibration", [10])
    assert [t["node_id"] for t in trace[:2]] == ["0000", "0008"]  # root, then "4 Maintenance", then read
    assert trace[2]["action"] == "read" and trace[2]["node_id"] == hits[0].node_id


def test_statement_cue_finds_a_numbers_page_whose_words_do_not_match(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    hits, _ = lexical_search(doc, "What were capital expenditures in 2023? Use the cash flow statement.")
    assert hits[0].pages == [12]
    assert asked_statements("Answer from the P&L and the balance sheet") == {"income", "balance_sheet"}
    assert implied_statements("Is the company capital-intensive? What is its free cash flow?") == {"cash_flow"}
    globex = open_index(query_store["uri"], "globex-10k")
    hits, _ = lexical_search(globex, "What is the quick ratio?")
    assert hits[0].pages == [4]  # no statement named, but a quick ratio is read off the balance sheet
    assert lexical_search(globex, "What is the quick ratio?", implied_weight=0.0)[0] == []  # no word of it is in the text
    assert statement_kinds("CONSOLIDATED BALANCE SHEE T") == {"balance_sheet"}
    assert statement_kinds("Index: Statements of Operations, Balance Sheets, Statements of Cash Flows") == set()


def test_a_long_section_does_not_crowd_out_better_pages(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    hits, _ = lexical_search(doc, "terminal conductor torque", top_k=10)
    read = [p for h in hits for p in h.pages]
    assert len(read) == len(set(read))  # no page is read twice
    assert {5, 6, 7} <= set(read)


def test_no_match_returns_nothing_and_says_why(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    hits, trace = lexical_search(doc, "zebra quantum banana")
    assert hits == [] and trace[-1]["action"] == "stop"


def test_cross_references_are_detected_and_resolved(query_store):
    refs = find_refs("As noted in Item 7A and see Section 4.2; details in Appendix C, Note 12 and Part II.")
    assert [(r.kind, r.label) for r in refs] == [("item", "7A"), ("section", "4.2"), ("appendix", "C"), ("note", "12"), ("part", "II")]
    acme = open_index(query_store["uri"], "acme-handbook")
    globex = open_index(query_store["uri"], "globex-10k")
    assert acme.node(resolve(acme, refs[1])).title == "4.2 Calibration"
    assert acme.node(resolve(acme, refs[2])).title == "Appendix C Spare parts"
    assert globex.node(resolve(globex, refs[0])).title.startswith("Item 7A.")
    assert resolve(globex, find_refs("Item 7")[0]) != resolve(globex, refs[0])  # "Item 7" is not "Item 7A"
    assert resolve(acme, refs[3]) is None


def test_search_offers_cross_references_of_what_it_read(query_store):
    result = search("interest rate exposure revenue", ["globex-10k"], store=query_store["uri"])
    offers = [t for t in result.trace if t["action"] == "xrefs"]
    assert any(r["title"].startswith("Item 7A") for t in offers for r in t["refs"])


def test_multi_document_search_picks_documents_from_the_catalog(query_store):
    result = search("Globex market risk from interest rates", store=query_store["uri"], max_docs=1)
    assert result.trace[0]["action"] == "select_documents" and result.trace[0]["chosen"] == ["globex-10k"]
    assert {h.doc_id for h in result.results} == {"globex-10k"}
    both = search("widget wiring and interest rates", ["acme-handbook", "globex-10k"], store=query_store["uri"])
    assert {h.doc_id for h in both.results} == {"acme-handbook", "globex-10k"}
    assert [h.score for h in both.results] == sorted((h.score for h in both.results), reverse=True)


def test_search_errors(query_store):
    with pytest.raises(InvalidRequest):
        search("   ", store=query_store["uri"])
    with pytest.raises(InvalidRequest):
        search("x", ["acme-handbook"], store=query_store["uri"], navigator="magic")
    with pytest.raises(NotFoundError):
        search("x", ["no-such-doc"], store=query_store["uri"])
    with pytest.raises(InvalidRequest):
        search("x", ["acme-handbook"], store=query_store["uri"], navigator="llm")  # no provider configured


def test_chunks_carry_tree_context(query_store):
    doc = open_index(query_store["uri"], "acme-handbook")
    chunks = list(iter_chunks(doc, size=300))
    assert all(len(c["text"]) <= 300 for c in chunks)
    wiring = [c for c in chunks if "blue conductor" in c["text"]]
    assert wiring and {(c["node_id"], c["tree_path"], c["page_number"]) for c in wiring} == {("0006", "2 Installation > 2.2 Wiring", 5)}
    assert len({c["id"] for c in chunks}) == len(chunks)
    with pytest.raises(InvalidRequest):
        list(iter_chunks(doc, size=5))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", *args], capture_output=True, text=True, cwd=REPO, timeout=120)


def test_cli_search_json_contract(query_store):
    out = _cli("search", "spare gasket part number", "--doc", "acme-handbook", "--store", query_store["uri"], "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"results", "trace"}
    first = data["results"][0]
    # The citation keys (the original contract), plus the fields HTTP and MCP return: title, version, snippet.
    assert set(first) == {"doc_id", "node_id", "path", "start_page", "end_page", "pages", "score", "title", "version",
                          "snippet"}
    assert first["title"] == "Appendix C Spare parts" and len(first["version"]) == 16
    assert "gasket has part number ZX-9981" in first["snippet"]
    assert (first["doc_id"], first["path"], first["start_page"], first["end_page"], first["pages"]) == \
        ("acme-handbook", "Appendix C Spare parts", 11, 11, [11])
    assert [r["score"] for r in data["results"]] == sorted((r["score"] for r in data["results"]), reverse=True)


def test_cli_outline_pages_chunks_and_errors(query_store, tmp_path):
    out = _cli("outline", "acme-handbook", "--depth", "1", "--store", query_store["uri"])
    assert out.returncode == 0 and "[+2 subsections]" in out.stdout
    out = _cli("pages", "acme-handbook", "11", "--store", query_store["uri"])
    assert out.returncode == 0 and "ZX-9981" in out.stdout
    target = tmp_path / "chunks.jsonl"
    out = _cli("chunks", "--store", query_store["uri"], "--out", str(target))
    rows = [json.loads(line) for line in target.read_text().splitlines()]
    assert out.returncode == 0 and {r["doc_id"] for r in rows} == {"acme-handbook", "globex-10k"}
    assert _cli("pages", "acme-handbook", "99", "--store", query_store["uri"]).returncode == 3
    assert _cli("outline", "nope", "--store", query_store["uri"]).returncode == 3
    assert _cli("pages", "acme-handbook", "x", "--store", query_store["uri"]).returncode == 2
