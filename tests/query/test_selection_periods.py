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
