"""Document selection without --doc: the catalog picks on the title and description written at index time."""

from __future__ import annotations

import pytest

from query import search
from query.search import select_documents
from tests.pdfs import sized_lines_pdf
from tests.query.conftest import publish

EDGAR_TITLE = "0000004962-23-000006"  # what EDGAR PDFs carry as a title: an accession number

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, {year}
{company}
(Exact name of registrant as specified in its charter)
Indicate by check mark if the registrant is a well-known seasoned issuer. Yes No
Indicate by check mark whether the registrant has submitted electronically every Interactive Data File."""



def _filing(folder, company: str, year: int) -> str:
    body = [("Item 7. Management's Discussion and Analysis", 12),
            ("Revenue grew and operating income rose; liquidity remained strong.", 10)]
    return sized_lines_pdf(folder / f"{company}-{year}.pdf", [[(ln, 10) for ln in COVER.format(year=year, company=company).splitlines()],
                                                   body, [("Item 8. Financial Statements", 12), ("Consolidated Balance Sheets", 10)]],
                toc=[[1, "Item 7. Management's Discussion and Analysis", 2], [1, "Item 8. Financial Statements", 3]],
                title=EDGAR_TITLE)


@pytest.fixture(scope="module")
def catalog(tmp_path_factory) -> str:
    """Four 10-Ks and one manual under opaque ids, as a new user's store looks."""
    folder = tmp_path_factory.mktemp("catalog")
    store = str(folder / "store")
    for i, (company, year) in enumerate([("GLOBEX CORPORATION", 2020), ("GLOBEX CORPORATION", 2021),
                                         ("INITECH, INC.", 2021), ("UMBRELLA COMPANY", 2021)]):
        publish(store, _filing(folder, company, year), f"0000004962-23-00000{i}")
    manual = sized_lines_pdf(folder / "apt.pdf", [
        [("APT Package Manager Guide", 28), ("Debian project", 12), ("body text " * 6, 10)],
        [("1 Repositories", 16), ("Each line of sources.list names a repository: deb URI suite components.", 10)],
        [("2 Configuring sources.list", 16), ("To configure apt, edit /etc/apt/sources.list and run apt update.", 10)],
        [("3 Pinning", 16), ("Preferences decide which version apt installs.", 10)]],
        toc=[[1, "1 Repositories", 2], [1, "2 Configuring sources.list", 3], [1, "3 Pinning", 4]], title=EDGAR_TITLE)
    publish(store, manual, "zz-0000000001")
    return store


def test_selection_uses_titles_and_descriptions_not_ids(catalog):
    ranked, step = select_documents(catalog, "How do I configure apt sources.list?", max_docs=3)
    assert ranked[0][0] == "zz-0000000001"  # the manual, not the first filings alphabetically
    assert step["candidates"][0]["score"] > 0
    ranked, _ = select_documents(catalog, "What was Globex's FY2021 operating income?", max_docs=3)
    assert ranked[0][0] == "0000004962-23-000001"  # the company and the fiscal year both count
    ranked, _ = select_documents(catalog, "Did Initech's revenue grow in 2021?", max_docs=1)
    assert [d for d, _ in ranked] == ["0000004962-23-000002"]


def test_search_without_doc_reads_the_manual_first(catalog):
    result = search("How do I configure apt sources.list?", store=catalog, top_k=3)
    assert result.results[0].doc_id == "zz-0000000001" and result.results[0].pages == [3]
    assert result.results[0].title == "2 Configuring sources.list" and "sources.list" in result.results[0].snippet
