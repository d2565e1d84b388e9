"""A two-column contents whose right column wraps a title onto the baseline of a bold chapter entry in the left one:
the text layer merges both into one (bold) line, and the right part, set in the regular weight, must still join the
title it continues."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import chapter_pages

CHAPTERS = ["Introduction", "Basic Drawing Statements", "The Workflow", "Curves", "Linear Equations", "Expressions",
            "Variables", "Text and Graphics"]
LONG = "Clipping and Low-Level Drawing Commands"  # as the section heads it


def _book(path: Path) -> Path:
    """Title page, a two-column contents, then 3 pages a chapter (printed page 1 = physical page 3). The left column's
    rows alternate chapter (bold) and section; the right column's second entry wraps its title onto the third row,
    beside a bold chapter entry."""
    doc = pymupdf.open()
    doc.new_page(width=612, height=792).insert_text((90, 200), "The Drawing Language Manual", fontsize=24)
    toc = doc.new_page(width=612, height=792)
    toc.insert_text((90, 70), "Contents", fontname="hebo", fontsize=16)
    rows_right: list[tuple[str, int | None]] = [("5 Linear Equations", 13), ("5.1 Clipping and Low-Level Draw-", None),
                                                ("ing Commands", 14), ("6 Expressions", 16), ("7 Variables", 19),
                                                ("8 Text and Graphics", 22)]
    lefts = []
    for c, t in enumerate(CHAPTERS[:4], 1):
        lefts += [(f"{c} {t}", 1 + 3 * (c - 1), True), (f"{c}.1 More about {t.lower()}", 2 + 3 * (c - 1), False)]
    for i in range(max(len(lefts), len(rows_right))):
        y = 110 + 16 * i
        if i < len(lefts):
            title, printed, bold = lefts[i]
            toc.insert_text((90, y), title, fontname="hebo" if bold else "helv", fontsize=10)
            toc.insert_text((294 - pymupdf.get_text_length(str(printed), fontsize=10), y), str(printed),
                            fontname="hebo" if bold else "helv", fontsize=10)
        if i < len(rows_right):
            title, printed = rows_right[i]
            toc.insert_text((330 if title[0].isdigit() else 345, y), title, fontname="helv", fontsize=10)
            if printed is not None:
                toc.insert_text((522 - pymupdf.get_text_length(str(printed), fontsize=10), y), str(printed),
                                fontname="helv", fontsize=10)
    chapter_pages(doc, [[f"{c} {title}", f"{c}.1 {LONG}" if c == 5 else f"{c}.1 More about {title.lower()}", ""]
                        for c, title in enumerate(CHAPTERS, start=1)])
    doc.save(path)
    doc.close()
    return path


def test_a_wrapped_title_beside_a_bold_entry_is_joined(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "b.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    got = [(e.title, e.page) for e in result.entries]
    # One entry, on the section's page (printed 14, physical 16); the line break's hyphen stays as the contents set it.
    assert [(t, p) for t, p in got if t.startswith("5.1")] == [("5.1 Clipping and Low-Level Draw- ing Commands", 16)]
    assert all(not t.startswith("ing") for t, _ in got)
