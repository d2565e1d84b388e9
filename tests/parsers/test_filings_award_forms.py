"""A form filed as an exhibit (an award notification) opens on its blank fields, "Name of Grantee:", "Grant Date:",
above its title; the exhibit index calls it "Form of ...", a word the form itself never prints. Both used to hide the
form from the exhibit index, and its pages stayed inside the plan before it."""

from __future__ import annotations

from parsers.exhibit_index import index_rows, unlabelled_starts

INDEX = ["Exhibit Index", "The following exhibits are filed as part of this Form 10-K.",
         "10(a)*", "Acme Corp. Stock Incentive Plan of 2015, as amended effective February 1, 2018",
         "10(b)*", "Form of Acme Corp. Restricted Stock Award Notification of Award and Terms and Conditions of Award",
         "(January 2018 annual award - all executive officers)",
         "21*", "List of the Company's Significant Subsidiaries"]
PROSE = ("These Terms and Conditions of Award, including any special terms for your country, govern the award the "
         "Company grants you under the Plan.")
PAGES = {
    1: "\n".join(INDEX),
    2: "ACME CORP.\nSTOCK INCENTIVE PLAN OF 2015\n(As amended effective February 1, 2018)\n" + PROSE,
    3: "Section 4.2 Awards.\n" + PROSE,
    4: ("Name of Grantee:\nGrant Date:\nNumber of Shares:\nDollar Value of Award\nas of Grant Date:\n"
        "Acme Identification Number:\nACME CORP.\nSTOCK INCENTIVE PLAN OF 2015\nRESTRICTED STOCK AWARD\n"
        "NOTIFICATION OF AWARD AND TERMS AND CONDITIONS OF AWARD\n" + PROSE),
    5: "Exhibit 21\nSIGNIFICANT SUBSIDIARIES",
}


def test_a_form_under_its_blank_fields_is_found_from_the_index() -> None:
    rows, last = index_rows(1, 5, lambda n: PAGES[n])
    assert last == 1
    starts = unlabelled_starts(rows, 2, 5, lambda n: PAGES[n], {"21"})
    assert [(page, title.split(" Acme")[0]) for page, title in starts] == [(2, "Exhibit 10(a)"), (4, "Exhibit 10(b) Form of")]

