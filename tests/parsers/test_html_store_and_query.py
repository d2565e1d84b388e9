"""An HTML filing and a Markdown manual through the store and every reader: source_format, page_kind, anchors,
facts.parquet and ``doc.facts``, read/pages/grep/search with labels, the ``facts`` CLI, and ingest picking
them up by content (with ``unsupported_format`` for the rest)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from flows.cli import main
from index_store.model import Tree
from index_store.publish import publish_document
from index_store.store import Store
from parsers.pipeline import PipelineSettings, index_document
from parsers.samples_markup import filing_10q_html, MANUAL_MD
from query import open_index, search_doc
from query.index import cache_clear


def _publish(store: Store, path: Path, doc_id: str):
    settings = PipelineSettings()
    index = index_document(path, doc_id, settings)
    publish_document(store, tree=index.tree, nodes=index.nodes, pages=index.pages,
                     source={"uri": path.as_uri(), "sha256": index.sha256, "bytes": index.size},
                     pipeline={"fingerprint": settings.fingerprint()}, stats=index.stats, decisions=index.decisions,
                     facts=index.facts)
    return index


@pytest.fixture()
def published(tmp_path: Path):
    cache_clear()
    store = Store(str(tmp_path / "index"))
    filing = tmp_path / "q.htm"
    filing.write_text(filing_10q_html(), encoding="ascii", errors="xmlcharrefreplace")
    manual = tmp_path / "guide.md"
    manual.write_text(MANUAL_MD)
    _publish(store, filing, "q")
    _publish(store, manual, "guide")
    return store


def test_store_contract_for_html_and_markdown(published: Store):
    manifest = published.manifest("q")
    assert manifest["source_format"] == "html" and manifest["schema_version"] == 2
    assert set(manifest["files"]) == {"tree.json", "nodes.parquet", "pages.parquet", "facts.parquet"}
    assert "facts.parquet" not in published.manifest("guide")["files"]  # no XBRL, no table
    tree = published.tree("guide")
    assert tree.source_format == "markdown" and tree.page_kind == "virtual"
    assert published.verify() == []


def test_schema_1_trees_still_read_as_physical_pdf_pages():
    tree = Tree.from_dict({"schema_version": 1, "doc_id": "old", "version": "v", "page_count": 1,
                           "structure_source": "pages", "page_offset": None,
                           "root": {"node_id": "0000", "title": "Old", "level": 0, "start_page": 1, "end_page": 1}})
    assert tree.source_format == "pdf" and tree.page_kind == "physical"


def test_facts_with_units_periods_dimensions_scale_sign_node_and_page(published: Store):
    doc = open_index(published, "q")
    revenues = doc.facts("us-gaap:Revenues")
    assert [f["number"] for f in revenues] == [1284e6, 702e6]
    total, freight = revenues
    assert total["unit"] == "iso4217:USD" and total["period_start"] == "2024-01-01" and total["period_end"] == "2024-03-31"
    assert total["dimensions"] is None
    assert json.loads(freight["dimensions"]) == {"us-gaap:StatementBusinessSegmentsAxis": "nw:FreightMember"}
    assert doc.node(total["node_id"]).title == "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS"
    assert doc.pages()[total["page_number"] - 1]["label"] == "1"
    eps = doc.facts("EarningsPerShareBasic")[0]  # any prefix
    assert eps["number"] == -0.12 and eps["unit"] == "iso4217:USD/xbrli:shares" and eps["decimals"] == "2"
    cash = doc.facts("us-gaap:CashAndCashEquivalentsAtCarryingValue")[0]
    assert cash["instant"] == "2024-03-31" and cash["period_start"] is None
    hidden = doc.facts("dei:AmendmentFlag")[0]
    assert hidden["node_id"] is None and hidden["page_number"] is None and hidden["value"] == "false"
    assert [f["concept"] for f in doc.facts(text="10-Q")] == ["dei:DocumentType"]
    assert open_index(published, "guide").facts() == []


def test_read_pages_grep_and_search_cite_pages_and_labels(published: Store):
    doc = open_index(published, "q")
    item2 = next(n for n in doc.nodes() if n.title.startswith("Item 2."))
    read = doc.read(item2.node_id)
    assert "Freight volumes grew 6 percent" in read["text"] and read["path"].startswith("PART I.")
    page = doc.read_pages(str(item2.start_page))[0]
    assert page["label"] == "2" and page["path"].startswith(read["path"])  # the deepest node on that page
    hits = doc.grep(r"basis point")
    assert hits and hits[0]["path"].endswith("Quantitative and Qualitative Disclosures About Market Risk")
    top = search_doc(doc, "operating cash flow capital expenditures liquidity").to_dict(full=False)["results"][0]
    assert top["path"].endswith("Liquidity and Capital Resources") and top["start_page"] == item2.start_page
    guide = open_index(published, "guide")
    assert any("E42" in h["line"] for h in guide.grep("E42"))


def test_facts_cli_prints_one_line_per_fact(published: Store, capsys):
    assert main(["facts", "q", "us-gaap:Revenues", "--store", published.uri]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("us-gaap:Revenues") for line in lines)
    assert main(["facts", "q", "--text", "10-Q", "--json", "--store", published.uri]) == 0
    assert json.loads(capsys.readouterr().out)[0]["concept"] == "dei:DocumentType"


@pytest.mark.integration
def test_ingest_picks_html_and_markdown_by_default_and_reports_unsupported(prefect_harness, samples_dir: Path,
                                                                           tmp_path: Path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("quarterly-10q.htm", "quick-start.md", "filing.pdf"):
        shutil.copy(samples_dir / name, src / name)
    (src / "edgar-filing.txt").write_text(filing_10q_html(company="Txt Filer Inc."))  # not included by default
    (src / "logo.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))  # named HTML, is not
    store = str(tmp_path / "index")
    assert main(["ingest", str(src), "--store", store]) == 1  # a document failed
    report = json.loads(next(Path(store, "runs").glob("*.json")).read_text())
    # Only a PDF's suffix leaves its doc_id (index_store.layout): "quarterly-10q.htm" keeps its own.
    assert report["counts"]["published"] == 3 and Store(store).latest("quarterly-10q.htm")
    assert [(f["doc_id"], f["kind"]) for f in report["failures"]] == [("logo.html", "unsupported_format")]
    assert main(["ingest", str(src), "--store", store, "--include", "*.txt"]) == 0
    assert Store(store).tree("edgar-filing.txt").source_format == "html"


def test_http_api_serves_html_filings_with_pages_and_labels(published: Store, tmp_path: Path):
    import socket
    import threading
    import time

    import httpx
    import uvicorn

    from query.access import load_keys
    from query.server import create_app

    keys_file = tmp_path / "keys.json"
    keys_file.write_text(json.dumps({"keys": {"k": {"prefixes": [""]}}}))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(published.uri, load_keys(keys_file)), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        base, headers = f"http://127.0.0.1:{port}/v1", {"X-API-Key": "k"}
        outline = httpx.get(f"{base}/documents/q/tree", params={"depth": 2}, headers=headers, timeout=10).json()
        assert outline["structure_source"] == "toc"
        part1 = outline["outline"]["nodes"][0]
        assert part1["title"].startswith("PART I.") and part1["nodes"][0]["title"] == "Item 1. Financial Statements"
        assert part1["nodes"][0]["anchor"] == "item1" and "anchor" not in outline["outline"]
        page = httpx.get(f"{base}/documents/q/pages", params={"spec": "3"}, headers=headers, timeout=10).json()[0]
        assert page["label"] == "1" and "Revenues were $1,284 million" in page["text"]
        hits = httpx.post(f"{base}/search", json={"question": "operating cash flow capital expenditures liquidity",
                                                  "doc_ids": ["q"]}, headers=headers, timeout=30).json()["results"]
        assert hits[0]["path"].endswith("Liquidity and Capital Resources") and hits[0]["pages"] == [4]
    finally:
        server.should_exit = True
        thread.join(10)
