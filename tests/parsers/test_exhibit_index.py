"""Exhibits whose first page names no "Exhibit N" (a plan opening with its own title block) are found from the
filing's exhibit index: the rows filed with the report, matched against the title block that opens a page. A row
incorporated by reference is never attached, and a plan's title block repeated after its own contents page
continues the plan."""

from __future__ import annotations

from pathlib import Path

from parsers.exhibit_index import index_rows, unlabelled_starts
from parsers.pipeline import PipelineSettings, index_document
from tests.pdfs import sized_lines_pdf

BODY = [("The Company reported results for the period in line with its plan and the guidance it gave.", 10)] * 4
INDEX = ["Exhibit Index",
         "The following exhibits are filed as part of this Form 10-K or are incorporated herein by reference.",
         "3(a)", "Restated Certificate of Incorporation of the Company is incorporated herein by reference to Exhibit",
         "3.1 to the Report on Form 8-K that the Company filed on February 1, 2018",
         "10(a)*", "Acme Corp. Officer Deferred Compensation Plan, as amended effective February 1, 2018",
         "10(b)", "Acme Corp. Director Stock Plan is incorporated by reference to Exhibit 10(c) to the Annual Report",
         "10(c)*", "Acme Corp. Management Incentive Plan, as amended effective February 1, 2018",
         "10(d)", "Acme Corp. Excess Benefit Plan, as amended (Exhibit 10.2 to the Company's Form 10-Q for the quarter",
         "ended March 31, 2020)",
         "21*", "List of the Company's Significant Subsidiaries", "91"]


def _filing(path: Path) -> str:
    body = lambda *heads: [(h, 11) for h in heads] + BODY * 3  # noqa: E731
    pages = [[("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", 12), ("FORM 10-K", 12)],
             body("PART I", "ITEM 1. BUSINESS"), body("ITEM 1A. RISK FACTORS"),
             body("PART II", "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS"),
             body("PART IV", "ITEM 15. EXHIBITS, FINANCIAL STATEMENT SCHEDULES"), body("SIGNATURES"),
             [(line, 9) for line in INDEX]]
    # 10(a): a title block, its own contents page, the title block again over Article I, no exhibit label.
    pages.append([("ACME CORP.", 14), ("OFFICER DEFERRED COMPENSATION PLAN", 14),
                  ("Amended and Restated Effective February 1, 2018", 11)])
    articles = [("ARTICLE I. GENERAL", 1), ("ARTICLE II. DEFINITIONS", 2), ("ARTICLE III. ACCOUNTS", 3), ("ARTICLE IV. PAYMENTS", 4)]
    pages.append([("TABLE OF CONTENTS", 12)] + [(f"{t} .......... {n}", 10) for t, n in articles])
    for n, (title, _) in enumerate(articles, start=1):
        pages.append(([("ACME CORP.", 12), ("OFFICER DEFERRED COMPENSATION PLAN", 12)] if n == 1 else [])
                     + [(title, 11)] + BODY * 3 + [(str(n), 9)])
    # 10(c) without label or contents; the plan 10(b) incorporated by reference is named on a page, not attached.
    pages.append([("ACME CORP.", 14), ("MANAGEMENT INCENTIVE PLAN", 14), ("(As amended effective February 1, 2018)", 11)]
                 + BODY * 3 + [("1", 9)])
    for n in range(2, 7):
        pages.append([("Acme Corp. Director Stock Plan", 11)] + BODY * 3 + [(str(n), 9)])
    pages.append([("Exhibit 21", 11), ("SIGNIFICANT SUBSIDIARIES", 12), ("Widget LLC   Delaware", 10)])
    return sized_lines_pdf(path, pages)


def test_index_rows_filed_with_the_report() -> None:
    texts = {1: "\n".join(INDEX), 2: "ACME CORP.\nPLAN"}
    rows, last = index_rows(1, 2, lambda n: texts[n])
    assert last == 1 and [(r.number, r.title) for r in rows] == [
        ("10(a)", "Acme Corp. Officer Deferred Compensation Plan, as amended effective February 1, 2018"),
        ("10(c)", "Acme Corp. Management Incentive Plan, as amended effective February 1, 2018"),
        ("21", "List of the Company's Significant Subsidiaries")]
    # Words every title shares ("Acme", "plan", "amended effective") do not pick an exhibit; a title block does.
    pages = {5: "ACME CORP.\nMANAGEMENT INCENTIVE PLAN\n(As amended effective February 1, 2018)",
             3: "ACME CORP.\nAmended effective February 1, 2018",
             # Another plan of the filer's (its name not the title's in full): not the Management Incentive Plan.
             2: "ACME CORP.\nDIRECTOR INCENTIVE PLAN\n(As amended effective February 1, 2018)",
             4: "8.5 No Right to Bonus.\nNothing herein confers upon the Participant a right to the Acme Corp. Officer "
                "Deferred Compensation Plan and its awards."}
    assert unlabelled_starts(rows, 2, 5, lambda n: pages[n], {"21"}) == [
        (5, "Exhibit 10(c) Acme Corp. Management Incentive Plan, as amended effective February 1, 2018")]


def test_unlabelled_exhibits_get_their_own_subtree(tmp_path: Path) -> None:
    index = index_document(_filing(tmp_path / "10k.pdf"), "10k", PipelineSettings())
    top = [(n.title, n.start_page, n.end_page) for n in index.tree.root.nodes]
    a = "Exhibit 10(a) Acme Corp. Officer Deferred Compensation Plan, as amended effective February 1, 2018"
    c = "Exhibit 10(c) Acme Corp. Management Incentive Plan, as amended effective February 1, 2018"
    assert top[-3:] == [(a, 8, 13), (c, 14, 19), ("Exhibit 21", 20, 20)]
    plan = index.tree.root.nodes[-3]
    assert [(n.title, n.start_page) for n in plan.nodes] == [
        ("ARTICLE I. GENERAL", 10), ("ARTICLE II. DEFINITIONS", 11), ("ARTICLE III. ACCOUNTS", 12), ("ARTICLE IV. PAYMENTS", 13)]
    assert index.decisions["structure"]["exhibits"]["from_index"] == 2
