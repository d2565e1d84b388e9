"""A contents set without a page break after it ends atop the page its first chapter opens on (the SELinux CIL
reference guide shows the kind): the rows there are the listing's last ones, not lost. The expected rows come from the
construction below, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.toc import find_toc

W, H = 612, 792
PROSE = ("The language is declarative and removes the ordering constraints of the earlier languages, so that a "
         "policy may be processed in source form as a single compilation unit without any module compilation. ")
STATEMENTS = [f"statement{chr(97 + i)}{chr(97 + j)}" for i in range(4) for j in range(12)]  # 48 reference entries


def _row(page: pymupdf.Page, y: float, title: str, number: int, x: float = 90) -> None:
    page.insert_text((x, y), title, fontname="helv", fontsize=10)
    page.insert_text((300, y), " ." * 45, fontsize=10)
    num = str(number)
    page.insert_text((540 - pymupdf.get_text_length(num, fontsize=10), y), num, fontsize=10)


def build(path: Path, tail_rows: int) -> list[str]:
    """Contents on pages 1-2, its last ``tail_rows`` rows atop page 3 over the first chapter; returns the titles."""
    rows = [(f"Reference {s}", 2 + k // 3) for k, s in enumerate(STATEMENTS)]
    doc = pymupdf.open()
    first, second, third = (doc.new_page(width=W, height=H).number for _ in range(3))
    split = len(rows) - tail_rows
    doc[first].insert_text((72, 70), "Contents", fontname="hebo", fontsize=16)
    _row(doc[first], 100, "Introduction", 1, x=72)
    for page, chunk, top in ((first, rows[:split // 2], 116), (second, rows[split // 2:split], 72),
                             (third, rows[split:], 72)):
        for i, (title, number) in enumerate(chunk):
            _row(doc[page], top + 14 * i, title, number)
    y = 72 + 14 * tail_rows + 30
    doc[third].insert_text((72, y), "Introduction", fontname="hebo", fontsize=14)
    doc[third].insert_textbox(pymupdf.Rect(72, y + 14, W - 72, H - 60), PROSE * 14, fontname="helv", fontsize=10)
    for n in range(3):
        doc[n].insert_text((W / 2, H - 40), str(n + 1 if n == 2 else "ii" if n else "i"), fontsize=9)
    for s in STATEMENTS:
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 90), f"Reference {s}", fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, 110, W - 72, 400), PROSE, fontname="helv", fontsize=10)
        page.insert_text((W / 2, H - 40), str(page.number - 1), fontsize=9)
    doc.save(path)
    return ["Introduction"] + [t for t, _ in rows]


def test_the_listing_s_last_rows_atop_the_first_chapter_s_page_are_read(tmp_path: Path) -> None:
    path = tmp_path / "tail.pdf"
    titles = build(path, tail_rows=4)
    with PdfSource(path) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert toc.pages == [1, 2, 3]
    assert [e.title for e in toc.entries] == titles
