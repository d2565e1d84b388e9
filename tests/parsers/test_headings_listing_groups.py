"""The headings fallback on a manual whose alphabetical listing ("List of macros") is grouped by letters hung in the
margin before each group's first entry, as its outline lists them; real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The macros draw circuit elements with pic, and each element is placed along a line segment."
MACROS = {"A": ["above_", "amp(linespec,size)", "antenna(at location)"], "B": ["b_", "battery(linespec,n)"],
          "C": ["c_fet(linespec,R,P)", "capacitor(linespec)"], "D": ["d_fet(linespec)", "diode(linespec)"],
          "E": ["ebox(linespec)"], "F": ["f_box(boxspecs,text)", "fuse(linespec)"]}


def _listing_manual(path: Path, hung: bool) -> Path:
    """Three numbered sections, then "4 List of macros": entries at x 91 with their library and description, each
    group's letter (when ``hung``) 20 pt to the left of its first entry; two groups a page."""
    doc = pymupdf.open()
    for n, title in enumerate(["Introduction", "Using the macros", "Writing macros"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((91, 100), f"{n} {title}", fontname="hebo", fontsize=14)
        for i in range(20):
            page.insert_text((91, 130 + 13 * i), PROSE, fontname="tiro", fontsize=10)
    letters = list(MACROS)
    for k in range(0, len(letters), 2):
        page = doc.new_page(width=612, height=792)
        y = 100.0
        if k == 0:
            page.insert_text((91, y), "4 List of macros", fontname="hebo", fontsize=14)
            page.insert_text((91, y + 24), "The library in which each macro is found is given.", fontname="tiro", fontsize=10)
            y += 48
        for letter in letters[k:k + 2]:
            for j, macro in enumerate(MACROS[letter]):
                if j == 0 and hung:
                    page.insert_text((71, y), letter, fontname="tiro", fontsize=10)
                page.insert_text((91, y), macro, fontname="tiro", fontsize=10)
                page.insert_text((235, y), "cct  draws the element along the current direction", fontname="tiro",
                                 fontsize=10)
                page.insert_text((271, y + 12), "(Section 4.2) with the given spacing", fontname="tiro", fontsize=10)
                y += 30
    page = doc.new_page(width=612, height=792)
    page.insert_text((91, 100), "References", fontname="hebo", fontsize=14)
    page.insert_text((91, 130), "[1] B. W. Kernighan. PIC - a graphics language for typesetting.", fontname="tiro",
                     fontsize=10)
    doc.save(path)
    doc.close()
    return path


def test_letters_hung_before_a_listings_groups_become_its_children(tmp_path: Path) -> None:
    with PdfSource(_listing_manual(tmp_path / "hung.pdf", hung=True)) as src:
        result = recover_structure(src, max_leaf_pages=0)
    assert result.source == "headings"
    got = [(e.level, e.title, e.page) for e in result.entries]
    assert got[3] == (1, "4 List of macros", 4)
    assert got[4:-1] == [(2, "A", 4), (2, "B", 4), (2, "C", 5), (2, "D", 5), (2, "E", 6), (2, "F", 6)]
    assert got[-1] == (1, "References", 7)


def test_a_listing_without_letters_gets_no_children(tmp_path: Path) -> None:
    with PdfSource(_listing_manual(tmp_path / "plain.pdf", hung=False)) as src:
        result = recover_structure(src, max_leaf_pages=0)
    assert [e.title for e in result.entries] == ["1 Introduction", "2 Using the macros", "3 Writing macros",
                                                 "4 List of macros", "References"]
