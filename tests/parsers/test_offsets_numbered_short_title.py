"""A contents entry whose short title the contents shortened ("5.7 Offset" for the plan's run-in "5.7 Offsets:
Notwithstanding ...", PepsiCo's pension plan exhibit) is verified on its listed page, which prints the title right after
its number, instead of going to the next page that mentions "an offset" in prose, or being left unverified (and dropped
from an exhibit's contents children, which keep only entries that check out)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.offsets import map_entries
from parsers.pdf import PdfSource
from parsers.toc import find_toc

ROWS = [("ARTICLE V Amount of Retirement Pension", 1), ("5.1 Participant's Pension", 1), ("5.2 Certain Adjustments", 2),
        ("5.3 Excludable Employment", 3), ("5.4 Prior Pension", 3), ("5.5 Offset", 3),
        ("5.6 Amount of Spouse's Pension", 4), ("ARTICLE VI Distribution of Benefits", 5)]
PROSE = "The Company shall determine the amount under this section as the Plan provides for it."


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Table of Contents", fontname="hebo", fontsize=16)
    for k, (title, number) in enumerate(ROWS):
        page.insert_text((72, 120 + 16 * k), title, fontsize=10)
        page.insert_text((530, 120 + 16 * k), str(number), fontsize=10)
    # Printed page n on physical page n + 1, its folio at the foot; sections run in, their titles before a colon.
    body = {1: ["ARTICLE V Amount of Retirement Pension", "5.1 Participant's Pension: " + PROSE],
            2: ["5.2 Certain Adjustments: " + PROSE],
            3: ["5.3 Excludable Employment: " + PROSE, "5.4 Prior Pension: " + PROSE,
                "5.5 Offsets: Notwithstanding any other provision, the Company may reduce a payment."],
            4: ["the calculation shall include an offset for the prior benefit, as set above.",
                "5.6 Amount of Spouse's Pension: " + PROSE],
            5: ["ARTICLE VI Distribution of Benefits", "6.1 Form of Payment: " + PROSE]}
    for n in range(1, 8):
        page = doc.new_page(width=612, height=792)
        for k, line in enumerate(body.get(n, [])):
            page.insert_text((72, 90 + 40 * k), line, fontsize=9)
        page.insert_text((300, 760), f"- {n} -", fontsize=10)
    doc.save(path)
    return path


def test_a_shortened_title_printed_after_its_number_on_the_listed_page_is_verified_there(tmp_path: Path) -> None:
    src = PdfSource(str(_book(tmp_path / "plan.pdf")))
    toc = find_toc(src.page_count, src.text, src.layout)
    assert [e.title for e in toc.entries] == [t for t, _ in ROWS]
    map_entries(toc.entries, [src.text(n) for n in range(1, src.page_count + 1)], src.labels(), toc.pages)
    placed = {e.title: (e.physical, e.status) for e in toc.entries}
    assert placed["5.4 Prior Pension"] == (4, "verified")
    assert placed["5.5 Offset"] == (4, "verified")  # not the next page's "an offset for"
    assert placed["5.6 Amount of Spouse's Pension"] == (5, "verified")


def test_a_short_title_printed_without_its_number_still_needs_a_word_of_its_own(tmp_path: Path) -> None:
    # "Offsets" alone, not after "5.5", is no evidence for "5.5 Offset": the entry is not verified by it.
    src = PdfSource(str(_book(tmp_path / "plan.pdf")))
    toc = find_toc(src.page_count, src.text, src.layout)
    texts = [src.text(n).replace("5.5 Offsets:", "Offsets:") for n in range(1, src.page_count + 1)]
    map_entries(toc.entries, texts, src.labels(), toc.pages)
    assert {e.title: e.status for e in toc.entries}["5.5 Offset"] != "verified"
