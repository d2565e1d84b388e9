"""Filing layouts the development filings do not have (issue 15's "filings never seen"): a cross-reference index
with page numbers only and several Items on one page, a 10-Q announced only by such an index. Filings are
built as small HTML strings here."""

from __future__ import annotations

from pathlib import Path

from parsers.pipeline import index_document

BODY = "This paragraph explains the matter in enough words to be ordinary body text of the filing."


def _div(text: str, bold: bool = False, brk: bool = False) -> str:
    style = "font-weight:bold" if bold else "font-weight:normal"
    return f'<div><span style="{style}">{text}</span></div>' + ('<hr style="page-break-after:always"/>' if brk else "")


def _report(form: str, pages: list[list[str]], rows: list[tuple[str, str, str]], unread: set[int] = frozenset()) -> str:
    """A report whose body has captions only ("Risk Factors"), each page closed by its folio (but the pages in
    ``unread``), and a cross-reference index at the back: (label, caption, pages) rows, "Part II" rows allowed."""
    out = ["<html><body>", _div(f"FORM {form}", True), _div("Acme Widgets, Inc.", brk=True)]
    for n, captions in enumerate(pages, start=1):
        for caption in captions:
            out += [_div(caption, True), _div(BODY), _div(BODY)]
        out.append(_div(str(n), brk=True) if n not in unread else '<hr style="page-break-after:always"/>')
    cells = "".join(f"<tr><td>{a}</td><td>{b}</td><td>{c}</td></tr>" for a, b, c in rows)
    out += [_div(f"Form {form} Cross Reference Index", True), f"<table>{cells}</table>", _div(str(len(pages) + 1)),
            "</body></html>"]
    return "".join(out)


def _index(tmp_path: Path, html: str):
    path = tmp_path / "f.htm"
    path.write_text(html, encoding="utf-8")
    return index_document(path, "f")


def _own_text(index, title: str) -> str:
    node = next(n for n in index.tree.root.walk() if n.title == title)
    return next(r.text for r in index.nodes if r.node_id == node.node_id)


def test_index_rows_sharing_a_page_start_at_their_captions(tmp_path):
    pages = [["Business", "Risk Factors"], ["Unresolved Staff Comments", "Properties", "Legal Proceedings"],
             ["Market for Common Equity", "Financial Statements"]]
    rows = [("Item 1.", "Business", "1"), ("Item 1A.", "Risk Factors", "1"), ("Item 1B.", "Unresolved Staff Comments", "2"),
            ("Item 2.", "Properties", "2"), ("Item 3.", "Legal Proceedings", "2"),
            ("Item 5.", "Market for Common Equity", "3"), ("Item 8.", "Financial Statements", "3")]
    index = _index(tmp_path, _report("10-K", pages, rows))
    items = [n for n in index.tree.root.walk() if n.title.startswith("Item")]
    assert [n.title for n in items] == [f"{a} {b}" for a, b, _ in rows]
    # Each Item starts at its own caption, not at the top of the page it shares with others.
    assert _own_text(index, "Item 2. Properties").startswith("Properties")
    assert "Legal Proceedings" not in _own_text(index, "Item 2. Properties")
    assert [n.start_page for n in items] == [2, 2, 3, 3, 3, 4, 4]
    # The body runs Part by Part, so the Parts are kept (inferred: the report prints none).
    assert [p.title for p in index.tree.root.nodes][:2] == ["Part I", "Part II"]
    assert index.decisions["structure"]["filing"]["mode"] == "cross_reference"


def test_10q_known_only_by_its_cross_reference_index_gets_both_parts(tmp_path):
    pages = [["Financial Statements"], ["Management's Discussion and Analysis", "Controls and Procedures"],
             ["Legal Proceedings", "Risk Factors"], ["Exhibits"]]
    rows = [("Part I", "Financial Information", ""), ("Item 1.", "Financial Statements", "1"),
            ("Item 2.", "Management's Discussion and Analysis", "2"), ("Item 4.", "Controls and Procedures", "2"),
            ("Part II", "Other Information", ""), ("Item 1.", "Legal Proceedings", "3"), ("Item 1A.", "Risk Factors", "3"),
            ("Item 6.", "Exhibits", "4")]
    index = _index(tmp_path, _report("10-Q", pages, rows))
    parts = index.tree.root.nodes
    assert [p.title for p in parts[:2]] == ["Part I \u2014 Financial Information", "Part II \u2014 Other Information"]
    # Part II's "Item 1" is its own Item (Legal Proceedings), not a second reading of Part I's Item 1.
    assert [c.title for c in parts[1].nodes] == ["Item 1. Legal Proceedings", "Item 1A. Risk Factors", "Item 6. Exhibits"]
    assert [c.title for c in parts[0].nodes][0] == "Item 1. Financial Statements"
    assert _own_text(index, "Item 4. Controls and Procedures").startswith("Controls and Procedures")


def test_items_1_and_2_combined_before_item_1a(tmp_path):
    # "Items 1 and 2. Business and Properties" followed by Item 1A: the combined heading holds Items 1 and 2, and
    # the Items it skipped in the form's order still follow it.
    heads = ["Items 1 and 2. Business and Properties", "Item 1A. Risk Factors", "Item 1B. Unresolved Staff Comments",
             "Item 3. Legal Proceedings", "Item 5. Market for Common Equity", "Item 7. Management\u2019s Discussion",
             "Item 8. Financial Statements"]
    out = ["<html><body>", _div("FORM 10-K", True), _div("Acme Widgets, Inc.", brk=True)]
    for h in heads:
        out += [_div(h, True), _div(BODY), _div(BODY, brk=True)]
    index = _index(tmp_path, "".join(out + ["</body></html>"]))
    items = [n.title for n in index.tree.root.walk() if n.title.startswith("Item")]
    assert items == heads


def test_index_page_whose_folio_is_not_read_is_counted_from_its_neighbours(tmp_path):
    # Page 2 prints its number where it is not read (no footer line): "2" in the index still means the page after
    # page 1's.
    pages = [["Business"], ["Risk Factors"], ["Properties"], ["Financial Statements"]]
    rows = [("Item 1.", "Business", "1"), ("Item 1A.", "Risk Factors", "2"), ("Item 2.", "Properties", "3"),
            ("Item 8.", "Financial Statements", "4")]
    index = _index(tmp_path, _report("10-K", pages, rows, unread={2}))
    items = {n.title: n.start_page for n in index.tree.root.walk() if n.title.startswith("Item")}
    assert items == {"Item 1. Business": 2, "Item 1A. Risk Factors": 3, "Item 2. Properties": 4,
                     "Item 8. Financial Statements": 5}


def test_sentence_case_item_headings_without_contents_links(tmp_path):
    # No contents to link from: the headings alone carry the Items, set in sentence case as some filers do.
    heads = ["Item 1. Business", "Item 1A. Risk factors", "Item 1B. Unresolved staff comments", "Item 2. Properties",
             "Item 7. Management\u2019s discussion and analysis of financial condition and results of operations",
             "Item 9A. Controls and procedures", "Item 11. Executive compensation", "Item 15. Exhibits and schedules"]
    out = ["<html><body>", _div("FORM 10-K", True), _div("Acme Widgets, Inc.", brk=True)]
    for h in heads:
        out += [_div(h, True), _div(BODY), _div("Item 7 of this report discusses our liquidity in more detail."),
                _div(BODY, brk=True)]
    index = _index(tmp_path, "".join(out + ["</body></html>"]))
    assert [n.title for n in index.tree.root.walk() if n.title.startswith("Item")] == heads
    # Read as the filing's Items (under their Parts), not merely as styled headings.
    assert index.decisions["structure"]["filing"]["item_sources"]["styled"] == len(heads)
    assert [p.title for p in index.tree.root.nodes] == ["Part I", "Part II", "Part III", "Part IV"]


def test_a_parts_divider_page_listing_its_items_is_not_their_headings(tmp_path):
    # A "PART IV" divider page lists its two Items line after line (too few for a contents table); the Items'
    # headings come after it.
    heads = ["Item 1. Business", "Item 1A. Risk Factors", "Item 7. Management\u2019s Discussion", "Item 8. Financial Statements"]
    out = ["<html><body>", _div("FORM 10-K", True), _div("Acme Widgets, Inc.", brk=True)]
    for h in heads:
        out += [_div(h, True), _div(BODY), _div(BODY, brk=True)]
    out += [_div("PART IV", True), _div("Item 15. Exhibits and Financial Statement Schedules", True),
            _div("Item 16. Form 10-K Summary", True, brk=True),
            _div("Item 15. Exhibits and Financial Statement Schedules", True), _div("Exhibit 3.1 Articles " * 20),
            _div("Item 16. Form 10-K Summary", True), _div("None.", brk=True), "</body></html>"]
    index = _index(tmp_path, "".join(out))
    item15 = next(n for n in index.tree.root.walk() if n.title.startswith("Item 15"))
    assert item15.start_page == 7 and "Exhibit 3.1" in _own_text(index, item15.title)


def test_part_and_its_first_item_on_one_line(tmp_path):
    heads = ["PART I \u2013 FINANCIAL INFORMATION \u2014 Item 1. Financial Statements", "Item 2. Management\u2019s Discussion",
             "Item 4. Controls and Procedures", "PART II \u2014 Item 1. Legal Proceedings", "Item 1A. Risk Factors",
             "Item 6. Exhibits"]
    out = ["<html><body>", _div("FORM 10-Q", True), _div("Acme Widgets, Inc.", brk=True)]
    for h in heads:
        out += [_div(h, True), _div(BODY), _div(BODY, brk=True)]
    index = _index(tmp_path, "".join(out + ["</body></html>"]))
    parts = index.tree.root.nodes
    assert [p.title for p in parts[:2]] == ["PART I \u2013 FINANCIAL INFORMATION", "PART II"]
    assert [c.title for c in parts[1].nodes] == ["Item 1. Legal Proceedings", "Item 1A. Risk Factors", "Item 6. Exhibits"]
    assert [c.title for c in parts[0].nodes][0] == "Item 1. Financial Statements"
