"""Filing PDFs built here as a browser prints them (no outline): Items read from the headings in the body win
over a misleading contents page, 10-Q Parts are inferred where a heading is missing, a cross-reference 10-K
gets its Items from the index at the back, and an Item's text ends where the next Item's heading starts."""

from __future__ import annotations

from pathlib import Path

from parsers import filing_anatomy as fa
from parsers.filing_pdf import anchor_items, filing_items
from parsers.pdf import PdfSource
from parsers.pipeline import PipelineSettings, index_document
from parsers.ranges import Entry
from tests.pdfs import sized_lines_pdf

BODY = [("The company reported results for the period in line with its plan and the guidance it gave.", 10)] * 4


def _page(*heads: str, body: int = 1) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    for h in heads:
        out += [(h, 11)] + BODY * body
    return out


def _ten_k(path: Path) -> str:
    cover = [("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 12), ("FORM 10-K", 12),
             ("Securities registered pursuant to Section 12(b) of the Act:", 9),
             # A column of titles with numbers: the registered notes, not a contents.
             ("Common Stock, par value $.20 per share    ACME    New York Stock Exchange", 9),
             ("2.875% Notes due 2025    ACME 25A    New York Stock Exchange", 9),
             ("0.950% Notes due 2026    ACME 26A    New York Stock Exchange", 9),
             ("1.250% Notes due 2027    ACME 27A    New York Stock Exchange", 9)]
    contents = [("TABLE OF CONTENTS", 12), ("PART I", 10), ("Item 1. Business    3", 10),
                ("Item 1A. Risk Factors    4", 10), ("PART II", 10),
                # Long titles wrap: the page number is on the second line only.
                ("Item 5. Market for Registrant's Common Equity, Related Stockholder Matters and", 10),
                ("Issuer Purchases of Equity Securities    5", 10),
                ("Item 7. Management's Discussion and Analysis of Financial Condition and", 10),
                ("Results of Operations    5", 10),
                ("Item 7A. Quantitative and Qualitative Disclosures About Market Risk    6", 10),
                ("Item 8. Financial Statements and Supplementary Data    6", 10)]
    pages = [
        cover, contents,
        _page("PART I", "ITEM 1. BUSINESS", body=3),
        _page("ITEM 1A. RISK FACTORS", body=3),
        _page("PART II") + [("ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND", 11),
                            ("ISSUER PURCHASES OF EQUITY SECURITIES", 11)]
        + BODY + _page("ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL")
        # A sentence citing an Item at the start of a line is no heading.
        + [("Item 1A. Risk Factors for a discussion of these risks and of the uncertainties that could affect us.", 10)],
        BODY * 2 + _page("ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK")
        # A complete title followed by a line in capitals: a sub-heading, not the title's second line.
        + [("ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA", 11), ("INDEX TO CONSOLIDATED STATEMENTS", 10)] + BODY,
        _page("SIGNATURES"),
    ]
    return sized_lines_pdf(path, pages)


def _items(index, form: str) -> dict[str, tuple[int, str]]:
    """Item id -> (start page, own text) from the tree, as the benchmark reads it."""
    own = {r.node_id: r.text for r in index.nodes}
    out = {}
    for part in index.tree.root.nodes:
        for node in part.nodes:
            ref = fa.parse_item(node.title)
            if ref and fa.parse_part(part.title):
                out[fa.item_id(form, fa.parse_part(part.title), ref.numbers[0])] = (node.start_page, own[node.node_id])
    return out


def test_body_headings_win_over_wrapped_contents_and_cover_notes(tmp_path: Path) -> None:
    index = index_document(_ten_k(tmp_path / "10k.pdf"), "10k", PipelineSettings())
    items = _items(index, fa.FORM_10K)
    assert {k: p for k, (p, _) in items.items()} == {"item1": 3, "item1a": 4, "item5": 5, "item7": 5, "item7a": 6, "item8": 6}
    assert [n.title for n in index.tree.root.nodes if fa.parse_part(n.title)] == ["PART I", "PART II"]
    titles = {n.title for n in index.tree.root.walk()}
    # Wrapped headings are joined while the title stops short; a complete one is not.
    assert "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY, RELATED STOCKHOLDER MATTERS AND ISSUER PURCHASES OF " \
           "EQUITY SECURITIES" in titles
    assert "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL" in titles
    assert "ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA" in titles
    # Boundaries at the heading, not the page: Item 7 ends where Item 7A's heading starts on page 6.
    assert "QUANTITATIVE" not in items["item7"][1] and items["item7"][1].count("The company reported") == 12
    assert items["item7a"][1].startswith("ITEM 7A.") and "ITEM 8." not in items["item7a"][1]
    assert index.decisions["structure"]["filing"]["mode"] == "ordered"
    assert not any("Notes due" in n.title for n in index.tree.root.walk())


def test_ten_q_running_headers_listing_and_missing_part_two_heading(tmp_path: Path) -> None:
    pages = [
        [("FORM 10-Q", 12), ("QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d)", 10)],
        # An index to Part I without page numbers: a listing, not the headings.
        [("INDEX TO PART I", 11), ("Item 1. Financial Statements", 10), ("Item 2. Management's Discussion and Analysis", 10),
         ("Item 3. Quantitative and Qualitative Disclosures About Market Risk", 10), ("Item 4. Controls and Procedures", 10)],
        _page("PART I - FINANCIAL INFORMATION", "ITEM 1. FINANCIAL STATEMENTS"),
        _page("ITEM 1. FINANCIAL STATEMENTS"),  # running header
        _page("ITEM 1. FINANCIAL STATEMENTS") + _page("Item 2. Management's Discussion and Analysis")
        # A line that starts citing an Item ("Item 1 of this Report and ...") is a sentence, however capitalised.
        + [("Item 1 of this Report and Management's Discussion and Analysis of Financial Condition", 10)],
        _page("Item 3. Quantitative and Qualitative Disclosures About Market Risk", "Item 4. Controls and Procedures")
        # No "PART II" line: the Part is inferred at its first Item.
        + _page("Item 1. Legal Proceedings", "Item 1A. Risk Factors", "Item 6. Exhibits"),
    ]
    with PdfSource(sized_lines_pdf(tmp_path / "10q.pdf", pages)) as pdf:
        heads, info = filing_items(pdf.page_count, pdf.text)
    assert info["form"] == fa.FORM_10Q and info["candidates"]["running_headers"] == 2
    got = [(level, page, title) for level, page, _, title in heads]
    assert got == [(1, 3, "PART I - FINANCIAL INFORMATION"), (2, 3, "ITEM 1. FINANCIAL STATEMENTS"),
                   (2, 5, "Item 2. Management's Discussion and Analysis"),
                   (2, 6, "Item 3. Quantitative and Qualitative Disclosures About Market Risk"),
                   (2, 6, "Item 4. Controls and Procedures"), (1, 6, "Part II \u2014 Other Information"),
                   (2, 6, "Item 1. Legal Proceedings"), (2, 6, "Item 1A. Risk Factors"), (2, 6, "Item 6. Exhibits")]


def test_cross_reference_index_maps_items_to_the_reports_pages(tmp_path: Path) -> None:
    report = [_page(title) + [(f"Acme Corporation 2023 Annual Report {n}", 8)]
              for n, title in enumerate(["Business Overview", "Risk Factors", "Management's Discussion and Analysis",
                                         "Financial Statements"], start=1)]
    index_page = [("Form 10-K Cross-Reference Index", 12), ("Item 1", 10), ("Business", 10), ("Page 1", 10),
                  ("Item 1A", 10), ("Risk Factors", 10), ("Page 2", 10), ("Item 7", 10),
                  ("Management's Discussion and Analysis", 10), ("Page 3", 10), ("Item 8", 10),
                  ("Financial Statements and Supplementary Data", 10), ("Page 4", 10), ("Item 9", 10),
                  ("Changes in and Disagreements with Accountants", 10), ("Not applicable", 10)]
    pages = [[("FORM 10-K", 12), ("ACME CORPORATION", 12)]] + report + [index_page]
    with PdfSource(sized_lines_pdf(tmp_path / "xref.pdf", pages)) as pdf:
        heads, info = filing_items(pdf.page_count, pdf.text)
    assert info["mode"] == "cross_reference"
    assert [(level, page, title) for level, page, _, title in heads] == [
        (1, 2, "Item 1 Business"), (1, 3, "Item 1A Risk Factors"), (1, 4, "Item 7 Management's Discussion and Analysis"),
        (1, 5, "Item 8 Financial Statements and Supplementary Data"),
        (1, 6, "Item 9 Changes in and Disagreements with Accountants")]


def test_not_a_filing_is_left_alone(tmp_path: Path) -> None:
    pages = [_page("1 Introduction"), _page("Item 1. Unpack the box", "Item 2. Connect the cable", "Item 3. Power on")]
    with PdfSource(sized_lines_pdf(tmp_path / "manual.pdf", pages)) as pdf:
        assert filing_items(pdf.page_count, pdf.text) == ([], {})


def test_a_contents_in_the_reports_own_order_is_kept() -> None:
    """MD&A before the statements: the form's order cannot be imposed, and the contents names every Item."""
    body = "The company reported results for the period in line with its plan.\n" * 3
    texts = {1: "FORM 10-Q\nQUARTERLY REPORT", 2: "PART I\nItem 2. Management's Discussion and Analysis\n" + body,
             5: "Item 1. Financial Statements\n" + body,
             6: "PART II\nItem 1. Legal Proceedings\n" + body + "Item 1A. Risk Factors\n" + body + "Item 6. Exhibits\n"}
    entries = [Entry(1, "Part I", 2), Entry(2, "Item 1. Financial Statements", 5),
               Entry(2, "Item 2. Management's Discussion and Analysis", 2), Entry(1, "Part II", 6),
               Entry(2, "Item 1. Legal Proceedings", 6), Entry(2, "Item 1A. Risk Factors", 6), Entry(2, "Item 6. Exhibits", 6)]
    got, info = anchor_items(entries, 6, lambda n: texts.get(n, ""))
    assert got == entries and info["mode"] == "contents_order"
    # The same contents in the form's page order is not the filer's own order: the body's headings decide.
    ordered = [Entry(1, "Part I", 2), Entry(2, "Item 1. Financial Statements", 2)] + entries[2:]
    assert anchor_items(ordered, 6, lambda n: texts.get(n, ""))[1]["mode"] == "ordered"


def test_item_lines_under_a_running_part_header_lose_to_the_headings(tmp_path: Path) -> None:
    """Pages headed "PART I" / "ITEM 4. CONTROLS AND PROCEDURES": a header in capitals, not the Item's heading,
    which is set in sentence case on the page before."""
    pages = [
        [("FORM 10-Q", 12)],
        [("PART I", 9), ("ITEM 1. FINANCIAL STATEMENTS", 9)] + BODY,
        [("PART I", 9), ("ITEM 1. FINANCIAL STATEMENTS", 9)] + BODY + _page(
            "Item 2. Management's discussion and analysis", "Item 3. Quantitative and qualitative disclosures",
            "Item 4. Controls and procedures", body=2),
        [("PART I", 9), ("ITEM 4. CONTROLS AND PROCEDURES", 9)] + BODY * 2,
        [("PART II", 9)] + _page("Item 1. Legal proceedings", "Item 1A. Risk factors", "Item 6. Exhibits"),
    ]
    with PdfSource(sized_lines_pdf(tmp_path / "10q.pdf", pages)) as pdf:
        heads, _ = filing_items(pdf.page_count, pdf.text)
    assert [(page, title) for _, page, _, title in heads if fa.parse_item(title)] == [
        (2, "ITEM 1. FINANCIAL STATEMENTS"), (3, "Item 2. Management's discussion and analysis"),
        (3, "Item 3. Quantitative and qualitative disclosures"), (3, "Item 4. Controls and procedures"),
        (5, "Item 1. Legal proceedings"), (5, "Item 1A. Risk factors"), (5, "Item 6. Exhibits")]


def test_cover_lines_read_as_heads_are_one_cover_node(tmp_path: Path) -> None:
    """No contents page: the headings reader took the cover's bold captions and address lines for heads (as it
    does on a cover set in bold throughout). The cover is a form, not sections: those lines become one node, the
    cover page, and the Parts and Items stay."""
    cover = [("UNITED STATES", 12), ("SECURITIES AND EXCHANGE COMMISSION", 12), ("Washington, D.C. 20549", 10),
             ("FORM 10-K", 12), ("Commission File Number 001-00001", 10), ("ACME WIDGETS, INC.", 14),
             ("(Exact name of registrant as specified in its charter)", 10)] + BODY
    pages = [cover, _page("PART I", "ITEM 1. BUSINESS", body=3), _page("ITEM 1A. RISK FACTORS", body=3),
             _page("ITEM 2. PROPERTIES", body=2) + _page("PART II", "ITEM 5. MARKET FOR REGISTRANT'S COMMON EQUITY"),
             _page("ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS", body=3)]
    read = [Entry(1, "Washington, D.C. 20549", 1), Entry(1, "Commission File Number 001-00001", 1),
            Entry(1, "(Exact name of registrant as specified in its charter)", 1), Entry(1, "PART I", 2),
            Entry(2, "ITEM 1. BUSINESS", 2), Entry(2, "ITEM 1A. RISK FACTORS", 3)]
    with PdfSource(sized_lines_pdf(tmp_path / "10k.pdf", pages)) as pdf:
        got, info = anchor_items(read, pdf.page_count, pdf.text)
        assert [(e.level, e.title, e.page) for e in got][:3] == [(1, "Cover Page", 1), (1, "PART I", 2),
                                                                (2, "ITEM 1. BUSINESS", 2)]
        assert [e.title for e in got if e.page == 1] == ["Cover Page"] and info["cover_lines"] == 3
        # A first page that is no SEC cover (an annual report's own cover before the form) keeps its heads.
        pages[0] = [("2025 Annual Report and Form 10-K", 14), ("Washington, D.C. 20549", 10)] + BODY
    with PdfSource(sized_lines_pdf(tmp_path / "wrapped.pdf", pages)) as pdf:
        got, info = anchor_items(read, pdf.page_count, pdf.text)
        assert info["mode"] == "ordered" and "cover_lines" not in info
        assert [e.title for e in got if e.page == 1] == [e.title for e in read if e.page == 1]
