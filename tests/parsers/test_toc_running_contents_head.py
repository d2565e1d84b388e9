"""A contents spread over several pages whose running head ("4 CONTENTS", "CONTENTS 5") sits below a deep top margin,
in the entries' own size: it is the page's head, not one more entry."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "The filter is applied to every instance before the classifier sees it, and the result is kept. " * 8


def test_a_running_contents_head_is_not_an_entry(tmp_path: Path) -> None:
    chapters = [f"{c} {name}" for c, name in enumerate(
        ["Launching", "Preprocessing", "Classification", "Clustering", "Association", "Selection"], 1)]
    rows = []
    for c, chapter in enumerate(chapters, 1):
        rows.append((chapter, 3 * c - 2))
        rows += [(f"{c}.{k} Section {k} of {chapter.split()[1]}", 3 * c - 2 + k) for k in (1, 2)]
    doc = pymupdf.open()
    per_page = 6
    pages = [rows[i:i + per_page] for i in range(0, len(rows), per_page)]
    for n, chunk in enumerate(pages):
        page = doc.new_page(width=W, height=H)
        if n == 0:
            page.insert_text((100, 104), "Contents", fontname="hebo", fontsize=20)
        else:  # the running head, at 12 % of the page, in the entries' size
            page.insert_text((100, 104), f"{n + 1} CONTENTS" if n % 2 else f"CONTENTS {n + 1}", fontsize=10)
        for i, (title, num) in enumerate(chunk):
            y = 140 + 14 * i
            page.insert_text((100 if title.split()[0].isdigit() else 115, y), title, fontsize=10)
            page.insert_text((300, y), " ." * 40, fontsize=10)
            page.insert_text((480, y), str(num), fontsize=10)
    for p in range(1, 19):
        page = doc.new_page(width=W, height=H)
        title = next((t for t, num in rows if num == p), None)
        if title:
            page.insert_text((100, 120), title, fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(100, 140, 500, 760), PROSE, fontsize=10)
        page.insert_text((W / 2, H - 40), str(p), fontsize=9)
    doc.save(tmp_path / "c.pdf")
    with PdfSource(tmp_path / "c.pdf") as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    titles = [e.title for e in result.entries]
    assert not any("CONTENTS" in t for t in titles)
    assert titles == [t for t, _ in rows]
