"""The headings fallback on a document set right to left (its lines' words read from the right) and on a contents
printed without page numbers before the sections it lists; real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

LONG = "the program reads the chemistry definition and computes the masses of the polymer it is given"
# A paragraph's last line, of a length of its own: where it starts (or ends) is where its words run out.
SHORT = "of the sequence as it was printed in the file it was read from on each of the pages".split()
RIGHT = 520.0

# (words in reading order, font, size, space above): one page's lines, top to bottom.
Row = tuple[str, str, float, float]


def _book(path: Path, pages: list[list[Row]], right_to_left: bool) -> Path:
    """Each line's words laid out from the right edge leftwards when ``right_to_left`` (a head's number at the right
    end, a paragraph's short last line flush right), else from the left margin."""
    doc = pymupdf.open()
    for rows in pages:
        page = doc.new_page(width=612, height=792)
        y = 80.0
        for text, font, size, above in rows:
            y += above + size
            if right_to_left:
                text = " ".join(reversed(text.split()))  # set so that it reads from the right
                x = RIGHT - pymupdf.get_text_length(text, fontname=font, fontsize=size)
            else:
                x = 72.0
            page.insert_text((x, y), text, fontname=font, fontsize=size)
            y += 2
    doc.save(path)
    doc.close()
    return path


def _paragraph(k: int) -> list[Row]:
    last = " ".join(SHORT[:3 + k % (len(SHORT) - 3)])
    return [(LONG, "tiro", 10, 8), (LONG, "tiro", 10, 0), (LONG, "tiro", 10, 0), (last, "tiro", 10, 0)]


TITLES = ["Introduction to the program", "Workbook basics", "File formats", "Configuration options", "Plotting",
          "Troubleshooting"]


def _pages() -> list[list[Row]]:
    return [[(f"{n} {title}", "helv", 16, 20), *_paragraph(4 * n), (f"{n}.1 Overview of {title.split()[0]}", "helv", 13, 14),
             *_paragraph(4 * n + 1), *_paragraph(4 * n + 2), (f"{n}.2 Details of {title.split()[0]}", "helv", 13, 14),
             *_paragraph(4 * n + 3)] for n, title in enumerate(TITLES, start=1)]


def _titles(pdf: Path) -> list[str]:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return [h.title for h in outline_headings(detect_headings(layouts))]


def _expected() -> list[str]:
    return [t for n, title in enumerate(TITLES, start=1)
            for t in (f"{n} {title}", f"{n}.1 Overview of {title.split()[0]}", f"{n}.2 Details of {title.split()[0]}")]


def test_a_document_set_right_to_left_has_its_heads_read_from_the_right(tmp_path: Path) -> None:
    assert _titles(_book(tmp_path / "rtl.pdf", _pages(), right_to_left=True)) == _expected()


def test_a_document_set_left_to_right_keeps_its_reading_order(tmp_path: Path) -> None:
    assert _titles(_book(tmp_path / "ltr.pdf", _pages(), right_to_left=False)) == _expected()


def test_a_contents_without_page_numbers_lists_its_sections_but_does_not_head_them(tmp_path: Path) -> None:
    contents: list[Row] = [("Table of Contents", "hebo", 14, 10)]
    for n, title in enumerate(TITLES, start=1):
        contents += [(f"{n} {title}", "hebo", 10, 10), (f"{n}.1 Overview of {title.split()[0]}", "helv", 9, 0),
                     (f"{n}.2 Details of {title.split()[0]}", "helv", 9, 0)]
    titles = _titles(_book(tmp_path / "listed.pdf", [contents, *_pages()], right_to_left=False))
    assert titles == _expected()  # the contents page's own title goes with the title page's lines


def test_a_letter_set_twice_keeps_the_heads_of_its_first_copy(tmp_path: Path) -> None:
    # Two copies of one short letter among a filing's exhibits: its numbered sections, each over its own text, are set
    # again word for word on later pages; the first copy is no listing of the second.
    sections = ["Introduction", "Specific amendments", "Effect of the amendments", "Representations"]

    def copy(parts: list[list[str]]) -> list[list[Row]]:
        return [[row for k, title in enumerate(part) for row in
                 ((f"{sections.index(title) + 1} {title}", "hebo", 11, 14), *_paragraph(k))] for part in parts]

    pages = copy([sections]) + copy([sections[:2], sections[2:]])
    titles = _titles(_book(tmp_path / "letters.pdf", pages, right_to_left=False))
    first = [f"{n} {title}" for n, title in enumerate(sections, start=1)]
    assert titles == first + first


def test_running_heads_carrying_the_page_number_are_not_heads(tmp_path: Path) -> None:
    # LaTeX's book class: the current section in capitals at the body's size and the printed page number (the
    # physical page plus 12: a volume numbered on from the one before), the page's first line, below the top margin.
    pages = [[(f"{n}.1. OVERVIEW OF {title.split()[0].upper()} {n + 12}", "tiro", 10, 30), *rows]
             for n, (title, rows) in enumerate(zip(TITLES, _pages()), start=1)]
    assert _titles(_book(tmp_path / "folios.pdf", pages, right_to_left=False)) == _expected()


def test_a_style_between_the_chapters_and_their_more_numerous_sections_is_a_level(tmp_path: Path) -> None:
    # Chapters numbered alone (20 pt), each with a section in 14 pt over entries in 12 pt, more numerous than the
    # sections: both unnumbered styles are the chapters' parts.
    def chapter(n: int, title: str) -> list[Row]:
        name = title.split()[0]
        rows = [(f"{n} {title}", "hebo", 20, 20), *_paragraph(n), (f"Using {name}", "hebo", 14, 14), *_paragraph(n + 1)]
        for k, word in enumerate(("Options", "Examples", "Limits")):
            rows += [(f"{word} of {name}", "hebo", 12, 12), *_paragraph(n + k + 2)]
        return rows

    pages = [chapter(n, title) for n, title in enumerate(TITLES, start=1)]
    with PdfSource(_book(tmp_path / "between.pdf", pages, right_to_left=False)) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    titles = [h.title for h in outline_headings(detect_headings(layouts), 10.0)]  # as the structure chain asks
    assert [t for t in titles if t.startswith("Using")] == [f"Using {title.split()[0]}" for title in TITLES]
    assert len([t for t in titles if t.startswith(("Options", "Examples", "Limits"))]) == 3 * len(TITLES)
