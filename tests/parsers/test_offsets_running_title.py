"""A chapter whose opening page sets a longer title than the contents' ("Fourier applications and the Laplace
transform" for "2 Fourier and Laplace") while its later pages' running head prints the short one: the listed page
stays. The running head names the chapter on every page but its first, so it is no evidence of where the chapter
starts."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The transform maps a function of time onto a function of frequency, and back again, without loss. " * 5
# folio -> (chapter opening lines, running head)
PAGES = {1: (["Chapter 1", "Series"], None), 2: ([], "CHAPTER 1. SERIES"), 3: (["1.1 Convergence"], None),
         4: (["Chapter 2", "Fourier applications and the", "Laplace transform"], None),
         5: ([], "CHAPTER 2. FOURIER AND LAPLACE"), 6: (["2.1 Convolution"], "CHAPTER 2. FOURIER AND LAPLACE"),
         7: ([], "CHAPTER 2. FOURIER AND LAPLACE"), 8: (["Chapter 3", "Tables"], None)}
LISTED = [(1, "1 Series", 1), (2, "1.1 Convergence", 3), (1, "2 Fourier and Laplace", 4), (2, "2.1 Convolution", 6),
          (1, "3 Tables", 8)]


def _document(path: Path) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (level, title, folio) in enumerate(LISTED):
        y = 150 + 18 * i
        toc.insert_text((72 if level == 1 else 96, y), title, fontsize=11)
        toc.insert_text((500, y), str(folio), fontsize=11)
    for folio, (heads, running) in PAGES.items():
        page = doc.new_page(width=W, height=H)
        if running:
            page.insert_text((72, 50), str(folio), fontsize=10)
            page.insert_text((150, 50), running, fontsize=10)
        else:
            page.insert_text((300, 800), str(folio), fontsize=10)
        y = 120
        for head in heads:
            page.insert_text((72, y), head, fontname="hebo", fontsize=14 if head[:1].isdigit() else 22)
            y += 30
        page.insert_textbox(pymupdf.Rect(72, y + 10, 520, 700), PROSE, fontsize=11)
    doc.save(path)
    return path


def test_a_running_head_does_not_move_a_chapter_to_its_second_page(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "r.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (level, title, folio + 1) for level, title, folio in LISTED]


def _early_listing(path: Path) -> Path:
    """Chapter 2 listed a page before its heading, which its running heads repeat word for word (the folio at the
    opening page's foot, beside the running head on the later pages)."""
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (title, folio) in enumerate([("1 Series", 1), ("2 Sums", 2), ("3 Tables", 6)]):
        toc.insert_text((72, 150 + 18 * i), title, fontsize=11)
        toc.insert_text((500, 150 + 18 * i), str(folio), fontsize=11)
    for folio in range(1, 7):
        page = doc.new_page(width=W, height=H)
        if folio in (1, 3, 6):
            head = {1: "Chapter 1. Series", 3: "Chapter 2. Sums", 6: "Chapter 3. Tables"}[folio]
            page.insert_text((72, 80), head, fontname="hebo", fontsize=22)
            page.insert_textbox(pymupdf.Rect(72, 120, 520, 700), PROSE, fontsize=11)
            page.insert_text((300, 800), str(folio), fontsize=10)
        else:
            page.insert_text((72, 50), str(folio), fontsize=10)
            page.insert_text((150, 50), "Chapter 1. Series" if folio == 2 else "Chapter 2. Sums", fontsize=10)
            page.insert_textbox(pymupdf.Rect(72, 120, 520, 700), PROSE, fontsize=11)
    doc.save(path)
    return path


def test_a_chapter_heading_its_running_heads_repeat_still_places_the_chapter(tmp_path: Path) -> None:
    with PdfSource(_early_listing(tmp_path / "e.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [("1 Series", 2), ("2 Sums", 4), ("3 Tables", 7)]
