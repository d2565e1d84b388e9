"""The headings fallback on books whose contents page was not read as a contents: its lines are not heads, and the
numbered clauses of a licence printed as an appendix do not become chapters; real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "The program reads the chemistry definition and computes the masses of the polymer sequence it is given."

# (text, font, size, space above): one page's lines, top to bottom.
Row = tuple[str, str, float, float]


def _book(path: Path, pages: list[list[Row]]) -> Path:
    doc = pymupdf.open()
    for rows in pages:
        page = doc.new_page(width=612, height=792)
        y = 80.0
        for text, font, size, above in rows:
            y += above + size
            page.insert_text((72, y), text, fontname=font, fontsize=size)
            y += 2
    doc.save(path)
    doc.close()
    return path


def _prose(n: int = 4) -> list[Row]:
    return [(PROSE, "tiro", 10, 8 if i == 0 else 0) for i in range(n)]


def _titles(pdf: Path) -> list[str]:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return [h.title for h in outline_headings(detect_headings(layouts))]


CHAPTERS = ["Generalities", "Basics in Polymer Chemistry", "Definition of Chemistries", "A Powerful Editor",
            "Moving to Python 3", "Data Customizations"]


def _chapters(first: int) -> list[list[Row]]:
    """One page per chapter, its head in 18 pt and two numbered sections in 14 pt; the first on page ``first``."""
    return [[(f"{n} {title}", "helv", 18, 20), *_prose(), (f"{n}.1 Overview of the {title.split()[0]}", "helv", 14, 16),
             *_prose(), (f"{n}.2 Details of the {title.split()[0]}", "helv", 14, 16), *_prose()]
            for n, title in enumerate(CHAPTERS, start=1)]


def test_a_contents_pages_lines_are_not_heads(tmp_path: Path) -> None:
    # A contents set without leaders, its chapter rows larger than the body (DocBook through dblatex): each row reads
    # as a numbered head ending in a page number, and the chapters' titles were found twice.
    contents = [("Contents", "helv", 22, 20), ("Preface v", "helv", 14, 16)]
    contents += [(f"{n} {title} {3 + 4 * n}", "helv", 14, 10) for n, title in enumerate(CHAPTERS[:4], start=1)]
    overleaf = [(f"{n} {title} {3 + 4 * n}", "helv", 14, 10) for n, title in enumerate(CHAPTERS[4:], start=5)]
    pages = [[("A User Manual", "helv", 24, 40)], contents, overleaf, [("Preface", "helv", 18, 20), *_prose()],
             *_chapters(5)]
    titles = _titles(_book(tmp_path / "contents.pdf", pages))
    assert not {t for t, _, _, _ in contents + overleaf} & set(titles)
    # A head ending in a number of its own is no contents line: one to a page.
    assert [t for t in titles if "." not in t.split()[0] and t != "Preface"] == [
        f"{n} {title}" for n, title in enumerate(CHAPTERS, start=1)]


def test_a_licences_numbered_clauses_do_not_become_chapters(tmp_path: Path) -> None:
    # The GPL printed as an appendix: its clauses "0. Definitions." ... set like the book's chapters, counting again
    # from 0 after them; the book numbers its chapters without a trailing dot.
    clauses = ["Definitions.", "Source Code.", "Basic Permissions.", "Protecting Users' Legal Rights.",
               "Conveying Verbatim Copies.", "Conveying Modified Source Versions."]
    licence = [[("A GNU General Public License version 3", "helv", 18, 20), *_prose()]]
    licence += [[(f"{2 * k + i}. {clauses[2 * k + i]}", "helv", 18, 20) if j == 0 else row
                 for i in range(2) for j, row in enumerate([("", "", 0, 0), *_prose()])] for k in range(3)]
    titles = _titles(_book(tmp_path / "licence.pdf", [[("A User Manual", "helv", 24, 40)], *_chapters(2), *licence]))
    assert [t for t in titles if "." not in t.split()[0]] == [
        *(f"{n} {title}" for n, title in enumerate(CHAPTERS, start=1)), "A GNU General Public License version 3"]
    assert not [t for t in titles if t.endswith(".")]


def _back_contents(path: Path, index: bool) -> Path:
    rows = [f"{n} {title} . . . . . . . . . . . . . . . . {4 * n}" for n, title in enumerate(CHAPTERS, start=1)]
    back = [[("Concept Index", "helv", 18, 20), *[(f"{w}, polymer . . . . . . . . 12", "tiro", 10, 2) for w in
                                                  ("atoms", "cleavage", "formula", "masses", "sequence")]]] if index else []
    back.append([("Table of Contents", "helv", 18, 20), *[(row, "tiro", 10, 4) for row in rows]])
    return _book(path, [[("A User Manual", "helv", 24, 40)], *_chapters(2), *back])


def test_a_contents_printed_after_the_index_is_no_section(tmp_path: Path) -> None:
    # Texinfo prints its contents after the indexes when @contents ends the file; its outline does not list it.
    titles = _titles(_back_contents(tmp_path / "texinfo.pdf", index=True))
    assert titles[-1] == "Concept Index" and "Table of Contents" not in titles
    # LaTeX's \tableofcontents at the end, with no index before it: its outline lists it.
    assert _titles(_back_contents(tmp_path / "latex.pdf", index=False))[-1] == "Table of Contents"


def test_a_contents_with_chapter_and_section_rows_in_two_styles_gives_no_heads(tmp_path: Path) -> None:
    # Chapter rows at 14 pt, section rows at 12 pt, alternating: two of each style to a page.
    rows = [row for n, title in enumerate(CHAPTERS, start=1) for row in (
        (f"{n} {title} {3 + 4 * n}", "helv", 14, 10), (f"{n}.1 Overview of the {title.split()[0]} {4 + 4 * n}", "helv", 12, 4))]
    pages = [[("A User Manual", "helv", 24, 40)], [("Contents", "helv", 22, 20), *rows[:4]], rows[4:8], rows[8:],
             *_chapters(5)]
    titles = _titles(_book(tmp_path / "two-styles.pdf", pages))
    assert not {t for t, _, _, _ in rows} & set(titles)
    assert [t for t in titles if "." not in t.split()[0]] == [f"{n} {title}" for n, title in enumerate(CHAPTERS, start=1)]
