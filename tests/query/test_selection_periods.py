"""Catalog selection among several reports of one company: the period and the short name decide (query/periods.py,
query/names.py), on filings built as PDFs and indexed by the real pipeline under opaque ids."""

from __future__ import annotations

import pytest

from query.search import select_documents
from tests.pdfs import sized_lines_pdf
from tests.query.conftest import publish

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM {form}
{kind} REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the {period} ended {end}
{company}
(Exact name of registrant as specified in its charter)
Indicate by check mark if the registrant is a well-known seasoned issuer. Yes No"""

REPORTS = [  # doc id (sorted: the wrong answer first when scores tie), company, form, period end
    ("a-0001", "GLOBEX CORPORATION", "10-K", "December 31, 2020"),
    ("a-0002", "GLOBEX CORPORATION", "10-K", "December 31, 2021"),
    ("a-0003", "GLOBEX CORPORATION", "10-Q", "June 30, 2022"),
    ("a-0004", "ADVANCED WIDGET DEVICES, INC.", "10-K", "December 31, 2021"),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    folder = tmp_path_factory.mktemp("periods")
    uri = str(folder / "store")
    for doc_id, company, form, end in REPORTS:
        annual = form == "10-K"
        cover = COVER.format(form=form, kind="ANNUAL" if annual else "QUARTERLY", end=end, company=company,
                             period="fiscal year" if annual else "quarterly period")
        pdf = sized_lines_pdf(folder / f"{doc_id}.pdf", [
            [(line, 10) for line in cover.splitlines()],
            [("Item 7. Management's Discussion and Analysis", 12), ("Revenue and operating income grew.", 10)],
            [("Item 8. Financial Statements", 12), ("Consolidated Balance Sheets", 10)]],
            toc=[[1, "Item 7. Management's Discussion and Analysis", 2], [1, "Item 8. Financial Statements", 3]],
            title="0000004962-23-000006")
        publish(uri, pdf, doc_id)
    return uri


def first(store: str, question: str) -> str:
    return select_documents(store, question, max_docs=3)[0][0][0]


def test_the_latest_year_named_is_the_report_asked_for(store):
    # Both 10-Ks print both years' figures and both years are named: the report of the later one is asked for.
    assert first(store, "From FY2020 to FY2021, how did Globex's operating income change?") == "a-0002"
    assert first(store, "What was Globex's operating income in fiscal 2020?") == "a-0001"


def test_a_quarter_asks_for_the_quarterly_report(store):
    assert first(store, "What was Globex's revenue in Q2 2022?") == "a-0003"
    assert first(store, "Was Globex's revenue higher in the second quarter of 2022?") == "a-0003"


def test_a_short_name_made_from_the_printed_one_finds_the_issuer(store):
    assert first(store, "What was AWD's revenue in FY2021?") == "a-0004"


EVENT_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 8-K
CURRENT REPORT
Date of report (Date of earliest event reported): {date}
GLOBEX CORPORATION
(Exact name of registrant as specified in its charter)"""
STATEMENTS = [("Consolidated Balance Sheets", 12), ("Cash 10. Adjusted EBITDA is reconciled below.", 10)]


@pytest.fixture(scope="module")
def kinds(tmp_path_factory) -> str:
    """One company's 10-K, earnings release and two 8-Ks, ids sorted so that a tie picks the wrong one."""
    folder = tmp_path_factory.mktemp("kinds")
    uri = str(folder / "store")
    vote = [[(ln, 10) for ln in EVENT_COVER.format(date="May 20, 2022").splitlines()],
            [("Item 5.07 Submission of Matters to a Vote of Security Holders.", 10),
             ("The shareholders elected each nominee; votes for and against each nominee are listed below.", 10)]]
    officer = [[(ln, 10) for ln in EVENT_COVER.format(date="August 19, 2022").splitlines()],
               [("Item 5.02 Departure of Directors or Certain Officers.", 10),
                ("Jane Roe was appointed President and CEO. She was previously the CEO of Initech, a retailer.", 10)]]
    annual = [[(ln, 10) for ln in COVER.format(form="10-K", kind="ANNUAL", end="December 31, 2022",
                                               company="GLOBEX CORPORATION", period="fiscal year").splitlines()],
              [("Item 7. Management's Discussion and Analysis", 12), ("Adjusted EBITDA grew in 2022.", 10)], STATEMENTS]
    release = [[("Globex Reports Fourth Quarter and Full Year 2022 Results", 20),
                ("SPRINGFIELD - Globex Corporation (NYSE: GBX) today announced results for the full year 2022.", 10)],
               [("Adjusted EBITDA grew in 2022.", 10)], STATEMENTS, STATEMENTS]
    for doc_id, pages in (("b-0001", vote), ("b-0002", officer), ("b-0003", annual), ("b-0004", release)):
        publish(uri, sized_lines_pdf(folder / f"{doc_id}.pdf", pages, title="0000004962-23-000006"), doc_id)
    return uri


def test_a_question_that_asks_for_what_a_release_gives_picks_the_release(kinds):
    question = "What was Globex's adjusted EBITDA in FY2022?"
    assert first(kinds, question) == "b-0004"
    assert select_documents(kinds, question, settings={"release_miss": 1.0})[0][0][0] == "b-0003"  # kind ignored: a tie
    assert first(kinds, "What was Globex's operating income in FY2022?") == "b-0003"  # no release asked: the 10-K


def test_a_companys_close_candidates_are_told_apart_by_their_own_text(kinds):
    question = "In Globex's 8-K, does its new CEO have previous CEO experience?"  # which 8-K: no date named
    assert first(kinds, question) == "b-0002"  # the one that appoints a CEO; neither catalog entry says "CEO"
    assert select_documents(kinds, question, settings={"content_weight": 0})[0][0][0] == "b-0001"  # without the text
