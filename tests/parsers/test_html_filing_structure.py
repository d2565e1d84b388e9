"""10-K/10-Q structure from HTML: TOC links first, styled headings, inferred and misplaced Parts, cross-reference
indexes, combined Items. Filings are built as small HTML strings here."""

from __future__ import annotations

from pathlib import Path

from parsers.pipeline import index_document
from parsers.samples_markup import filing_10q_html


def _write(tmp_path: Path, name: str, html: str) -> Path:
    path = tmp_path / name
    path.write_text(html, encoding="utf-8")
    return path


def _outline(index) -> list[tuple[int, str]]:
    return [(n.level, n.title) for n in index.tree.root.walk()][1:]


def _items(index) -> list[tuple[str, str]]:
    """(parent title, item title) for each Item node."""
    out = []

    def visit(node, parent):
        for child in node.nodes:
            if child.title.lower().startswith("item"):
                out.append((parent.title, child.title))
            visit(child, child)

    visit(index.tree.root, index.tree.root)
    return out


def _div(text: str, bold: bool = False, ident: str = "", brk: bool = False) -> str:
    style = "font-weight:bold" if bold else "font-weight:normal"
    attr = f' id="{ident}"' if ident else ""
    out = f'<div{attr}><span style="{style}">{text}</span></div>'
    return out + ('<hr style="page-break-after:always"/>' if brk else "")


BODY = "This paragraph explains the matter in enough words to be ordinary body text of the filing."


def test_sample_10q_has_parts_items_anchors_labels_and_subsections(tmp_path):
    index = index_document(_write(tmp_path, "q.htm", filing_10q_html()), "q")
    assert index.tree.source_format == "html" and index.tree.page_kind == "physical"
    items = _items(index)
    assert [t.split(".")[0] for _, t in items] == ["Item 1", "Item 2", "Item 3", "Item 4", "Item 1", "Item 1A", "Item 6"]
    assert items[0][0].startswith("PART I.") and items[4][0].startswith("PART II.")
    first = index.tree.root.nodes[0].nodes[0]
    assert first.extra["anchor"] == "item1"  # the heading's HTML id, for deep links
    assert [c.title for c in first.nodes][:2] == ["CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS",
                                                   "CONDENSED CONSOLIDATED BALANCE SHEETS"]
    # Printed folios become labels: cover "i", contents "ii", then 1, 2, ...
    labels = [p.label for p in index.pages]
    assert labels[:4] == ["i", "ii", "1", "2"]
    assert index.decisions["structure"]["filing"]["item_sources"]["toc_link"] == 7
    assert index.tree.structure_source == "toc" and index.stats["model"].get("calls", 0) == 0


def test_10q_without_part_lines_gets_inferred_parts(tmp_path):
    index = index_document(_write(tmp_path, "q.htm", filing_10q_html(part_lines=False)), "q")
    parts = index.tree.root.nodes
    assert [p.title for p in parts[:2]] == ["Part I \u2014 Financial Information", "Part II \u2014 Other Information"]
    assert parts[0].extra["kind"] == "inferred"
    assert [c.title.split(".")[0] for c in parts[1].nodes] == ["Item 1", "Item 1A", "Item 6"]


def test_toc_without_links_uses_the_styled_body_headings_not_the_toc_rows(tmp_path):
    index = index_document(_write(tmp_path, "q.htm", filing_10q_html(toc_links=False)), "q")
    items = [n for n in index.tree.root.walk() if n.title.startswith("Item")]
    assert len(items) == 7
    assert all(n.start_page >= 3 for n in items)  # the body, not the contents page (page 2)
    assert index.decisions["structure"]["filing"]["item_sources"] == {"toc_link": 0, "styled": 7, "text": 0}


def _tenk(items: list[tuple[str, str]], extra_body: str = "", part2_after_item5: bool = False) -> str:
    parts = {"1": "PART I", "5": "PART II", "10": "PART III", "15": "PART IV"}
    out = ["<html><body>", _div("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", True), _div("FORM 10-K", True),
           _div("Acme Widgets, Inc.", brk=True)]
    for number, title in items:
        part = parts.get(number.split(",")[0].split()[0])
        if part and not (part == "PART II" and part2_after_item5):
            out.append(_div(part, True))
        out.append(_div(f"{'Items' if ',' in number else 'Item'} {number}. {title}", True))
        if part == "PART II" and part2_after_item5:
            out.append(_div("PART II", True))
        out.append(_div(BODY))
        out.append(_div(extra_body or BODY, brk=True))
    out.append("</body></html>")
    return "".join(out)


TENK_ITEMS = [("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"), ("5", "Market for Common Equity"),
              ("7", "Management\u2019s Discussion and Analysis"), ("8", "Financial Statements"),
              ("10, 11, 12, 13 and 14", "Directors, Compensation, Ownership, Relationships and Fees"),
              ("15", "Exhibits and Financial Statement Schedules")]


def test_10k_combined_items_heading_and_sentence_references(tmp_path):
    # A sentence citing an Item at the start of a paragraph is not a heading.
    html = _tenk(TENK_ITEMS, extra_body="Item 7 of this report discusses our liquidity in more detail and should be read.")
    index = index_document(_write(tmp_path, "k.htm", html), "k")
    titles = [t for _, t in _items(index)]
    assert titles == [f"{'Items' if ',' in n else 'Item'} {n}. {t}" for n, t in TENK_ITEMS]
    assert [p.title for p in index.tree.root.nodes] == ["PART I", "PART II", "PART III", "PART IV"]


def test_misplaced_part_heading_after_its_first_item(tmp_path):
    index = index_document(_write(tmp_path, "k.htm", _tenk(TENK_ITEMS, part2_after_item5=True)), "k")
    parts = index.tree.root.nodes
    # Part II starts at its first Item (5), not at the late "PART II" line, and owns Items 5-8.
    assert parts[1].title.startswith("Part II") and parts[1].extra.get("kind") == "inferred"
    assert [c.title.split(".")[0] for c in parts[1].nodes] == ["Item 5", "Item 7", "Item 8"]


def test_cross_reference_index_only(tmp_path):
    # The report runs in the filer's own order (MD&A before the business section); the Items are only in a
    # cross-reference index at the back whose rows link to the report's sections.
    sections = [("mda", "Management's discussion", "7"), ("biz", "About the company", "1"),
                ("risk", "What could go wrong", "1A"), ("fin", "Consolidated statements", "8")]
    body = ["<html><body>", _div("FORM 10-K", True), _div("Annual Report", brk=True)]
    for ident, title, _ in sections:
        body += [_div(title, True, ident), _div(BODY), _div(BODY, brk=True)]
    rows = "".join(f'<tr><td>Item {n}</td><td>Title {n}</td><td><a href="#{ident}">Page {i + 2}</a></td></tr>'
                   for i, (ident, _, n) in enumerate(sorted(sections, key=lambda s: s[2])))
    body += [_div("Form 10-K Cross-Reference Index", True), f"<table>{rows}<tr><td>Item 4</td><td>Mine Safety</td>"
             "<td>Not applicable</td></tr></table>", "</body></html>"]
    index = index_document(_write(tmp_path, "x.htm", "".join(body)), "x")
    items = [n for n in index.tree.root.walk() if n.title.startswith("Item")]
    # Linked Items start at their targets; an Item without a link ("Not applicable") is its index row.
    assert [n.title for n in items] == ["Item 7. Title 7", "Item 1. Title 1", "Item 1A. Title 1A", "Item 8. Title 8",
                                        "Item 4. Mine Safety"]
    assert [n.extra["anchor"] for n in items] == ["mda", "biz", "risk", "fin", None]
    assert index.decisions["structure"]["filing"]["mode"] == "cross_reference"


def test_txt_holding_a_filing_is_html(tmp_path):
    index = index_document(_write(tmp_path, "0000000001-24-000001.txt", filing_10q_html()), "q")
    assert index.tree.source_format == "html" and len(_items(index)) == 7


def test_cross_reference_index_without_links_maps_printed_pages(tmp_path):
    # No links and no Item headings in the body: the index rows name printed pages, and each page's folio says
    # which one it is.
    sections = [("Letter to shareholders", "1"), ("Our business", "2"), ("Risks", "3"), ("Financial statements", "4")]
    body = ["<html><body>", _div("FORM 10-K", True), _div("Annual Report", brk=True)]
    for title, folio in sections:
        body += [_div(title, True), _div(BODY), _div(folio, brk=True)]
    rows = "".join(f"<tr><td>Item {n}</td><td>{t}</td><td>{p}</td></tr>"
                   for n, t, p in [("1", "Business", "Page 2"), ("1A", "Risk Factors", "Page 3"),
                                   ("1B", "Unresolved Staff Comments", "Not applicable"), ("8", "Financial Statements", "4")])
    body += [_div("Form 10-K Cross-Reference Index", True), f"<table>{rows}</table>", _div("5"), "</body></html>"]
    index = index_document(_write(tmp_path, "x.htm", "".join(body)), "x")
    items = {n.title: n.start_page for n in index.tree.root.walk() if n.title.startswith("Item")}
    assert items == {"Item 1. Business": 3, "Item 1A. Risk Factors": 4, "Item 8. Financial Statements": 5,
                     "Item 1B. Unresolved Staff Comments": 6}
    assert index.decisions["structure"]["filing"]["item_sources"]["index_page"] == 3


def test_contents_lines_outside_a_table_lose_to_the_headings(tmp_path):
    # A table of contents set as bold lines ending with page numbers, no links, no table; the headings are plain.
    toc = "".join(_div(f"Item {n}. {t} {i + 3}", True) for i, (n, t) in enumerate(TENK_ITEMS[:6]))
    html = _tenk(TENK_ITEMS[:6]).replace('<span style="font-weight:bold">Item', '<span style="font-weight:normal">Item').replace("<div><span style=\"font-weight:normal\">Acme Widgets, Inc.</span></div>",
                                          "<div><span style=\"font-weight:normal\">Acme Widgets, Inc.</span></div>" + toc)
    index = index_document(_write(tmp_path, "k.htm", html), "k")
    items = [n for n in index.tree.root.walk() if n.title.startswith("Item")]
    assert len(items) == 6 and all(n.start_page >= 2 for n in items)


def test_statement_titles_in_layout_tables_are_subsections_and_page_header_items_are_not(tmp_path):
    statements = ("Consolidated Balance Sheets", "Consolidated Statements of Income")
    fin = "".join(f"<table><tr><td><span style='font-weight:bold'>{t}</span></td></tr></table>"
                  f"<table><tr><td>Revenue</td><td>12</td></tr><tr><td>Cost</td><td>7</td></tr>"
                  f"<tr><td><b>Total</b></td><td>5</td></tr><tr><td>Other</td><td>1</td></tr></table>"
                  for t in statements)
    html = _tenk(TENK_ITEMS, extra_body=BODY).replace(
        _div("Item 8. Financial Statements", True) + _div(BODY), _div("Item 8. Financial Statements", True) + fin)
    # A page-header table naming the next Item, on the page before that Item's heading.
    html = html.replace(_div("Item 15. Exhibits and Financial Statement Schedules", True),
                        "<table><tr><td><b>PART IV</b></td></tr><tr><td><b>Item 15. Exhibits</b></td></tr></table>"
                        "<hr style='page-break-after:always'/>"
                        + _div("Item 15. Exhibits and Financial Statement Schedules", True))
    index = index_document(_write(tmp_path, "k.htm", html), "k")
    item8 = next(n for n in index.tree.root.walk() if n.title.startswith("Item 8"))
    assert [c.title for c in item8.nodes] == list(statements)
    items = [n.title for n in index.tree.root.walk() if "item 15" in n.title.lower()]
    assert items == ["Item 15. Exhibits and Financial Statement Schedules"]


def test_the_cover_line_names_the_form_not_an_earlier_mention(tmp_path):
    html = filing_10q_html().replace(
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION",
        "UNITED STATES SECURITIES AND EXCHANGE COMMISSION (see also our Annual Report on Form 10-K for 2023)")
    index = index_document(_write(tmp_path, "q.htm", html), "q")
    assert index.decisions["structure"]["filing"]["form"] == "10-Q"
    assert [c.title.split(".")[0] for c in index.tree.root.nodes[1].nodes] == ["Item 1", "Item 1A", "Item 6"]
