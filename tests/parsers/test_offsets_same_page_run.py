"""A run of contents entries listed with one page number (Doxygen's dozens of short file references on one page, UHD's
"17.26 dpdk.dox File Reference" ... all "968") stays on the page that number maps to, where the run's first titles were
found, even where the text layer lost the later titles: a page nearby printing one of them inside a longer title
("gpio_api.dox" in "17.67 x400_gpio_api.dox File Reference") is not where it is, and took every entry after it along."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.offsets import map_entries
from parsers.pdf import PdfSource
from parsers.toc import find_toc

ROWS = [("1 File Documentation", 1), ("1.1 alpha.dox File Reference", 3), ("1.2 gamma.dox File Reference", 3),
        ("1.3 delta.dox File Reference", 3), ("1.4 beta.dox File Reference", 3), ("1.5 epsilon.dox File Reference", 5),
        ("1.6 x400_beta.dox File Reference", 5), ("1.7 zeta.dox File Reference", 7), ("1.8 eta.dox File Reference", 9)]


def _book(path: Path, headed_overleaf: bool = False) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=16)
    for k, (title, number) in enumerate(ROWS):
        width = pymupdf.get_text_length(title + " ", fontsize=10)
        page.insert_text((72, 120 + 16 * k), title + " " + ". " * int((440 - width) / 5.56), fontsize=10)
        page.insert_text((530, 120 + 16 * k), str(number), fontsize=10)
    # The body: printed page n on physical page n + 1, its folio at the foot. Printed page 3 holds the run's first two
    # titles; the text layer lost the other two (an overfull page's lines outside the text layer).
    body = {1: ["1 File Documentation"], 3: ["1.1 alpha.dox File Reference", "1.2 gamma.dox File Reference"],
            5: ["1.5 epsilon.dox File Reference", "1.6 x400_beta.dox File Reference"],
            7: ["1.7 zeta.dox File Reference"], 9: ["1.8 eta.dox File Reference"]}
    if headed_overleaf:  # the entry is listed a page early: its head opens the next page, a line of its own
        body[4] = ["beta.dox File Reference"]
    for n in range(1, 12):
        page = doc.new_page(width=612, height=792)
        for k, head in enumerate(body.get(n, [])):
            page.insert_text((72, 90 + 120 * k), head, fontname="hebo", fontsize=14)
            page.insert_text((72, 120 + 120 * k), "Text about the file and what it holds, for the reader.", fontsize=10)
        page.insert_text((300, 760), str(n), fontsize=10)
    doc.save(path)
    return path


def test_a_run_listed_on_one_page_stays_there_when_a_title_is_lost(tmp_path: Path) -> None:
    src = PdfSource(str(_book(tmp_path / "run.pdf")))
    toc = find_toc(src.page_count, src.text, src.layout)
    assert [e.title for e in toc.entries] == [t for t, _ in ROWS]
    map_entries(toc.entries, [src.text(n) for n in range(1, src.page_count + 1)], src.labels(), toc.pages)
    placed = {e.title: e.physical for e in toc.entries}
    assert placed["1.1 alpha.dox File Reference"] == placed["1.2 gamma.dox File Reference"] == 4
    assert placed["1.3 delta.dox File Reference"] == placed["1.4 beta.dox File Reference"] == 4
    assert placed["1.5 epsilon.dox File Reference"] == placed["1.6 x400_beta.dox File Reference"] == 6
    assert placed["1.7 zeta.dox File Reference"] == 8


def test_a_lost_title_outside_such_a_run_is_still_looked_for_nearby(tmp_path: Path) -> None:
    # The entry before lists another page: nothing says where this one is but its number, and its title two pages on.
    src = PdfSource(str(_book(tmp_path / "run.pdf")))
    toc = find_toc(src.page_count, src.text, src.layout)
    entries = [e for e in toc.entries if e.title not in ("1.1 alpha.dox File Reference", "1.2 gamma.dox File Reference",
                                                         "1.3 delta.dox File Reference")]
    map_entries(entries, [src.text(n) for n in range(1, src.page_count + 1)], src.labels(), toc.pages)
    assert {e.title: e.physical for e in entries}["1.4 beta.dox File Reference"] == 6


def test_a_run_entry_headed_on_the_next_page_goes_there(tmp_path: Path) -> None:
    # DocBook's reference entries listed a page early (libraw1394): the title set as a line of its own nearby still
    # moves the entry, in a run or not.
    src = PdfSource(str(_book(tmp_path / "run.pdf", headed_overleaf=True)))
    toc = find_toc(src.page_count, src.text, src.layout)
    map_entries(toc.entries, [src.text(n) for n in range(1, src.page_count + 1)], src.labels(), toc.pages)
    placed = {e.title: e.physical for e in toc.entries}
    assert placed["1.3 delta.dox File Reference"] == 4
    assert placed["1.4 beta.dox File Reference"] == 5
