"""Document kind, printed title and catalog description at index time (parsers/describe.py), on PDFs built in code."""

from __future__ import annotations

import json

from index_store.model import Node, Tree
from parsers.describe import cover_facts, describe, fiscal_year, printed_title, release_facts
from parsers.pipeline import PipelineSettings, index_document
from parsers.layout import Line, PageLayout
from tests.pdfs import sized_lines_pdf

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended
Commission file number 1-1234
January 30, 2021
GLOBEX
CORPORATION
(Exact name of registrant as specified in its charter)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class
Trading Symbol(s)
Name of each exchange on which registered
Common stock
GBX
New York Stock Exchange
Indicate by check mark if the registrant is a well-known seasoned issuer."""



def test_a_filing_cover_gives_company_form_period_and_symbols():
    facts = cover_facts([COVER])
    assert facts["form"] == "10-K" and facts["company"] == "GLOBEX CORPORATION"  # name set on two lines
    assert facts["period_end"] == "January 30, 2021" and facts["symbols"] == ["GBX"]  # a two-column cover
    assert facts["fiscal_year"] == 2020  # a year ending in January is named by the year before
    assert fiscal_year("June 30, 2023", "fiscal year") == 2023
    release = "PepsiCo Reports First-Quarter Results. " + "Revenue grew. " * 60 + \
        "See our Form 10-K filed with the Securities and Exchange Commission."
    assert cover_facts([release]) == {}  # named deep in a release's text: not a cover page


def test_a_press_release_names_its_issuer_and_ticker():
    text = "FOR IMMEDIATE RELEASE\nSPRINGFIELD - March 1, 2024 - Initech, Inc. (NYSE: INTC) today announced results."
    facts = release_facts([text, "Consolidated Balance Sheets\nCash 10"])
    assert facts["company"] == "Initech, Inc." and facts["symbols"] == ["INTC"]
    assert release_facts([text]) == {}  # no financial statements: not a financial report


def test_the_printed_title_is_the_type_that_stands_out_on_the_first_pages():
    big = PageLayout(1, 612, 792, lines=[Line("The Widget", 72, 100, 300, 130, size=28),
                                         Line("Reference Manual", 72, 140, 300, 170, size=28),
                                         Line("body text " * 8, 72, 200, 500, 212, size=10)])
    assert printed_title([big]) == "The Widget Reference Manual"
    flat = PageLayout(1, 612, 792, lines=[Line("all body text here", 72, 100, 300, 112, size=10)])
    assert printed_title([flat]) == ""  # nothing set larger than the body: no printed title


def test_index_document_records_kind_title_and_description(tmp_path):
    manual = sized_lines_pdf(tmp_path / "m.pdf", [[("APT User Guide", 30), ("Edition 3", 12), ("body " * 20, 10)],
                                       [("1 Sources", 16), ("How to configure apt sources.list entries.", 10)],
                                       [("2 Pinning", 16), ("Preferences and pin priorities.", 10)],
                                       [("3 Keys", 16), ("Signed repositories and keyrings.", 10)]],
                  toc=[[1, "1 Sources", 2], [1, "2 Pinning", 3], [1, "3 Keys", 4]], title="0000004962-23-000006")
    idx = index_document(manual, "m", PipelineSettings(ocr=False))
    assert idx.tree.extra["doc_kind"] == "manual" and idx.tree.doc_kind == "manual"
    assert idx.tree.title == idx.tree.root.title == "APT User Guide"  # printed, not the metadata id
    assert "Contents: 1 Sources; 2 Pinning; 3 Keys" in idx.tree.description
    stored = Tree.from_dict(json.loads(json.dumps(idx.tree.to_dict())))
    assert (stored.doc_kind, stored.title) == ("manual", "APT User Guide")

    filing = sized_lines_pdf(tmp_path / "f.pdf", [[(line, 10) for line in COVER.splitlines()], [("Item 1. Business", 12)]])
    idx = index_document(filing, "f", PipelineSettings(ocr=False))
    assert idx.tree.doc_kind == "filing"
    assert idx.tree.title == "GLOBEX CORPORATION Form 10-K for the fiscal year ended January 30, 2021"
    assert "FY2020" in idx.tree.description and "GBX" in idx.tree.description
    assert "Indicate by check mark" not in idx.tree.description  # cover boilerplate is no description


def test_kind_without_a_cover_and_old_trees():
    items = Node("0000", "r", 0, 1, 3, nodes=[Node("0001", "Item 1. Business", 1, 1, 1),
                                              Node("0002", "Item 1A. Risk Factors", 1, 2, 2),
                                              Node("0003", "Item 7. Management's Discussion", 1, 3, 3)])
    assert describe(["", "", ""], [], items).doc_kind == "filing"
    loose = Node("0000", "r", 0, 1, 1)
    assert describe(["a short note"], [], loose, fallback_title="note").doc_kind == "other"
    old = Tree("d", "v" * 16, 1, "pages", None, loose)  # written before doc_kind existed
    assert old.doc_kind == "other" and old.title == "r" and old.description == ""


LOGO_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
For the fiscal year ended December 31, 2017
Commission File Number 001-02217
(Exact name of Registrant as specified in its charter)
Delaware
(State or other jurisdiction of incorporation or organization)
58-0628465
(I.R.S. Employer Identification No.)
One Fizzy-Pop Plaza, Atlanta, Georgia
(Address of principal executive offices)"""


def test_a_cover_that_prints_its_name_only_in_a_logo_takes_it_from_the_next_pages():
    pages = [LOGO_COVER, "Table of Contents\nTHE FIZZY-POP COMPANY AND SUBSIDIARIES\nPart I\nItem 1. Business", "Item 1. Business"]
    facts = cover_facts(pages)
    assert facts["company"] == "THE FIZZY-POP COMPANY"  # not "Delaware", its state, nor its address


def test_a_short_name_the_filing_uses_for_its_issuer_is_recorded():
    cover = COVER.replace("GLOBEX\nCORPORATION", "Globular Exchange Corporation")
    body = ["At Globex, card members ... Globex Network volumes grew.", "Globex travel. Global and Exchange rates.",
            "The Globex brand.", "Act of 1934. Act."]
    facts = cover_facts([cover, *body])
    assert facts["aliases"] == ["Globex"]  # Glob(ular) + Ex(change), used on three pages; "Act" is no short name
    assert "Also called: Globex" in describe([cover, *body], [], Node("0000", "x", 0, 1, 5)).description


EVENT_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Date of report (Date of earliest event reported): August 19, 2022
Globex Corporation
(Exact name of registrant as specified in its charter)"""


def test_a_current_report_is_described_by_its_kind_and_the_items_it_reports():
    items = ("Item 5.02. Departure of Directors or Certain Officers; Election of Directors; Appointment of Certain "
             "Officers; Compensatory Arrangements of Certain Officers. On August 19, 2022, the Company issued a press "
             "release announcing that Jane Roe was appointed Chief Executive Officer.\nItem 9.01 Financial Statements "
             "and Exhibits. 99.1 Press release dated August 19, 2022")
    about = describe([EVENT_COVER, items], [], Node("0000", "x", 0, 1, 2))
    assert about.facts["report"] == "current report with a press release"
    assert about.facts["items"][0].startswith("5.02 Departure of Directors") and about.facts["items"][1].startswith("9.01")
    assert "Report: current report with a press release" in about.description
    assert "Appointment of Certain Officers" in about.description  # the event, by its Form 8-K title
    annual = describe([COVER, "Item 1. Business"], [], Node("0000", "x", 0, 1, 2))
    assert annual.facts["report"] == "annual report" and "items" not in annual.facts


def test_a_release_that_reports_results_is_an_earnings_release():
    text = "FOR IMMEDIATE RELEASE\nSPRINGFIELD - Initech, Inc. (NYSE: INTC) today announced results for the fourth quarter."
    statements = "Consolidated Balance Sheets\nCash 10"
    assert describe([text, statements], [], Node("0000", "x", 0, 1, 2)).facts["report"] == "earnings release"
    news = "FOR IMMEDIATE RELEASE\nSPRINGFIELD - Initech, Inc. (NYSE: INTC) opens a plant in Ohio."
    assert describe([news, statements], [], Node("0000", "x", 0, 1, 2)).facts["report"] == "press release"
    headline = PageLayout(1, 612, 792, lines=[Line("Initech reports fiscal 2023 results", 72, 100, 500, 130, size=24),
                                              Line("body text " * 8, 72, 200, 500, 212, size=10)])
    about = describe(["Initech reports fiscal 2023 results\nbody", statements], [headline], Node("0000", "x", 0, 1, 2))
    assert about.facts["report"] == "earnings release" and "Report: earnings release" in about.description
