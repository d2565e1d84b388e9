"""Printed-to-physical page mapping (parsers.offsets) on synthetic page texts.

A document is simulated as a list of page texts: front matter with roman folios,
a contents page, and a body whose sections start on known physical pages with
printed folios that may start at any offset, restart, or be missing.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from parsers.numbering import PageNumber, int_to_roman
from parsers.offsets import map_entries, read_folios, vote_offset
from parsers.toc import TocEntry

NAMES = ["Installation steps", "Wiring the controller", "Configuration menus", "Network interface", "Daily operation",
         "Fault codes explained", "Maintenance schedule", "Replacement parts", "Firmware updates", "Safety notices",
         "Warranty conditions", "Disposal and recycling"]


def simulate(front: int, sizes: list[int], restart_at: int | None, folios: bool, inserted_blank: int | None):
    """Page texts and (title, printed, physical) for each section."""
    texts = [f"Front page {int_to_roman(i + 1)}\nsome words\n{int_to_roman(i + 1)}" for i in range(front)]
    texts.append("Contents\n(entries)")
    truth = []
    printed = 1
    for k, size in enumerate(sizes):
        if restart_at is not None and k == restart_at:
            printed = 1
        if inserted_blank is not None and k == inserted_blank:
            texts.append("")  # an unnumbered inserted page (a plate, a blank)
        truth.append((NAMES[k], printed, len(texts) + 1))
        for j in range(size):
            head = f"{k + 1} {NAMES[k]}\n" if j == 0 else "Running text continues\n"
            folio = f"\n{printed}" if folios else ""
            texts.append(f"Handbook header\nEdition 2\n{head}body text of the section{folio}")
            printed += 1
    return texts, truth


@given(
    front=st.integers(min_value=0, max_value=6),
    sizes=st.lists(st.integers(min_value=2, max_value=5), min_size=3, max_size=12),
    restart=st.booleans(),
    folios=st.booleans(),
    blank=st.booleans(),
    data=st.data(),
)
@settings(max_examples=60, deadline=None)
def test_every_entry_maps_to_its_physical_page(front, sizes, restart, folios, blank, data) -> None:
    restart_at = data.draw(st.integers(min_value=2, max_value=len(sizes) - 1)) if restart and len(sizes) > 3 else None
    inserted = data.draw(st.integers(min_value=1, max_value=len(sizes) - 1)) if blank else None
    texts, truth = simulate(front, sizes, restart_at, folios, inserted)
    entries = [TocEntry(f"{k + 1} {t}", PageNumber(p, "arabic"), 1, None, front + 1) for k, (t, p, _) in enumerate(truth)]
    result = map_entries(entries, texts, [None] * len(texts), [front + 1])
    assert [e.physical for e in entries] == [phys for *_, phys in truth]
    assert all(e.status in ("verified", "corrected") for e in entries)
    offsets = [phys - p for _, p, phys in truth]
    runs = [k for k in range(len(offsets)) if k == 0 or offsets[k] != offsets[k - 1]] + [len(offsets)]
    lengths = [b - a for a, b in zip(runs, runs[1:])]
    if len(set(offsets)) == 1:
        assert result.page_offset == offsets[0]
    elif any(n >= 2 for n in lengths[1:]):  # a new offset held by two sections in a row: piecewise
        assert result.page_offset is None and len(result.mapping) >= 2


@given(
    offset=st.integers(min_value=-5, max_value=40),
    good=st.integers(min_value=3, max_value=30),
    noise=st.lists(st.integers(min_value=-50, max_value=50), max_size=2),
)
def test_vote_offset_finds_the_majority(offset: int, good: int, noise: list[int]) -> None:
    pairs = [(p, p + offset) for p in range(1, good + 1)] + [(p, p + n) for p, n in enumerate(noise, 100)]
    assert vote_offset(pairs) == offset


def test_vote_offset_empty() -> None:
    assert vote_offset([]) is None


def test_folios_need_a_continuing_neighbour() -> None:
    texts = ["Title page 2024", "ii\npreface", "iii\nmore", "iv\nmore", "Chapter 1\n1", "text\n2", "text\n3",
             "Edition 2\nTable 7 shows 99 cases", "Edition 2\nmore"]
    folios = read_folios(texts)
    assert folios == {2: PageNumber(2, "roman"), 3: PageNumber(3, "roman"), 4: PageNumber(4, "roman"),
                      5: PageNumber(1, "arabic"), 6: PageNumber(2, "arabic"), 7: PageNumber(3, "arabic")}


def test_labels_are_used_and_unverifiable_entries_are_counted() -> None:
    texts = ["cover", "Contents", "nothing here", "still nothing", "Chapter body"]
    labels = [None, None, "1", "2", "3"]
    entries = [TocEntry("Missing title", PageNumber(2, "arabic"), 1, None, 2),
               TocEntry("Chapter body", PageNumber(3, "arabic"), 1, None, 2)]
    result = map_entries(entries, texts, labels, [2])
    assert [e.physical for e in entries] == [4, 5]
    assert result.counts["unverifiable"] == 1 and result.counts["verified"] == 1
