"""A contents set in two columns: the text layer merges the entries of both columns that share a baseline
into one line; they are read column by column, and a one-column contents is never split."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import chapter_pages

CHAPTERS = ["Introduction", "Basic Drawing Statements", "The Workflow", "Curves", "Linear Equations", "Expressions",
            "Variables", "Text and Graphics", "Advanced Graphics", "Macros", "Loops", "Reading Files"]


def _entry(page: pymupdf.Page, x: float, y: float, title: str, printed: int, right: float) -> None:
    page.insert_text((x, y), title, fontname="helv", fontsize=10)
    width = pymupdf.get_text_length(str(printed), fontname="helv", fontsize=10)
    page.insert_text((right - width, y), str(printed), fontname="helv", fontsize=10)


def _book(path: Path, two_columns: bool) -> Path:
    """Title page, one contents page, then a chapter of 3 pages each (printed page 1 = physical page 3)."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((90, 200), "The Drawing Language Manual", fontsize=24)
    toc = doc.new_page(width=612, height=792)
    toc.insert_text((90, 70), "Contents", fontname="hebo", fontsize=16)
    rows = []
    for c, title in enumerate(CHAPTERS, start=1):
        rows.append((f"{c} {title}", 1 + 3 * (c - 1)))
        rows.append((f"{c}.1 More about {title.lower()}", 2 + 3 * (c - 1)))
    half = len(rows) // 2
    for i, (title, printed) in enumerate(rows):
        if two_columns:
            col, row = divmod(i, half)
            _entry(toc, 90 + 228 * col, 110 + 16 * row, title, printed, 294 + 228 * col)
        else:
            _entry(toc, 90, 110 + 16 * i, title, printed, 522)
    toc.insert_textbox(pymupdf.Rect(90, 560, 522, 700), "This manual describes a language for drawing pictures. " * 6,
                       fontname="helv", fontsize=10)  # full-width prose under the contents
    chapter_pages(doc, [[f"{c} {title}", f"{c}.1 More about {title.lower()}", ""]
                        for c, title in enumerate(CHAPTERS, start=1)])
    doc.save(path)
    doc.close()
    return path


def _entries(path: Path) -> list[tuple[str, int]]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, llm_hook=lambda p: ([], {"reason": "no model"}))
    assert result.source == "toc"
    return [(e.title, e.page) for e in result.entries]


def test_two_column_contents_is_read_column_by_column(tmp_path: Path) -> None:
    got = _entries(_book(tmp_path / "two.pdf", two_columns=True))
    want = []
    for c, title in enumerate(CHAPTERS, start=1):
        want += [(f"{c} {title}", 3 + 3 * (c - 1)), (f"{c}.1 More about {title.lower()}", 4 + 3 * (c - 1))]
    assert got == want


def test_one_column_contents_with_far_right_numbers_is_not_split(tmp_path: Path) -> None:
    got = _entries(_book(tmp_path / "one.pdf", two_columns=False))
    assert [t for t, _ in got] == [t for c, title in enumerate(CHAPTERS, start=1)
                                   for t in (f"{c} {title}", f"{c}.1 More about {title.lower()}")]


def test_lines_without_word_boxes_are_kept_whole() -> None:
    from parsers.layout import Line, Word
    from parsers.toc import _two_columns

    lines = []
    for i in range(10):
        y = 100 + 14 * i
        words = [Word(f"Left{i}", 90, y, 150, y + 10), Word(str(i + 1), 280, y, 290, y + 10),
                 Word(f"Right{i}", 330, y, 390, y + 10), Word(str(i + 20), 510, y, 520, y + 10)]
        lines.append(Line(" ".join(w.text for w in words), 90, y, 520, y + 10, 10.0, words=words))
    lines.insert(5, Line("a line from a layer without word boxes", 90, 170, 520, 180, 10.0))
    out = _two_columns(lines, 612)
    assert out is not None and "a line from a layer without word boxes" in [ln.text for ln in out]
    assert [ln.text for ln in out[:5]] == [f"Left{i} {i + 1}" for i in range(5)]
