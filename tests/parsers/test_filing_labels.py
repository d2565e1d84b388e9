"""Printed folios a filing sets between dashes ("- 12 -") or after a section letter ("F-3": the financial pages)
become the pages' labels; a lone "A-1" in a heading, with no run of neighbours, does not."""

from __future__ import annotations

from parsers.offsets import printed_labels, read_folios

BODY = "The Company reported results for the period in line with its plan and the guidance it gave."


def test_dashed_and_lettered_folios_become_labels() -> None:
    texts = [f"Item {n}\n{BODY}\n- {n} -" for n in range(1, 5)]  # "- 1 -" .. "- 4 -"
    texts += [f"Notes\n{BODY}\nF-{n}" for n in range(1, 5)]
    texts += [f"Schedule A-1 of the agreement\n{BODY}\nsee Appendix", f"{BODY}\nthe end"]
    assert printed_labels([None] * len(texts), texts) == ["1", "2", "3", "4", "F-1", "F-2", "F-3", "F-4", None, None]


def test_the_offset_mapping_still_reads_plain_folios_only() -> None:
    texts = [f"{BODY}\nF-{n}" for n in range(1, 5)]
    assert read_folios(texts) == {}
    assert {p: (n.kind, n.value) for p, n in read_folios(texts, labels=True).items()} == {
        p: ("prefix:F", p) for p in range(1, 5)}


def test_an_appendix_numbered_on_its_own_gives_two_number_labels() -> None:
    # An exhibit's appendices each numbered from 1 ("APP-1-1", "APP-2-1", "APP-2-2" ...): the appendix number is
    # part of the label, and a run of three pages of one appendix confirms it like any folio.
    texts = [f"APPENDIX 1\n{BODY}\nAPP-1-1"] + [f"{BODY}\nAPP-2-{n}" for n in range(1, 5)]
    texts += [f"{BODY}\nAPP\u20133\u2013{n}" for n in range(1, 4)]
    assert printed_labels([None] * len(texts), texts) == [
        None, "APP-2-1", "APP-2-2", "APP-2-3", "APP-2-4", "APP-3-1", "APP-3-2", "APP-3-3"]
