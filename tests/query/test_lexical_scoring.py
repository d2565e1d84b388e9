"""Scoring rules of the lexical navigator on small trees built in code (no PDF, no store)."""

from __future__ import annotations

from index_store.model import Node
from query.lexical import LexicalIndex, lexical_search


class FakeDoc:
    """The part of a DocIndex the lexical navigator reads: tree root, nodes, page texts."""

    doc_id = "doc"
    version = "0" * 16

    def __init__(self, pages: list[str], root: Node, doc_kind: str = "filing"):
        self._pages = pages
        self.tree = type("Tree", (), {"root": root, "page_count": len(pages), "doc_kind": doc_kind})()
        self._nodes = list(root.walk())

    def pages(self) -> list[dict]:
        return [{"page_number": i + 1, "text": t} for i, t in enumerate(self._pages)]

    def nodes(self) -> list[Node]:
        return self._nodes

    def path(self, node_id: str) -> str:
        return node_id


def _stacked_doc() -> FakeDoc:
    """Page 2 answers the question under one section; page 3 sits under five nested one-page sections
    whose titles each share one word with the question (a stack of signature-page names, say)."""
    pages = [
        "Annual report 2023. Contents and cover page.",
        "Product warranties\nThe warranty reserve was 12 million dollars at year end; warranty claims "
        "paid from the reserve were 3 million dollars.",
        "Signatures\nSigned on behalf of the registrant by its officers and directors.",
        "Exhibits\nExhibit index.",
    ]
    stack = Node("0007", "Warranty Smith, Director", 5, 3, 3)
    for depth, node_id in zip((4, 3, 2), ("0006", "0005", "0004")):
        stack = Node(node_id, "Warranty Jones, Officer", depth, 3, 3, nodes=[stack])
    signatures = Node("0003", "Signatures and warranty of the officers", 1, 3, 4, nodes=[stack])
    notes = Node("0002", "Accrued liabilities", 1, 2, 2)
    cover = Node("0001", "Cover", 1, 1, 1)
    root = Node("0000", "Annual report", 0, 1, 4, nodes=[cover, notes, signatures])
    return FakeDoc(pages, root)


def test_nested_sections_do_not_add_up_their_title_matches():
    doc = _stacked_doc()
    question = "How large was the warranty reserve at year end?"
    scores, _ = LexicalIndex(doc).score(question)
    assert scores[1] > scores[2], scores  # the page that answers beats the page under many weakly matching titles
    hits, _ = lexical_search(doc, question, top_k=3)
    assert hits[0].pages[0] == 2


def test_a_section_title_match_still_lifts_its_pages():
    doc = _stacked_doc()
    scores, _ = LexicalIndex(doc).score("Signatures of the officers")
    without, _ = LexicalIndex(doc).score("Signatures of the officers", title_weight=0.0)
    assert scores[2] > without[2] and scores[3] > without[3]
    assert scores[0] == without[0]  # a page outside the matching sections gains nothing


def test_a_statement_cue_counts_once_however_deeply_the_statement_is_nested():
    pages = ["Notes to the financial statements. Leases and other commitments.",
             "Notes to the financial statements. Leases and other commitments."]
    inner = Node("0003", "Consolidated Balance Sheets (continued)", 2, 2, 2)
    outer = Node("0002", "Consolidated Balance Sheets", 1, 2, 2, nodes=[inner])
    single = Node("0001", "Consolidated Balance Sheet", 1, 1, 1)
    doc = FakeDoc(pages, Node("0000", "Report", 0, 1, 2, nodes=[single, outer]))
    scores, _ = LexicalIndex(doc).score("What were total liabilities on the balance sheet?", title_weight=0.0)
    assert scores[0] == scores[1] > 0


def test_the_filing_profile_applies_to_filings_only():
    """Statement cues are filing knowledge: a manual with a "Balance sheet" chapter gets none of them."""
    pages = ["Notes on the weather station. Leases and other commitments.",
             "Balance sheet of the workshop budget\nTotal liabilities are listed in the appendix."]
    tree = Node("0000", "Report", 0, 1, 2, nodes=[Node("0001", "Intro", 1, 1, 1), Node("0002", "Balance Sheet", 1, 2, 2)])
    question = "What were total liabilities on the balance sheet?"
    filing, _ = LexicalIndex(FakeDoc(pages, tree, "filing")).score(question, title_weight=0.0)
    manual, _ = LexicalIndex(FakeDoc(pages, tree, "manual")).score(question, title_weight=0.0)
    assert abs(filing[1] - manual[1] - 2.0) < 1e-9  # the cue, once from the section title and once from the page heading
    assert manual == LexicalIndex(FakeDoc(pages, tree, "manual")).score(question, title_weight=0.0, cue_weight=0.0)[0]
