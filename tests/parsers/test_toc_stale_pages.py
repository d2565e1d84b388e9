"""A printed contents whose page numbers no longer match the body (figures moved after it was printed): an entry goes
to the page that sets its numbered title as a heading, not to the listed page that merely mentions the title; and a
listed page holding only a figure is the figure's, not the section's that opens on the next page."""

from __future__ import annotations

from pathlib import Path

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import contents_book

PROSE = ("The viewer shows the slices side by side, and every change to one of them is applied to the others at once, "
         "which keeps the three orientations in step while the user works through the study. ")


def _book(path: Path, body: list[list[str]], rows: list[tuple[str, str]]) -> Path:
    return contents_book(path, rows, body)


def test_a_stale_page_number_gives_way_to_the_numbered_heading(tmp_path: Path) -> None:
    body = [
        ["!Chapter 1", "!Getting Started", PROSE * 3],
        [PROSE * 4],
        ["!Chapter 2", "!Segmentation", PROSE * 3],  # printed page 3, physical 4
        [PROSE * 4],
        [PROSE + "After segmentation the mask can be edited by hand. " + PROSE],  # printed 5: the listed page
        ["!Chapter 3", "!Safety Rules", PROSE * 3],
        [PROSE * 4],
    ]
    pdf_path = _book(tmp_path / "b.pdf", body, [("1 Getting Started", "1"), ("2 Segmentation", "5"),
                                                 ("3 Safety Rules", "6")])
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [
        ("1 Getting Started", 2), ("2 Segmentation", 4), ("3 Safety Rules", 7)]


def test_a_listed_page_holding_only_a_figure_belongs_to_the_section_before(tmp_path: Path) -> None:
    body = [
        ["!1 Getting Started", PROSE * 3],
        [PROSE * 4],
        ["Figure 1.2: A rotated image."],  # printed 3, listed for chapter 2: a full-page figure of chapter 1
        ["!2 Imaging", PROSE * 3],
        [PROSE * 4],
        ["!3 Safety Rules", PROSE * 3],
    ]
    pdf_path = _book(tmp_path / "f.pdf", body, [("1 Getting Started", "1"), ("2 Imaging", "3"),
                                                 ("3 Safety Rules", "6")])
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [
        ("1 Getting Started", 2), ("2 Imaging", 5), ("3 Safety Rules", 7)]


def test_a_chapters_own_listing_is_not_its_sections_heading(tmp_path: Path) -> None:
    """A chapter opening with its own short contents ("2.1 Segmentation 5") does not pull the section there."""
    body = [
        ["!1 Getting Started", PROSE * 3],
        ["!2 Working", "2.1 Segmentation 3", PROSE * 2],
        ["!2.1 Segmentation", PROSE * 3],
        [PROSE * 4],
    ]
    pdf_path = _book(tmp_path / "m.pdf", body, [("1 Getting Started", "1"), ("2 Working", "2"),
                                                 ("2.1 Segmentation", "4")])
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [
        ("1 Getting Started", 2), ("2 Working", 3), ("2.1 Segmentation", 4)]


def test_a_chapter_headed_with_its_number_spelt_out_stays_on_its_page(tmp_path: Path) -> None:
    """Sphinx heads a chapter "CHAPTER" / "TWO" / its title; the running foot "Chapter 2. Daily Operation" on the page
    after it reads as a numbered heading, but the listed page sets the title as a line of its own."""
    body = [
        ["!CHAPTER", "!ONE", "!GETTING STARTED", PROSE * 2],
        [PROSE * 3 + "\n\nChapter 1. Getting Started"],
        ["!CHAPTER", "!TWO", "!DAILY OPERATION", PROSE * 2],
        [PROSE * 3 + "\n\nChapter 2. Daily Operation"],
        ["!CHAPTER", "!THREE", "!SAFETY RULES", PROSE * 2],
    ]
    pdf_path = _book(tmp_path / "s.pdf", body, [("1 Getting Started", "1"), ("2 Daily Operation", "3"),
                                                 ("3 Safety Rules", "5")])
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [
        ("1 Getting Started", 2), ("2 Daily Operation", 4), ("3 Safety Rules", 6)]


def test_a_heading_set_a_word_a_line_is_found_and_the_running_head_after_it_is_not(tmp_path: Path) -> None:
    """A justified heading in a narrow box comes out one word a line ("6.7" / "Colour" / "Specification" ...); the
    next page's running head repeats it in capitals with the folio ("6.7. COLOUR SPECIFICATION BOX (...) 5")."""
    title = "Colour Specification box (child of JP2 Header box)"
    body = [
        ["!6 Boxes", PROSE * 3],
        [PROSE * 2, "!6.7", *[f"!{w}" for w in title.split()]],  # printed 2: the heading, a word a line
        [f"=6.7. {title.upper()} 3", PROSE * 3],
        ["!7 Tests", PROSE * 3],
    ]
    pdf_path = _book(tmp_path / "w.pdf", body, [("6 Boxes", "1"), (f"6.7 {title}", "2"), ("7 Tests", "4")])
    with PdfSource(pdf_path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [(e.title, e.page) for e in result.entries] == [("6 Boxes", 2), (f"6.7 {title}", 3), ("7 Tests", 5)]
