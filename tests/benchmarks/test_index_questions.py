"""The back-of-book index reader on tiny manuals built in code: entries, sub-entries, links, page labels."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf

from benchmarks.index_questions import main, questions_for

BODY = {
    2: "Apples grow on trees. Apple harvest is in autumn.",
    3: "Ripe bananas are yellow. A banana ripens fast.",
    4: "Cherries and cherry stones. Green bananas are sold unripe.",
    5: "Nothing about fruit here, only the weather.",
}
# (x, text, link target page or None): the index page in two columns; sub-entries indented by 20 pt.
INDEX = [
    [(72, "apples, 2", 2), (72, "bananas", None), (92, "green, 4", 4), (92, "ripe, 3", 3),
     (72, "cherries, 4", 4), (72, "durian, 5", 5), (72, "fruit, see apples", None)],
    [(320, "weather, 5", 5), (320, "yellow bananas, 3", 3), (320, "zebra fruit, 4", 4)],
]


def manual(path: Path, links: bool, offset: int = 0) -> Path:
    """Cover, four body pages, an index page; with ``offset`` the printed numbers are physical - offset and
    /PageLabels say so (the links, when drawn, always go to the physical page)."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((72, 90), "A Fruit Manual", fontsize=20)
    for n in sorted(BODY):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), f"Chapter {n - 1}", fontsize=16)
        page.insert_text((72, 130), BODY[n], fontsize=11)
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Index", fontsize=16)
    for column in INDEX:
        for row, (x, text, target) in enumerate(column):
            y = 120 + 14 * row
            if offset and text[-1].isdigit():
                head, num = text.rsplit(" ", 1)
                text = f"{head} {int(num) - offset}"
            page.insert_text((x, y), text, fontsize=10)
            if links and target:
                width = pymupdf.get_text_length(text, fontsize=10)
                page.insert_link({"kind": pymupdf.LINK_GOTO, "page": target - 1,
                                  "from": pymupdf.Rect(x + width - 6, y - 8, x + width, y + 2)})
    if offset:
        doc.set_page_labels([{"startpage": 0, "prefix": "", "style": "r", "firstpagenum": 1},
                             {"startpage": offset, "prefix": "", "style": "D", "firstpagenum": 1}])
    doc.save(path)
    doc.close()
    return path


def by_term(rows: list[dict]) -> dict[str, dict]:
    return {r["query"]: r for r in rows}


def test_linked_index_gives_terms_subentries_and_verified_pages(tmp_path: Path) -> None:
    rows, facts = questions_for(manual(tmp_path / "fruit.pdf", links=True), cap=None)
    got = by_term(rows)
    assert facts["index_pages"] == [6] and facts["source"] == "index-link"
    assert got["apples"]["target_pages"] == [2]
    assert got["bananas, green"]["target_pages"] == [4]  # a sub-entry joined to its parent
    assert got["bananas, ripe"]["target_pages"] == [3]
    assert got["bananas, ripe"]["question"] == "Where does the manual explain bananas, ripe?"
    assert got["yellow bananas"]["target_pages"] == [3]  # the second column is read too
    assert got["bananas, green"]["term_match"] == "phrase"  # "Green bananas": the inverted order
    assert got["cherries"]["term_match"] == "phrase"
    # durian and zebra fruit are not on their pages; a "see" entry is a cross-reference; weather's page has it
    assert "durian" not in got and "zebra fruit" not in got and not any("see" in t for t in got)
    assert got["weather"]["target_pages"] == [5]
    assert all(r["source"] == "index-link" for r in rows)


def test_printed_numbers_map_through_page_labels_without_links(tmp_path: Path) -> None:
    rows, facts = questions_for(manual(tmp_path / "fruit.pdf", links=False, offset=1), cap=None)
    got = by_term(rows)
    assert facts["source"] == "index-label"
    assert got["apples"]["target_pages"] == [2] and got["bananas, ripe"]["target_pages"] == [3]
    assert "durian" not in got


def test_cap_spreads_over_the_index_and_cli_writes_both_files(tmp_path: Path) -> None:
    pdf = manual(tmp_path / "fruit.pdf", links=True)
    every, _ = questions_for(pdf, cap=None)
    two, _ = questions_for(pdf, cap=2)
    assert len(every) > 3 and len(two) == 2
    assert two[0] == every[len(every) // 4] and two[1] == every[(3 * len(every)) // 4]
    out, pages = tmp_path / "q.jsonl", tmp_path / "pages.json"
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    assert main([str(pdf), str(bad), "--out", str(out), "--pages", str(pages), "--cap", "2"]) == 0
    assert [json.loads(x) for x in out.read_text().splitlines()] == two
    assert json.loads(pages.read_text())["documents"]["fruit"]["excluded_pages"] == [6]
