"""Back matter after a filing's last Item (signatures, exhibits) follows the Items: it is never a child of the
last Item (Item 16, Form 10-K Summary), even when no "Signatures" heading is read before it."""

from __future__ import annotations

from parsers import filing_anatomy as fa
from parsers.filing_pdf import anchor_items
from parsers.filings import back_matter
from parsers.ranges import Entry

BODY = "The company reported results for the period in line with its plan and the guidance it gave."
PAGES = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nAcme Corporation",
    f"PART I\nITEM 1. BUSINESS\n{BODY}",
    f"ITEM 1A. RISK FACTORS\n{BODY}",
    f"PART II\nITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS OF FINANCIAL CONDITION AND RESULTS OF OPERATIONS\n{BODY}",
    f"PART IV\nITEM 15. EXHIBITS AND FINANCIAL STATEMENT SCHEDULES\n{BODY}",
    "ITEM 16. FORM 10-K SUMMARY\nNone.\n133",
    f"Table of Contents\nSIGNATURE S\nPursuant to the requirements of Section 13 or 15(d) of the Act.\n{BODY}\n134",
    f"EXHIBIT 10.1\nEXECUTIVE DEFERRAL PLAN\n{BODY}",
    f"{BODY}\n2",
    "EXHIBIT 21\nSUBSIDIARIES OF THE REGISTRANT\nWidget LLC   Delaware",
]


def _text(page: int) -> str:
    return PAGES[page - 1]


def test_exhibits_after_the_last_item_are_its_siblings_not_its_children() -> None:
    # No "Signatures" entry: the exhibits' own labels end the Items.
    entries = [Entry(1, "EXHIBIT 10.1", 8), Entry(2, "Deferral Elections", 9), Entry(1, "EXHIBIT 21", 10)]
    out, info = anchor_items(entries, len(PAGES), _text)
    assert info["mode"] == "ordered"
    levels = {e.title: e.level for e in out}
    assert levels["ITEM 16. FORM 10-K SUMMARY"] == 2
    assert (levels["EXHIBIT 10.1"], levels["Deferral Elections"], levels["EXHIBIT 21"]) == (1, 2, 1)


def test_letter_spaced_signatures_are_read_as_the_signatures() -> None:
    found = back_matter([Entry(1, "Item 16. Form 10-K Summary", 6)], len(PAGES), _text)
    assert [(e.title, e.page) for e in found] == [("SIGNATURES", 7), ("EXHIBIT 10.1", 8), ("EXHIBIT 21", 10)]
    assert fa.closes_items("SIGNATURE S") and fa.closes_items("Exhibit 13.1") and fa.closes_items("Exhibit Index")
    assert not fa.closes_items("Exhibits and Financial Statement Schedules")
