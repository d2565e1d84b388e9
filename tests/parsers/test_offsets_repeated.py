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
