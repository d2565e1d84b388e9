"""One normalisation for what search, grep and find match (query/normalize.py); stored text stays faithful."""

from __future__ import annotations

from index_store.model import Node, PageRecord, Tree, flatten
from index_store.publish import publish_document
from index_store.store import Store
from query import open_index, search_doc
from query.normalize import normalize
from query.snippet import snippet
from query.text import STOPWORDS, tokenize

NBSP_PAGE = "Report\u00a0of\u00a0Independent\u00a0Registered\u00a0Public\u00a0Accounting\u00a0Firm\nTo the\u00a0shareholders"
LIGATURE_PAGE = "How to con\ufb01gure the \ufb02ow of data.\nThe sensor is cali-\nbrated every 90 days; the soft\u00adhyphen stays hidden."


def test_normalize_spaces_ligatures_soft_hyphens_and_line_end_hyphenation():
    assert normalize("a\u00a0b\u2009c\u202fd\u3000e") == "a b c d e"
    assert normalize("con\ufb01gure \ufb02ow e\ufb00ort") == "configure flow effort"
    assert normalize("soft\u00adhyphen zero\u200bwidth") == "softhyphen zerowidth"
    assert normalize("cali-\nbrated and well-known\nMid-\nYear") == "calibrated and well-known\nMid-\nYear"
    assert normalize("two\n\nlines  with   spaces") == "two\n\nlines with spaces"  # lines survive for grep
    # Mixed runs of horizontal white space, on ASCII and non-ASCII text alike, become one plain space.
    assert normalize("a\t b \tc\t\td\x0be \n f") == "a b c d e \n f"
    assert normalize("a\u00a0 \tb\u2009\u00a0c \u3000 d\t\n\u00a0e") == "a b c d \n e"


def test_normalising_twice_changes_nothing():
    """Search tokenises pages that are already normalised (DocIndex.normalized_texts) without normalising them
    again: that is exact only if normalize is idempotent, also where an invisible character parts a letter from
    its combining mark (dropped first, then composed by NFKC)."""
    assert normalize("cafe\u00ad\u0301 re\u200b\u0301sume\u0301") == "café résumé"
    cases = ["b1e\u200b\u0301\u00a0-", "\u00adba\u200b\u0301e\u200b \n b", "A\u200b\u0301", "x-\n\u00ady",
             "\u0301\u00ad\ufb01\u00ad\u0301baa", NBSP_PAGE, LIGATURE_PAGE, "e\u0327\u00ad\u0301 \u3000 ſ\u0307"]
    for text in cases:
        once = normalize(text)
        assert normalize(once) == once, repr(text)
        assert tokenize(once, normalized=True) == tokenize(text)


def test_tokens_use_the_normalised_text_and_a_standard_stop_list():
    assert tokenize("con\ufb01gure\u00a0apt") == tokenize("configure apt") == ["configure", "apt"]
    assert {"provide", "please", "answer", "question", "shown", "based"}.isdisjoint(STOPWORDS)  # no benchmark's boilerplate
    assert {"the", "where", "does", "which"} <= STOPWORDS
    assert tokenize("FY2018 10-K") == ["fy2018", "fy", "2018", "10", "k"]  # "FY2018" also meets "fiscal year 2018"


def _store(tmp_path) -> str:
    pages = [PageRecord(1, None, NBSP_PAGE), PageRecord(2, None, LIGATURE_PAGE)]
    root = Node("0000", "Doc", 0, 1, 2, nodes=[Node("0001", "Auditor\u00a0report", 1, 1, 1), Node("0002", "Sensors", 1, 2, 2)])
    tree = Tree("nbsp-doc", "a" * 16, 2, "bookmarks", 0, root, extra={"doc_kind": "other"})
    uri = str(tmp_path / "store")
    publish_document(Store(uri), tree=tree, nodes=flatten(root, {"0001": NBSP_PAGE, "0002": LIGATURE_PAGE}), pages=pages,
                     source={"uri": "x.pdf", "sha256": "0" * 64, "bytes": 1}, pipeline={"fingerprint": "f"}, stats={},
                     decisions={})
    return uri


def test_grep_find_and_search_match_the_normalised_text_while_pages_stay_faithful(tmp_path):
    doc = open_index(_store(tmp_path), "nbsp-doc")
    assert [h["page"] for h in doc.grep("Independent Registered")] == [1]
    assert [h["page"] for h in doc.grep(r"Independent\sRegistered")] == [1]
    assert [h["page"] for h in doc.grep("configure the flow")] == [2]
    assert [h["page"] for h in doc.grep("calibrated every")] == [2]
    assert [f["node_id"] for f in doc.find("independent registered public")] == ["0001"]
    assert [f["node_id"] for f in doc.find("softhyphen")] == ["0002"]
    hits = search_doc(doc, "How is the sensor calibrated?").results
    assert hits[0].pages == [2] and "calibrated every 90 days" in hits[0].snippet
    assert doc.read_pages("1")[0]["text"] == NBSP_PAGE  # what is stored and read back is the faithful text


def test_snippet_centres_on_the_densest_match():
    text = "intro words " * 40 + "the torque limit of the drive is 42 newton metres" + " tail words" * 40
    out = snippet(text, "What is the torque limit of the drive?", max_chars=80)
    assert "torque limit of the drive" in out and out.startswith("… ") and out.endswith(" …") and len(out) <= 84
    assert snippet("", "anything") == "" and snippet("short text", "zebra") == "short text"
