"""A contents older than its body: every section after the first was pushed a page or more further on than the contents
says, so no single offset holds for two entries running, and the listed page names the title only in passing. An
entry goes to the first page after the previous one that heads its title with its number; a title the contents lists
twice ("1.2 String", "2.2 String") is told apart by that number."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 595, 842
PROSE = "Every value is encoded with a tag, a length and the content, in that order, and decoded the same way. " * 4
PASSING = {13: "A sequence may hold a string as well. "}  # a page that names a later section's title in passing
# (level, title, page the contents lists, page whose folio heads it)
TREE = [(1, "1 Primitive Types", 2, 2), (2, "1.1 Integer", 2, 3), (2, "1.2 String", 3, 5), (2, "1.3 Real", 4, 8),
        (1, "2 Constructed Types", 5, 10), (2, "2.1 Sequence", 5, 12), (2, "2.2 String", 6, 15),
        (2, "2.3 Choice", 7, 17)]
LAST = 18


def _document(path: Path) -> Path:
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 100), "Contents", fontname="hebo", fontsize=20)
    for i, (level, title, listed, _) in enumerate(TREE):
        y = 150 + 18 * i
        toc.insert_text((72 if level == 1 else 96, y), title, fontsize=11)
        toc.insert_text((500, y), str(listed), fontsize=11)
    heads = {page: (level, title) for level, title, _, page in TREE}
    for folio in range(2, LAST + 1):
        page = doc.new_page(width=W, height=H)
        top = 100
        if folio in heads:
            level, title = heads[folio]
            page.insert_text((72, top), title, fontname="hebo", fontsize=18 if level == 1 else 14)
            top += 30
        page.insert_textbox(pymupdf.Rect(72, top, 520, 700), PASSING.get(folio, "") + PROSE, fontsize=11)
        page.insert_text((300, 800), str(folio), fontsize=10)
    doc.save(path)
    return path


def test_entries_of_a_stale_contents_go_to_their_numbered_headings(tmp_path: Path) -> None:
    with PdfSource(_document(tmp_path / "s.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (level, title, page) for level, title, _, page in TREE]
