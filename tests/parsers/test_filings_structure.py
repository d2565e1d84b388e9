"""A 10-K built here: Part/Item TOC with printed page numbers, a financial-statements index inside
Item 8, signature and exhibit pages after the last Item. Expected pages come from the construction."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.filings import back_matter, is_filing, merge_in_page_order, missing_items, statement_title
from parsers.pdf import PdfSource
from parsers.ranges import Entry, build_tree
from parsers.structure import recover_structure, split_long_leaves

W, H = 612, 792
OFFSET = 2  # printed page n is physical page n + 2 (cover and TOC are unnumbered)
BODY = "The company reported results for the fiscal year in line with the plan and the guidance it gave. " * 6


def _dots(page: pymupdf.Page, y: float, title: str, number: str, x0: float = 72) -> None:
    page.insert_text((x0, y), title, fontsize=10)
    nw = pymupdf.get_text_length(number, fontsize=10)
    page.insert_text((W - 72 - nw, y), number, fontsize=10)
    start = x0 + pymupdf.get_text_length(title, fontsize=10) + 6
    n = int((W - 72 - nw - 6 - start) / pymupdf.get_text_length(". ", fontsize=10))
    page.insert_text((start, y), ". " * n, fontsize=10)


def _body_page(doc: pymupdf.Document, heading: str | None, folio: int | None, size: float = 12) -> None:
    page = doc.new_page(width=W, height=H)
    if heading:
        page.insert_text((72, 90), heading, fontname="hebo", fontsize=size)
    page.insert_textbox(pymupdf.Rect(72, 120, W - 72, 400), BODY, fontsize=10)
    if folio is not None:
        page.insert_text((W / 2, H - 40), str(folio), fontsize=9)


# physical page -> heading printed at its top (None: a continuation page)
ITEMS = {3: "PART I", 4: "Item 1. Business", 6: "Item 1A. Risk Factors", 9: "PART II",
         10: "Item 7. Management's Discussion and Analysis", 13: "Item 8. Financial Statements and Supplementary Data",
         24: "PART IV", 25: "Item 15. Exhibits and Financial Statement Schedules"}
STATEMENTS = {14: "Consolidated Balance Sheets", 15: "Consolidated Statements of Income",
              16: "Consolidated Statements of Cash Flows", 17: "Notes to Consolidated Financial Statements"}
NOTES = {17: "Note 1. Summary of Significant Accounting Policies", 20: "Note 2. Income Taxes"}
BACK = {26: "SIGNATURES", 27: "Exhibit 31.1", 28: "Exhibit 32"}
PAGES = 28


def _ten_k(path: Path) -> Path:
    doc = pymupdf.open()
    cover = doc.new_page(width=W, height=H)
    cover.insert_text((72, 120), "UNITED STATES SECURITIES AND EXCHANGE COMMISSION", fontname="hebo", fontsize=14)
    cover.insert_text((72, 150), "FORM 10-K", fontname="hebo", fontsize=14)
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 80), "TABLE OF CONTENTS", fontname="hebo", fontsize=14)
    y = 120
    for phys, title in ITEMS.items():
        if title.startswith("PART"):
            toc.insert_text((72, y), title, fontname="hebo", fontsize=10)
        else:
            _dots(toc, y, title, str(phys - OFFSET), 90)
        y += 18
    for n in range(3, PAGES + 1):
        folio = n - OFFSET if n < 26 else None  # exhibits carry no folio of the report
        if n == 13:
            page = doc.new_page(width=W, height=H)
            page.insert_text((72, 90), ITEMS[13], fontname="hebo", fontsize=12)
            page.insert_text((72, 115), "INDEX TO CONSOLIDATED FINANCIAL STATEMENTS", fontname="hebo", fontsize=10)
            for k, (phys, title) in enumerate(STATEMENTS.items()):
                _dots(page, 150 + 18 * k, title, str(phys - OFFSET))
            page.insert_text((W / 2, H - 40), str(folio), fontsize=9)
            continue
        heading = ITEMS.get(n) or STATEMENTS.get(n) or BACK.get(n)
        _body_page(doc, heading, folio)
        if n in NOTES:
            doc[-1].insert_text((72, 420), NOTES[n], fontname="hebo", fontsize=10)
    doc.save(path)
    return path


def test_ten_k_items_statements_index_and_back_matter(tmp_path: Path) -> None:
    with PdfSource(_ten_k(tmp_path / "10k.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=10)
        root = build_tree(result.entries, pdf.page_count, "10-K")
    assert result.source == "toc"
    got = [(n.level, n.title, n.start_page) for n in root.walk()][1:]
    want_items = [(1 if t.startswith("PART") else 2, t, p) for p, t in ITEMS.items()]
    assert [g for g in got if g[1] in ITEMS.values()] == want_items
    # Item 8's own index gives its children, on their physical pages.
    item8 = next(n for n in root.walk() if n.title.startswith("Item 8"))
    assert [(c.title, c.start_page) for c in item8.nodes] == [(t, p) for p, t in STATEMENTS.items()]
    # Signature and exhibit pages after the last Item are top-level sections.
    assert [(n.title, n.start_page) for n in root.nodes[-3:]] == [(t, p) for p, t in BACK.items()]
    assert (root.nodes[0].title, root.nodes[0].start_page) == ("TABLE OF CONTENTS", 2)  # a filing's contents is a section
    assert result.decisions["toc"]["inner"][0]["page"] == 13
    assert result.decisions["toc"]["back_matter"] == 3
    assert not any(e.kind for e in result.entries)  # nothing made up: no leaf is outsized for a fine-grained TOC


def test_back_matter_needs_a_filing_and_a_page_top_name() -> None:
    entries = [Entry(1, "Item 1. Business", 1), Entry(1, "Item 2. Properties", 2), Entry(1, "Item 3. Legal", 3)]
    texts = {4: "12\nSIGNATURES\nPursuant to the requirements", 5: "Exhibit 31.1\nCERTIFICATION",
             6: "As described in Exhibit 32 below\nthe officers certify", 7: "Table of Contents\nExhibit 32\n"}
    assert is_filing(entries) and not is_filing([Entry(1, "1 Introduction", 1), Entry(1, "2 Usage", 2)])
    got = back_matter(entries, 7, lambda n: texts.get(n, ""))
    assert got == [Entry(1, "SIGNATURES", 4), Entry(1, "Exhibit 31.1", 5), Entry(1, "Exhibit 32", 7)]


def test_note_headings_split_an_outsized_statements_leaf(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for n in range(1, 46):
        _body_page(doc, "Notes to Financial Statements" if n == 1 else None, n)
        if n in (1, 16, 31):
            doc[-1].insert_text((72, 420), f"NOTE {n // 15 + 1}. {['LEASES', 'DEBT', 'INCOME TAXES'][n // 15]}",
                                fontname="hebo", fontsize=10)
    doc.save(tmp_path / "notes.pdf")
    with PdfSource(tmp_path / "notes.pdf") as pdf:
        entries, info = split_long_leaves([Entry(1, "Notes to Financial Statements", 1)], pdf, 10, True, 4)
    assert info["by_headings"] == 1
    assert [(e.title, e.page) for e in entries[1:]] == [("NOTE 1. LEASES", 1), ("NOTE 2. DEBT", 16), ("NOTE 3. INCOME TAXES", 31)]


def test_statement_titles_drop_the_period_they_cover() -> None:
    cases = {
        "Consolidated statements of income (unaudited) for the three and six months ended June 30, 2022 and 2021":
            "Consolidated statements of income",
        "Consolidated balance sheets (unaudited) at June 30, 2022 and December 31, 2021": "Consolidated balance sheets",
        "Consolidated Statements of Cash Flows for the years ended December 31, 2022, 2021 and 2020":
            "Consolidated Statements of Cash Flows",
        "Consolidated Balance Sheets as of December 31, 2022 and 2021": "Consolidated Balance Sheets",
        "Notes to Consolidated Financial Statements (unaudited)": "Notes to Consolidated Financial Statements (unaudited)",
        "Item 7. Management's Discussion and Analysis for the years ended 2022": "Item 7. Management's Discussion and Analysis for the years ended 2022",
    }
    assert {t: statement_title(t) for t in cases} == cases


def test_items_headed_in_the_body_but_missing_from_the_toc() -> None:
    entries = [Entry(1, "PART I", 1), Entry(2, "Item 1. Business", 1), Entry(2, "Item 7A. Market Risk", 3),
               Entry(1, "PART IV", 5), Entry(2, "Item 15. Exhibits", 5)]
    texts = {2: "the risks described in\nItem 7. of this report are material.\nITEM 1A. RISK FACTORS\nOur business",
             4: "Item 8. Financial Statements and Supplementary Data\nThe statements", 6: "ITEM 16. FORM 10-K SUMMARY\nNone."}
    found = missing_items(entries, 6, lambda n: texts.get(n, ""))
    assert found == [Entry(2, "ITEM 1A. RISK FACTORS", 2), Entry(2, "Item 8. Financial Statements and Supplementary Data", 4),
                     Entry(2, "ITEM 16. FORM 10-K SUMMARY", 6)]
    merged = merge_in_page_order(entries, found)
    assert [(e.title[:9], e.page) for e in merged] == [("PART I", 1), ("Item 1. B", 1), ("ITEM 1A. ", 2), ("Item 7A. ", 3),
                                                      ("Item 8. F", 4), ("PART IV", 5), ("Item 15. ", 5), ("ITEM 16. ", 6)]


def test_certification_exhibits_belong_to_a_listed_certifications_entry() -> None:
    texts = {4: "Exhibit 23\nConsent", 5: "EXHIBIT 31.1\nI certify", 6: "EXHIBIT 32\nCertification", 7: "Exhibit 99\nPress"}
    items = [Entry(1, "Item 1. Business", 1), Entry(1, "Item 2. Properties", 2), Entry(1, "Item 3. Legal", 2)]
    plain = back_matter(items + [Entry(1, "Signatures", 3)], 7, lambda n: texts.get(n, ""))
    assert [e.title for e in plain] == ["Exhibit 23", "EXHIBIT 31.1", "EXHIBIT 32", "Exhibit 99"]
    certified = back_matter(items + [Entry(1, "Certifications", 3)], 7, lambda n: texts.get(n, ""))
    assert [e.title for e in certified] == ["Exhibit 23", "Exhibit 99"]
