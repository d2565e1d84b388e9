"""A 10-K whose financial statements are printed after its signature pages, opened by an "Index to Financial
Statements" page (Item 8 points at it): built here as a browser prints it (no outline, no contents page read).
The signatures close the Items, and the index gives the statements' section its children, each checked on its
page; the notes nest under their "Notes to ..." row and the heads found inside under their note."""

from __future__ import annotations

from pathlib import Path

from parsers import statements_index as si
from parsers.pipeline import PipelineSettings, index_document
from tests.pdfs import sized_lines_pdf

BODY = [("The company reported results for the period in line with its plan and the guidance it gave.", 10)] * 4
LISTED = [("Report of Independent Registered Public Accounting Firm (PCAOB ID 238)", 8),
          ("Consolidated Statements of Income", 9), ("Consolidated Balance Sheets", 10)]
NOTES = [("Summary of Significant Accounting Policies", 11), ("Revenue", 12), ("Debt", 13)]


def _page(*heads: str, body: int = 1) -> list[tuple[str, float]]:
    out: list[tuple[str, float]] = []
    for h in heads:
        out += [(h, 12)] + BODY * body
    return out


def _index_page() -> list[tuple[str, float]]:
    rows: list[tuple[str, float]] = [("Table of Contents", 8), ("Acme Corporation", 10), ("2021 Annual Report", 10),
                                     ("Index to Financial Statements", 12), ("Page", 9)]
    for title, page in LISTED:
        rows += [(title, 10), (str(page), 10)]
    rows.append(("Notes to Consolidated Financial Statements", 10))
    for n, (title, page) in enumerate(NOTES, 1):
        rows += [(f"{n}.", 10), (title, 10), (str(page), 10)]
    return rows


def _ten_k(path: Path, with_index: bool = True) -> str:
    cover = [("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 12), ("Washington, D.C. 20549", 10),
             ("FORM 10-K", 12)] + BODY
    pages = [
        cover,
        _page("PART I", "Item 1. Business", body=3),
        _page("Item 1A. Risk Factors", body=3),
        _page("PART II", "Item 7. Management's Discussion and Analysis of Financial Condition", body=2),
        _page("Item 8. Financial Statements and Supplementary Data", body=1)
        + [("The financial statements are listed in the Index to Financial Statements.", 10)],
        _page("PART IV", "Item 15. Exhibits and Financial Statement Schedules", "Item 16. Form 10-K Summary"),
        [("Table of Contents", 8), ("Signatures", 12)] + BODY + [("Power of Attorney", 12)] + BODY,
        _index_page() if with_index else BODY * 3,
        [("Table of Contents", 8), ("Report of Independent Registered Public Accounting Firm", 12)] + BODY
        + [("Opinion on the Financial Statements", 11)] + BODY + [("Critical Audit Matters", 11)] + BODY,
        [("Consolidated Statements of Income", 11), ("Acme Corporation and Subsidiary Companies", 10)] + BODY * 3,
        [("Consolidated Balance Sheets", 11), ("Acme Corporation and Subsidiary Companies", 10)] + BODY * 2
        + [("Assets", 11)] + BODY + [("Liabilities and Equity", 11)] + BODY,
        [("Acme Corporation and Subsidiary Companies", 10), ("Notes to Consolidated Financial Statements", 10),
         ("1.  Summary of Significant Accounting Policies", 12)] + BODY + [("Use of Estimates", 11)] + BODY
        + [("Revenue Recognition", 11)] + BODY,
        [("2.  Revenue", 12)] + BODY + [("Contract Assets", 11)] + BODY,
        [("3.  Debt", 12)] + BODY + [("Debt Issuances", 11)] + BODY,
        # An exhibit attached after the statements: the last note ends before it.
        [("Exhibit 10.1", 10), ("ACME CORPORATION DEFERRED COMPENSATION PLAN", 12)] + BODY + [("Eligibility", 11)] + BODY,
        BODY * 2 + [("Administration", 11)] + BODY,
    ]
    return sized_lines_pdf(path, pages)


def _paths(index) -> dict[str, tuple[int, str]]:
    out = {}

    def walk(node, path):
        for kid in node.nodes:
            out[kid.title] = (kid.start_page, " > ".join([*path, kid.title]))
            walk(kid, [*path, kid.title])
    walk(index.tree.root, [])
    return out


def test_statements_after_the_signatures_get_their_own_section(tmp_path: Path) -> None:
    index = index_document(_ten_k(tmp_path / "10k.pdf"), "10k", PipelineSettings())
    paths = _paths(index)
    assert paths["Signatures"] == (7, "Signatures")
    assert paths["Power of Attorney"] == (7, "Signatures > Power of Attorney")
    assert paths["Financial Statements"] == (8, "Financial Statements")
    # The listed rows are children, each on the page the listing gives; the report's "(PCAOB ID 238)" is the
    # listing's, not the head's.
    fs = "Financial Statements > "
    assert paths["Report of Independent Registered Public Accounting Firm"] == (
        9, fs + "Report of Independent Registered Public Accounting Firm")
    assert paths["Consolidated Statements of Income"] == (10, fs + "Consolidated Statements of Income")
    assert paths["Consolidated Balance Sheets"] == (11, fs + "Consolidated Balance Sheets")
    notes = fs + "Notes to Consolidated Financial Statements > "
    assert paths["1. Summary of Significant Accounting Policies"] == (
        12, notes + "1. Summary of Significant Accounting Policies")
    assert paths["2. Revenue"] == (13, notes + "2. Revenue")
    assert paths["3. Debt"] == (14, notes + "3. Debt")
    # Heads found in the body nest under the statement or note they fall in.
    assert paths["Use of Estimates"][1] == notes + "1. Summary of Significant Accounting Policies > Use of Estimates"
    assert paths["Debt Issuances"][1] == notes + "3. Debt > Debt Issuances"
    assert paths["Liabilities and Equity"][1] == fs + "Consolidated Balance Sheets > Liabilities and Equity"
    # The last Item ends where the signatures begin, instead of running over the statements.
    item16 = next(n for n in index.tree.root.walk() if n.title.startswith("Item 16"))
    assert item16.end_page == 6
    # The exhibit after the statements is a section of its own, its heads under it, not under the last note.
    assert paths["3. Debt"] == (14, notes + "3. Debt")
    debt = next(n for n in index.tree.root.walk() if n.title == "3. Debt")
    assert debt.end_page == 14
    assert paths["Exhibit 10.1"] == (15, "Exhibit 10.1")
    assert paths["Administration"][1].startswith("Exhibit 10.1 > ")
    assert index.decisions["structure"]["filing"]["statements"]["located"] == 7  # 3 statements, the notes row, 3 notes


def test_without_an_index_the_tail_is_left_as_it_was(tmp_path: Path) -> None:
    index = index_document(_ten_k(tmp_path / "10k.pdf", with_index=False), "10k", PipelineSettings())
    assert "statements" not in index.decisions["structure"]["filing"]
    assert "Financial Statements" not in _paths(index)


def test_index_rows_title_and_page_on_one_line_or_two() -> None:
    page = "\n".join(["12", "Index to Consolidated Financial Statements and Schedule", "Page",
                      "Report of Independent Registered Public Accounting Firm . . . . F-2",
                      "Consolidated Statements of Operations", "F-4",
                      "Notes to Consolidated Financial Statements", "F-8",
                      "Note 1", "Organization", "F-8", "Schedule II - Valuation and Qualifying Accounts F-40"])
    assert si.index_title(page) == "Consolidated Financial Statements and Schedule"
    assert si.listed_rows(page) == [
        ("Report of Independent Registered Public Accounting Firm", 2, False),
        ("Consolidated Statements of Operations", 4, False),
        ("Notes to Consolidated Financial Statements", 8, False),
        ("1. Organization", 8, True),
        ("Schedule II - Valuation and Qualifying Accounts", 40, False),
    ]
    assert si.index_title("Index to Exhibits\nExhibit 21") is None
