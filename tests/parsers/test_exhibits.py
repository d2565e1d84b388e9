"""Exhibits of a filing PDF built here (no outline): each exhibit after the signatures is a node of its own; an
Exhibit 13 annual report gets its subtree from its own contents page (its folios restart at 1), a subsidiary's
statements without one from their headings (each statement, the notes one by one), and short exhibits stay
leaves. An exhibit's own numbering ("Note 1", "Section 1.1") never nests into the filing's Items."""

from __future__ import annotations

from pathlib import Path

from parsers.exhibits import add_exhibits, article_children, exhibit_starts, heading_kind, note_heads, section_children
from parsers.pipeline import PipelineSettings, index_document
from parsers.ranges import Entry
from tests.pdfs import sized_lines_pdf

BODY = [("The company reported results for the period in line with its plan and the guidance it gave.", 10)] * 4
CONTENTS = [("Management's Discussion and Analysis", 1), ("Report of Independent Registered Public Accounting Firm", 3),
            ("Consolidated Statements of Operations", 4), ("Consolidated Balance Sheets", 5),
            ("Consolidated Statements of Cash Flows", 6), ("Notes to Consolidated Financial Statements", 7)]


def _filing(path: Path) -> str:
    folio = iter(range(1, 100))
    body = lambda *heads: [(h, 11) for h in heads] + BODY * 3 + [(str(next(folio)), 9)]  # noqa: E731
    front = [("TABLE OF CONTENTS", 12)] + [(f"{item} .......... {n}", 10) for n, item in enumerate(
        ["Item 1. Business", "Item 1A. Risk Factors", "Item 7. Management's Discussion and Analysis",
         "Item 8. Financial Statements and Supplementary Data", "Item 15. Exhibits and Financial Statement Schedules"], 1)]
    pages = [[("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 12), ("FORM 10-K", 12)], front,
             body("PART I", "ITEM 1. BUSINESS"), body("ITEM 1A. RISK FACTORS"), body("PART II", "ITEM 7. MANAGEMENT'S "
             "DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS"),
             body("ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA"), body("PART IV", "ITEM 15. EXHIBITS AND FINANCIAL "
             "STATEMENT SCHEDULES"), body("SIGNATURES")]
    # Exhibit 13: the annual report, with its own contents page and folios from 1 (the 10-K's run to 6).
    pages.append([("Exhibit 13", 11), ("ANNUAL REPORT TO SHAREHOLDERS", 14), ("CONTENTS", 12)]
                 + [(f"{title} .......... {n}", 10) for title, n in CONTENTS])
    report = ["Management's Discussion and Analysis", "Overview", CONTENTS[1][0], CONTENTS[2][0], CONTENTS[3][0],
              CONTENTS[4][0], CONTENTS[5][0], "Debt and Leases"]
    for n, head in enumerate(report, start=1):
        pages.append([("Exhibit 13", 8), (head, 12)] + BODY * 3 + [(str(n), 9)])
    # Exhibit 99.1: a subsidiary's statements without a contents page, the label repeated atop every page.
    statements = [[("INDEPENDENT AUDITORS' REPORT", 12)], [("WIDGET HOLDINGS, LLC", 11), ("CONSOLIDATED BALANCE SHEETS", 12)],
                  [("WIDGET HOLDINGS, LLC", 11), ("CONSOLIDATED STATEMENTS OF OPERATIONS", 12)],
                  [("WIDGET HOLDINGS, LLC", 11), ("CONSOLIDATED STATEMENTS OF CASH FLOWS", 12)],
                  [("WIDGET HOLDINGS, LLC", 11), ("CONSOLIDATED STATEMENTS OF CASH FLOWS (CONTINUED)", 12)],
                  [("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS", 12), ("NOTE 1 - ORGANIZATION", 11)] + BODY
                  + [("NOTE 2 - SIGNIFICANT ACCOUNTING POLICIES", 11)],
                  # A numbered list inside a note restarts at 1: it does not continue the notes.
                  BODY + [("1. The company leases its offices under operating leases.", 10), ("NOTE 3 - DEBT", 11)]
                  + BODY + [("4.", 11), ("Related Party Transactions", 11)]]
    for lines in statements:
        pages.append([("Exhibit 99.1", 8)] + lines + BODY * 2)
    # Exhibit 10.1: a plan whose contents sets its Articles and their sections alike (same indent and size).
    plan = [("Article I Definitions", 1), ("1.1 Account", 1), ("1.2 Beneficiary", 2), ("Article II Payments", 3),
            ("2.1 Timing", 3), ("Article III Administration", 4)]
    pages.append([("Exhibit 10.1", 11), ("EXECUTIVE DEFERRAL PLAN", 14), ("TABLE OF CONTENTS", 12)]
                 + [(f"{title} .......... {n}", 10) for title, n in plan])
    for n, heads in enumerate([["Article I Definitions", "1.1 Account"], ["1.2 Beneficiary"],
                               ["Article II Payments", "2.1 Timing"], ["Article III Administration"]], start=1):
        pages.append([(h, 11) for h in heads] + BODY * 2 + [(f"- {n} -", 9)])
    # Short exhibits: a list of subsidiaries over five pages with no headings, and a certification.
    for n in range(5):
        pages.append(([("Exhibit 21", 11)] if n == 0 else []) + [(f"Widget Subsidiary {n}-{k} LLC   Delaware", 10) for k in range(20)])
    pages.append([("Exhibit 31.1", 11), ("CERTIFICATION", 12)] + BODY)
    return sized_lines_pdf(path, pages)


def _tree(index) -> dict[str, tuple[int, int, int, list[str]]]:
    """Title -> (level, start, end, child titles)."""
    return {n.title: (n.level, n.start_page, n.end_page, [c.title for c in n.nodes]) for n in index.tree.root.walk()}


def test_exhibit_13_subtree_from_its_own_contents_and_statements_from_headings(tmp_path: Path) -> None:
    index = index_document(_filing(tmp_path / "10k.pdf"), "10k", PipelineSettings())
    tree = _tree(index)
    top = [n.title for n in index.tree.root.nodes]
    assert top[-6:] == ["SIGNATURES", "Exhibit 13", "Exhibit 99.1", "Exhibit 10.1", "Exhibit 21", "Exhibit 31.1"]
    # The contents' printed pages 1..7 map to the exhibit's pages (its own offset, not the 10-K's).
    level, start, end, kids = tree["Exhibit 13"]
    assert (level, start, end) == (1, 9, 17) and kids == [title for title, _ in CONTENTS]
    assert [tree[t][1] for t in kids] == [10, 12, 13, 14, 15, 16]
    level, start, end, kids = tree["Exhibit 99.1"]
    assert (start, end) == (18, 24)
    assert kids == ["INDEPENDENT AUDITORS' REPORT", "CONSOLIDATED BALANCE SHEETS", "CONSOLIDATED STATEMENTS OF OPERATIONS",
                    "CONSOLIDATED STATEMENTS OF CASH FLOWS", "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS"]
    assert tree["CONSOLIDATED STATEMENTS OF CASH FLOWS"][1:3] == (21, 22)  # "(continued)" is the same statement
    assert tree["NOTES TO CONSOLIDATED FINANCIAL STATEMENTS"][3] == [
        "NOTE 1 - ORGANIZATION", "NOTE 2 - SIGNIFICANT ACCOUNTING POLICIES", "NOTE 3 - DEBT",
        "4. Related Party Transactions"]
    assert tree["Exhibit 21"][3] == [] and tree["Exhibit 21"][1:3] == (30, 34)
    assert tree["Exhibit 31.1"][3] == []
    assert tree["Exhibit 10.1"][1:] == (25, 29, ["Article I Definitions", "Article II Payments", "Article III Administration"])
    assert tree["Article I Definitions"][1:] == (26, 27, ["1.1 Account", "1.2 Beneficiary"])
    info = index.decisions["structure"]["exhibits"]
    assert [(s["exhibit"], s["from"]) for s in info["subtrees"]] == [("Exhibit 13", "contents"), ("Exhibit 99.1", "headings"), ("Exhibit 10.1", "contents")]
    # No exhibit heading nests into the Items.
    items = [n for part in index.tree.root.nodes for n in part.nodes if n.title.startswith("ITEM")]
    assert all(not n.nodes for n in items)


def test_statement_headings_by_their_regulation_names() -> None:
    assert heading_kind("Consolidated Statements of Comprehensive Income (Loss)") == "comprehensive"
    assert heading_kind("CONSOLIDATED STATEMENTS OF OPERATIONS AND COMPREHENSIVE INCOME") == "income"
    assert heading_kind("Consolidated Statements of Financial Position") == "balance"
    assert heading_kind("Consolidated Statements of Changes in Shareholders\u2019 Equity") == "equity"
    assert heading_kind("CONSOLIDATED STATEMENTS OF MEMBERS' EQUITY") == "equity"
    assert heading_kind("I NDEPENDENT AUDITORS\u2019 REPORT") == "auditor"  # letter-spaced as extracted
    assert heading_kind("Report of Independent Registered Public Accounting Firm") == "auditor"
    assert heading_kind("The consolidated balance sheets present fairly, in all material respects") is None


def test_a_running_exhibit_label_continues_its_exhibit() -> None:
    texts = {1: "Exhibit 99.3\nINDEX", 2: "Exhibit 99.3\nBALANCE SHEETS", 3: "Table of Contents\nEXHIBIT 21\nSubsidiaries",
             4: "Exhibit 10.1 of the credit agreement is incorporated by reference."}
    assert exhibit_starts(1, 4, lambda n: texts.get(n, "")) == [(1, "Exhibit 99.3"), (3, "EXHIBIT 21")]


def test_notes_are_numbered_on_from_one() -> None:
    texts = {1: "Notes to Financial Statements\n1. Basis of Presentation\ntext\n2. Revenue\n1. The first item of a list.",
             2: "3. Income Taxes\n1. Inventories\n5. Leases\n9. Segment Information"}
    assert note_heads(1, 2, lambda n: texts[n]) == [(1, "1. Basis of Presentation"), (1, "2. Revenue"),
                                                   (2, "3. Income Taxes"), (2, "5. Leases")]


def test_short_exhibits_alone_leave_the_outline_as_it_was() -> None:
    """Filers' outlines rarely list exhibits: without a long exhibit of some structure, none is added."""
    texts = {1: "FORM 10-K", 2: "Item 15. Exhibits", 3: "SIGNATURES", 4: "Exhibit 23\nConsent",
             5: "Exhibit 21\nSubsidiaries", **{n: "Widget Subsidiary LLC Delaware" for n in range(6, 12)},
             12: "Exhibit 31.1\nCertification"}
    entries = [Entry(1, "Part IV", 2), Entry(2, "Item 15. Exhibits", 2), Entry(1, "SIGNATURES", 3)]
    got, info = add_exhibits(entries, 12, lambda n: texts.get(n, ""), lambda n: None, [None] * 12)
    assert got == entries and info == {"exhibits": 3, "added": 0, "subtrees": []}


def test_articles_of_a_plan_without_contents_numbered_on_from_one() -> None:
    texts = {1: "ARTICLE I.\nAWARD; VESTING\nSee Article III of the Plan for the terms.",
             2: "ARTICLE II\nDefinitions\nArticle IV Other Matters", 3: "ARTICLE III. MISCELLANEOUS"}
    assert [(e.page, e.title) for e in article_children(1, 3, lambda n: texts[n])] == [
        (1, "ARTICLE I. AWARD; VESTING"), (2, "ARTICLE II Definitions"), (3, "ARTICLE III. MISCELLANEOUS")]


def test_numbered_sections_of_an_award_run_into_their_text() -> None:
    texts = {1: "EXHIBIT A\nSTOCK OPTION AWARD TERMS\n1.\nDefinitions.\na.\nFor purposes of these Award Terms:",
             2: "2.    Expiration. The Stock Option shall expire on the Expiration Date.\n"
                "1. The first item of a list restarts at one.\n3.    Vesting and Exercise.\n(a) text",
             3: "5.    Skipped Number. A jump is a list, not the next section.\n4.    Tax Withholding. The Company shall withhold.\n"
                "5. the holder agrees: a sentence, not a title."}
    assert [(e.page, e.title) for e in section_children(1, 3, lambda n: texts[n])] == [
        (1, "1. Definitions"), (2, "2. Expiration"), (2, "3. Vesting and Exercise"), (3, "4. Tax Withholding")]
