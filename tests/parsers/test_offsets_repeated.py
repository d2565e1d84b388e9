"""Generated reference manuals list the same titles under every class: they must not move the offset."""

from __future__ import annotations

from parsers.numbering import PageNumber
from parsers.offsets import map_entries
from parsers.toc import TocEntry

FILLER = "This paragraph documents the behaviour of the class in some detail for its readers."


def _manual(classes: int, missing: int) -> tuple[list[str], list[TocEntry], dict[tuple[int, str], int]]:
    """Cover, contents, then three pages per class; class ``missing`` prints no "Detailed Description" head."""
    texts = ["Reference Manual", "Contents"]
    entries: list[TocEntry] = []
    want: dict[tuple[int, str], int] = {}
    for k in range(1, classes + 1):
        first = len(texts) + 1
        detail = "" if k == missing else "Detailed Description\n"
        texts += [f"Widget{k} Class Reference\n{detail}{FILLER}", f"Member Function Documentation\n{FILLER}", FILLER]
        for title, page in ((f"Widget{k} Class Reference", first), ("Detailed Description", first),
                            ("Member Function Documentation", first + 1)):
            entries.append(TocEntry(title=title, page=PageNumber(page - 2, "arabic"), level=2, numbering=None, toc_page=2))
            want[(k, title)] = page
    return texts, entries, want


def test_a_missing_generated_head_costs_that_entry_only() -> None:
    texts, entries, want = _manual(classes=6, missing=3)
    map_entries(entries, texts, [None] * len(texts), [2])
    got = {(i // 3 + 1, e.title): e.physical for i, e in enumerate(entries)}
    assert got == want
    assert sum(e.status == "unverifiable" for e in entries) == 1


def _numbered_book(pages: int, folio_from: int) -> list[str]:
    """Cover, contents, then body pages whose folio (printed page 1 on physical ``folio_from``) is on top."""
    texts = ["A Manual", "Contents"]
    for n in range(3, pages + 1):
        texts.append(f"{n - folio_from + 1}\n{FILLER}")
    return texts


def test_an_entry_listed_a_page_early_does_not_shift_the_chapters_after_it() -> None:
    # Printed page 1 = physical 3. "Running the tool" is listed on page 3 but headed on page 4 (with its first
    # subsection); chapter 2 opens on a page without a folio, where only the offset can place it.
    texts = _numbered_book(12, 3)
    texts[5] = f"4\n{FILLER}\nRunning the tool\n{FILLER}\nHTML output\n{FILLER}"  # physical 6, printed 4
    texts[6] = f"5\nSetup\n{FILLER}"
    texts[8] = f"Chapter 2\nDocumenting the code\n{FILLER}"  # physical 9, printed 7, no folio
    texts[9] = f"8\nDocumenting the code\n{FILLER}"  # running head of the next page repeats the title
    entries = [TocEntry(title=t, page=PageNumber(p, "arabic"), level=1, numbering=None, toc_page=2)
               for t, p in (("Running the tool", 3), ("HTML output", 3), ("Setup", 5), ("Documenting the code", 7))]
    map_entries(entries, texts, [None] * len(texts), [2])
    assert [e.physical for e in entries] == [6, 6, 7, 9]


def test_a_listed_page_holding_only_its_running_head_keeps_the_entry() -> None:
    # Page 7 prints folio 5 and nothing else (a figure without a text layer): the section starts there, as listed,
    # not on page 8 where its heading is printed under the figure.
    texts = _numbered_book(10, 3)
    texts[6] = "Examples\n5"
    texts[7] = f"6\nLegends and annotated lines\n{FILLER}"
    entries = [TocEntry(title="Legends and annotated lines", page=PageNumber(5, "arabic"), level=1, numbering=None,
                        toc_page=2)]
    map_entries(entries, texts, [None] * len(texts), [2])
    assert entries[0].physical == 7
