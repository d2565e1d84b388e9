"""Printed-TOC recovery on tiny PDFs built here, one per TOC style.

Each builder places section headings on known physical pages and prints a TOC
that refers to them by printed page number; the expected physical pages come
from the construction, never from the code under test.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import pytest

from parsers.numbering import int_to_roman
from parsers.pdf import PdfSource
from parsers.ranges import build_tree
from parsers.samples import MANUAL, _flatten
from parsers.structure import recover_structure
from parsers.toc import parse_toc_line

W, H = 612, 792
WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec "
         "romeo sierra tango uniform victor whiskey xray yankee zulu").split()


@dataclass
class Sec:
    title: str  # as printed in the TOC and as the heading
    level: int = 1
    pages: int = 2
    printed: str = ""  # printed page number of its first page (filled by the builder)
    physical: int = 0  # 1-based physical start page (filled by the builder)
    in_toc: bool = True
    number_in_toc: bool = True


@dataclass
class Book:
    sections: list[Sec]
    front_pages: int = 2  # before the TOC page(s); get roman folios
    folio: str = "arabic"  # arabic | none
    restart_at: str | None = None  # title of a section where arabic numbering restarts at 1
    toc_style: str = "dots"  # dots | right | two_column | items
    links: bool = False
    filler: list[str] = field(default_factory=list)


def _para(rng: random.Random, n: int = 40) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def _write_wrapped(page: pymupdf.Page, y: float, text: str, size: float = 10) -> float:
    rect = pymupdf.Rect(72, y, W - 72, y + 200)
    page.insert_textbox(rect, text, fontsize=size, fontname="helv")
    return y + 80


def build(book: Book, path: Path) -> list[Sec]:
    """Write the PDF; returns the sections with their printed and physical pages."""
    rng = random.Random(3)
    doc = pymupdf.open()
    for i in range(book.front_pages):
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 120), "Front Page Title" if i == 0 else "Foreword", fontname="hebo", fontsize=20)
        _write_wrapped(page, 160, _para(rng))
        if i > 0:
            page.insert_text((W / 2, H - 40), int_to_roman(i + 1), fontsize=9)
    toc_pages = 1
    first_body = book.front_pages + toc_pages + 1
    # Lay out the body to learn printed numbers.
    phys = first_body
    printed = 1
    for sec in book.sections:
        if book.restart_at and sec.title == book.restart_at:
            printed = 1
        sec.physical, sec.printed = phys, str(printed)
        phys += sec.pages
        printed += sec.pages
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 90), "Table of Contents", fontname="hebo", fontsize=18)
    toc.insert_text((W / 2, H - 40), int_to_roman(book.front_pages + 1), fontsize=9)
    _toc(toc, book)
    for sec in book.sections:
        for k in range(sec.pages):
            page = doc.new_page(width=W, height=H)
            page.insert_text((72, 40), "The Handbook of Tests", fontsize=8)  # running header
            y = 90
            if k == 0:
                page.insert_text((72, y), sec.title, fontname="hebo", fontsize=18 if sec.level == 1 else 14)
                y += 30
            _write_wrapped(page, y, _para(rng, 60))
            if book.folio == "arabic":
                start = int(sec.printed)
                page.insert_text((W / 2, H - 40), str(start + k), fontsize=9)
    if book.links:
        toc = doc[book.front_pages]
        y = 130
        for sec in book.sections:
            toc.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 11, W - 72, y + 3), "page": sec.physical - 1})
            y += 18
    doc.save(path)
    return book.sections


def _toc(page: pymupdf.Page, book: Book) -> None:
    y = 130
    right = W - 72
    secs = [s for s in book.sections if s.in_toc]
    if book.toc_style == "two_column":
        half = (len(secs) + 1) // 2
        for col, chunk in enumerate((secs[:half], secs[half:])):
            yy = 130
            x0, x1 = (72, W / 2 - 20) if col == 0 else (W / 2 + 20, right)
            for sec in chunk:
                page.insert_text((x0, yy), sec.title, fontsize=10)
                nw = pymupdf.get_text_length(sec.printed, fontsize=10)
                page.insert_text((x1 - nw, yy), sec.printed, fontsize=10)
                yy += 18
        return
    for sec in secs:
        indent = 0 if sec.level == 1 else 18
        font = "hebo" if sec.level == 1 else "helv"
        title = sec.title
        if book.toc_style == "wrap" and len(title) > 40:
            cut = title.rfind(" ", 0, 40)
            page.insert_text((72 + indent, y), title[:cut], fontname=font, fontsize=10)
            y += 13
            title = title[cut + 1:]
        page.insert_text((72 + indent, y), title, fontname=font, fontsize=10)
        if sec.number_in_toc:
            nw = pymupdf.get_text_length(sec.printed, fontname=font, fontsize=10)
            page.insert_text((right - nw, y), sec.printed, fontname=font, fontsize=10)
            if book.toc_style in ("dots", "wrap", "items"):
                start = 72 + indent + pymupdf.get_text_length(title, fontname=font, fontsize=10) + 6
                n = int((right - nw - 6 - start) / pymupdf.get_text_length(". ", fontsize=10))
                if n > 0:
                    page.insert_text((start, y), ". " * n, fontsize=10)
        y += 18


def _chapters(n: int = 6, sub: bool = True) -> list[Sec]:
    out = []
    names = ["Getting Started", "Installing the Device", "Daily Operation", "Maintenance Schedule", "Troubleshooting Faults",
             "Technical Specifications", "Safety Regulations", "Glossary of Terms"]
    for i in range(n):
        out.append(Sec(f"{i + 1} {names[i]}", 1, pages=2))
        if sub:
            out.append(Sec(f"{i + 1}.1 Overview of {names[i].split()[-1].lower()}", 2, pages=1))
    return out


def _run(path: Path, sections: list[Sec]):
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
        root = build_tree(result.entries, pdf.page_count, "t") if result.entries else None
    got = {e.title: e.page for e in result.entries if e.title != "Table of Contents"}
    want = {s.title: s.physical for s in sections if s.in_toc}
    return result, root, got, want


@pytest.mark.parametrize("style", ["dots", "right"])
def test_leaders_or_right_aligned_numbers_with_roman_front_matter(tmp_path: Path, style: str) -> None:
    sections = build(Book(_chapters(), toc_style=style), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert result.source == "toc"
    assert got == want
    assert result.page_offset == 3  # 2 front pages + 1 TOC page before printed page 1
    assert result.entries[0].title == sections[0].title  # a book's contents pages are front matter, not a node
    toc = result.decisions["toc"]
    assert toc["verified"] == len(want) and toc["unverifiable"] == 0


def test_levels_follow_numbering(tmp_path: Path) -> None:
    sections = build(Book(_chapters(3)), tmp_path / "b.pdf")
    result, _, _, _ = _run(tmp_path / "b.pdf", sections)
    assert [e.level for e in result.entries if e.title != "Table of Contents"] == [s.level for s in sections]


def test_multi_line_titles(tmp_path: Path) -> None:
    secs = [Sec("1 A chapter whose title is much too long to fit on one line of the contents", 1, 3),
            Sec("2 Short one", 1, 2), Sec("3 Another very long chapter title that wraps onto a second line", 1, 2)]
    sections = build(Book(secs, toc_style="wrap"), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert result.source == "toc" and got == want


def test_numbering_restarts_piecewise(tmp_path: Path) -> None:
    secs = _chapters(4, sub=False) + [Sec("Appendix A Reference Tables", 1, 3), Sec("Appendix B Wiring Diagrams", 1, 2)]
    sections = build(Book(secs, restart_at="Appendix A Reference Tables"), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert got == want
    assert result.page_offset is None  # numbering restarted: no single offset
    assert len(result.decisions["toc"]["mapping"]) == 2


def test_no_printed_folios_offset_voted_from_titles(tmp_path: Path) -> None:
    sections = build(Book(_chapters(), folio="none"), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert result.source == "toc" and got == want
    assert result.decisions["toc"]["offset_method"] == "titles"


def test_two_column_toc(tmp_path: Path) -> None:
    sections = build(Book(_chapters(6, sub=False), toc_style="two_column"), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert result.source == "toc" and got == want


def test_entries_without_page_numbers_are_placed_from_the_body(tmp_path: Path) -> None:
    secs = [Sec("Part I Basics", 1, 1, number_in_toc=False), Sec("1 Getting Started", 2, 2), Sec("2 Daily Operation", 2, 2),
            Sec("Part II Advanced", 1, 1, number_in_toc=False), Sec("3 Maintenance Schedule", 2, 2), Sec("4 Safety Rules", 2, 2)]
    sections = build(Book(secs), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert got == want


def test_links_on_the_toc_are_used(tmp_path: Path) -> None:
    sections = build(Book(_chapters(4, sub=False), folio="none", links=True), tmp_path / "b.pdf")
    result, _, got, want = _run(tmp_path / "b.pdf", sections)
    assert got == want
    assert result.decisions["toc"]["verified"] + result.decisions["toc"]["linked"] == len(want)


def test_list_of_figures_and_numeric_tables_are_not_a_toc(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((72, 90), "List of Figures", fontname="hebo", fontsize=18)
    for i in range(12):
        page.insert_text((72, 130 + 18 * i), f"Figure {i + 1}. A plot . . . . . . . . . . . . {i + 3}", fontsize=10)
    page = doc.new_page(width=W, height=H)
    for i in range(20):
        page.insert_text((72, 90 + 18 * i), f"{1990 + i}    {i * 17 % 91}    {i * 31 % 97}    {i * 7}", fontsize=10)
    for _ in range(3):
        doc.new_page(width=W, height=H).insert_text((72, 90), "Body text page", fontsize=10)
    doc.save(tmp_path / "n.pdf")
    with PdfSource(tmp_path / "n.pdf") as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source != "toc"
    assert result.decisions["tried"][1]["method"] == "toc" and not result.decisions["tried"][1]["used"]


def _heading_pages(path: Path) -> dict[str, int]:
    """Where the sample's section headings are set (13/18 pt lines in the body), read straight from PyMuPDF."""
    titles = {s.title for s in _flatten(MANUAL)}
    found: dict[str, int] = {}
    with pymupdf.open(path) as doc:
        for page in doc:
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    text = "".join(sp["text"] for sp in line["spans"]).strip()
                    size = max(sp["size"] for sp in line["spans"])
                    title = text.split(" ", 1)[1] if text[:1].isdigit() and " " in text else text
                    if size >= 12.5 and title in titles:
                        found.setdefault(title, page.number + 1)
    return found


def test_sample_manual_comes_out_as_toc_with_physical_pages(samples_dir: Path) -> None:
    front = 4  # cover, copyright (i), preface (ii), contents (iii): see parsers.samples.make_manual
    want = _heading_pages(samples_dir / "manual.pdf")
    assert len(want) == len(_flatten(MANUAL))
    with PdfSource(samples_dir / "manual.pdf") as pdf:
        result = recover_structure(pdf, max_leaf_pages=10)
    assert result.source == "toc"
    assert result.page_offset == front
    got = {(e.title.split(" ", 1)[1] if e.title[:1].isdigit() else e.title): e.page for e in result.entries
           if e.title != "Contents"}
    assert got == want


def test_truncated_document_uses_the_toc_entries_in_range(tmp_path: Path) -> None:
    # An excerpt: the TOC lists 8 chapters but the file stops after chapter 4 (no outline, no labels).
    sections = build(Book(_chapters(8, sub=False)), tmp_path / "full.pdf")
    keep = sections[4].physical - 1
    with pymupdf.open(tmp_path / "full.pdf") as doc:
        doc.select(list(range(keep)))
        doc.save(tmp_path / "cut.pdf")
    with PdfSource(tmp_path / "cut.pdf") as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    got = {e.title: e.page for e in result.entries if e.title != "Table of Contents"}
    assert got == {s.title: s.physical for s in sections[:4]}
    assert result.decisions["toc"]["beyond_last_page"] == 4


def test_toc_line_reader_is_linear_on_merged_index_columns() -> None:
    # Two index columns merged into one line: the leader pattern used to backtrack exponentially here.
    line = "abs rpn operator" + " ." * 40 + " 162 axes, forcing rescaling" + " ." * 40 + " 112 and more text x"
    t0 = time.perf_counter()
    assert parse_toc_line(line) is not None
    assert time.perf_counter() - t0 < 0.5
