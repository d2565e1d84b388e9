"""Long leaves split by the heads inside them before page groups (parsers.structure.split_long_leaves)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.ranges import Entry
from parsers.structure import split_long_leaves

WORDS = ["Apples", "Pears", "Plums", "Cherries", "Grapes", "Lemons", "Melons"]
PROSE = "Body text of the section that goes on and on for a while, as prose does."


def _section(path: Path, pages: int, heads: dict[int, tuple[str, str]], title_font: str = "hebo") -> Path:
    """A title page, then a section as Sphinx sets it: its title in 14-pt bold Helvetica on page 2, a Times body at
    10 pt, and ``heads`` {page: (title, font)} set bold at body size on a line of their own with space around them."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((200, 300), "The Manual", fontname="hebo", fontsize=24)
    for n in range(2, pages + 1):
        page = doc.new_page(width=612, height=792)
        y = 100.0
        if n == 2:
            page.insert_text((72, y), "Reference", fontname=title_font, fontsize=14)
            y += 40
        if n in heads:
            title, font = heads[n]
            page.insert_text((72, y), title, fontname=font, fontsize=10)
            y += 30
        for _ in range(30):
            page.insert_text((72, y), PROSE, fontname="tiro", fontsize=10)
            y += 14
    doc.save(path)
    return path


def test_body_size_heads_in_the_titles_face_split_a_long_leaf_before_page_groups(tmp_path: Path) -> None:
    heads = {4: ("Installing", "hebo"), 6: ("Note", "tibo"), 12: ("Configuring", "hebo"), 21: ("Running", "hebo"),
             25: ("[Equation 1]", "tibo"), 27: ("sas.plotting.utils module", "hebo")}
    with PdfSource(_section(tmp_path / "a.pdf", 30, heads)) as pdf:
        entries, info = split_long_leaves([Entry(1, "Reference", 2)], pdf, 10)
    # The bold labels in the body's own face (Times bold: a note's label, an equation's tag) are not heads.
    # In the heads' face a head may open lower-case (an API reference's module), as no paragraph line may.
    assert entries == [Entry(1, "Reference", 2), Entry(2, "Installing", 4), Entry(2, "Configuring", 12),
                       Entry(2, "Running", 21), Entry(2, "sas.plotting.utils module", 27)]
    assert info["by_headings"] == 1 and info["by_pages"] == 0


def test_scattered_body_size_labels_do_not_split_a_leaf(tmp_path: Path) -> None:
    # Two bold labels on 30 pages leave most of the leaf in children over the limit: page groups do better.
    with PdfSource(_section(tmp_path / "b.pdf", 30, {3: ("Parameters", "hebo"), 5: ("Returns", "hebo")})) as pdf:
        entries, info = split_long_leaves([Entry(1, "Reference", 2)], pdf, 10)
    assert info["by_pages"] == 1 and all(e.kind == "page_group" for e in entries[1:])


def test_body_size_heads_in_the_bodys_own_face_do_not_split_a_leaf(tmp_path: Path) -> None:
    # Title, heads and body all in Times: nothing tells a bold head from a reference entry's bold name.
    heads = {4: ("Shape star", "tibo"), 12: ("Shape kite", "tibo"), 21: ("Shape dart", "tibo")}
    with PdfSource(_section(tmp_path / "c.pdf", 30, heads, title_font="tibo")) as pdf:
        entries, info = split_long_leaves([Entry(1, "Reference", 2)], pdf, 10)
    assert info["by_pages"] == 1 and all(e.kind == "page_group" for e in entries[1:])


def test_a_leaf_of_small_print_does_not_make_the_prose_before_it_heads(tmp_path: Path) -> None:
    # 60 pages of 10-pt prose, then a 30-page back matter: a 4-page preface in the same prose, then a bibliography
    # in 8 pt under its 14-pt head. The leaf's own body size is the bibliography's; the document's is the prose's.
    doc = pymupdf.open()
    for n in range(1, 91):
        page = doc.new_page(width=612, height=792)
        y = 100.0
        if n == 65:
            page.insert_text((72, y), "Bibliography", fontname="hebo", fontsize=14)
            y += 40
        small = n >= 65
        for k in range(52 if small else 36):
            if k % 6 == 0:
                y += 10  # a paragraph (or an item) starts: its first line opens a sentence
            # Every paragraph opens differently, as prose does (a repeated line would be a running head).
            line = f"{WORDS[(n + k) % 7]} {WORDS[(3 * n + k) % 7]} showed the whole program text" if k % 6 == 0 else \
                "and a reader could follow its code"
            page.insert_text((72, y), line, fontname="tiro", fontsize=8 if small else 10)
            y += 11 if small else 14
    doc.save(tmp_path / "d.pdf")
    with PdfSource(tmp_path / "d.pdf") as pdf:
        entries, info = split_long_leaves([Entry(1, "A Theory", 1), Entry(1, "D Manuscript history", 61)], pdf, 10)
    assert [(e.level, e.title, e.page) for e in entries if not e.kind] == [
        (1, "A Theory", 1), (1, "D Manuscript history", 61), (2, "Bibliography", 65)]


def test_a_long_documents_leaves_get_layouts_for_more_than_400_pages(tmp_path: Path) -> None:
    # 700 pages: a 410-page reference (a head every 5 pages) is split by its heads, not into page groups.
    doc = pymupdf.open()
    for n in range(1, 701):
        page = doc.new_page(width=612, height=792)
        if n % 5 == 0 and n <= 410:
            k = n // 5
            page.insert_text((72, 100), f"{WORDS[k % 7]} {WORDS[k // 7 % 7]} {WORDS[k // 49]}", fontname="hebo", fontsize=14)
        page.insert_text((72, 140), PROSE, fontname="tiro", fontsize=10)
    doc.save(tmp_path / "long.pdf")
    with PdfSource(tmp_path / "long.pdf") as pdf:
        entries, info = split_long_leaves([Entry(1, "Reference", 1), Entry(1, "Appendix", 411)], pdf, 10)
    assert info["by_headings"] == 1 and entries[1] == Entry(2, "Pears Apples Apples", 5)


CLAUSES = ["Definitions.", "Source Code.", "Basic Permissions.", "Conveying Verbatim Copies.", "Additional Terms.",
           "Termination.", "Patents."]


def _licensed(path: Path, licence_first: bool) -> tuple[Path, list[Entry]]:
    """Six numbered chapters of a page each and a licence's 14-page "Preamble" whose clauses "0. Definitions." ...
    are set as heads (14-pt bold Helvetica over a 10-pt Times body), after the chapters or before them."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((200, 300), "The Manual", fontname="hebo", fontsize=24)

    def page(head: str | None, size: float = 14) -> None:
        p = doc.new_page(width=612, height=792)
        y = 100.0
        if head:
            p.insert_text((72, y), head, fontname="hebo", fontsize=size)
            y += 40
        for _ in range(30):
            p.insert_text((72, y), PROSE, fontname="tiro", fontsize=10)
            y += 14

    def chapters() -> list[Entry]:
        first = doc.page_count + 1
        for n, word in enumerate(WORDS[:6], start=1):
            page(f"{n} Growing {word}", 18)
        return [Entry(1, f"{n} Growing {word}", first + n - 1) for n, word in enumerate(WORDS[:6], start=1)]

    def licence() -> list[Entry]:
        first = doc.page_count + 1
        page("Preamble", 18)
        page("TERMS AND CONDITIONS")
        for k in range(12):
            page(f"{k // 2}. {CLAUSES[k // 2]}" if k % 2 == 0 else None)
        return [Entry(1, "Preamble", first)]

    entries = [*licence(), *chapters()] if licence_first else [*chapters(), *licence()]
    doc.save(path)
    return path, entries


def test_a_licences_clauses_after_the_last_numbered_chapter_do_not_split_its_leaf(tmp_path: Path) -> None:
    # The GPL's clauses count from 0 again after chapters counting up to 6: a list of the licence, not its sections
    # (its "TERMS AND CONDITIONS" head is one).
    path, entries = _licensed(tmp_path / "after.pdf", licence_first=False)
    with PdfSource(path) as pdf:
        split, _ = split_long_leaves(entries, pdf, 10)
    assert [e.title for e in split[len(entries):]] == ["TERMS AND CONDITIONS"]
    # Before the numbered chapters, numbered heads counting from 0 are not an appended text's: they split the leaf.
    path, entries = _licensed(tmp_path / "before.pdf", licence_first=True)
    with PdfSource(path) as pdf:
        split, _ = split_long_leaves(entries, pdf, 10)
    assert "0. Definitions." in [e.title for e in split]
