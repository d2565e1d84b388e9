"""Tree titles spell out ligature characters (U+FB00-FB06): TeX's fonts set "ﬁ" and "ﬂ" as one glyph, text extraction
passes the ligature character on, and a title like "Writing your ﬁrst mail" is then copied, grepped and matched
as something other than the words it shows. The page text keeps what the PDF holds (search folds both alike)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pipeline import index_document


def _titles(node) -> list[str]:
    return [n.title for n in node.walk()][1:]


def test_outline_titles_lose_their_ligature_characters(tmp_path: Path) -> None:
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_text((72, 100), f"Page {i + 1} of the guide, with enough words to read.", fontsize=11)
    doc.set_toc([[1, "Writing your \ufb01rst mail", 1], [2, "Oﬄine \ufb02ags and e\ufb00ects", 2],
                 [1, "Con\ufb01guration", 3]])
    path = tmp_path / "ligatures.pdf"
    doc.save(path)
    index = index_document(path, "ligatures")
    assert _titles(index.tree.root) == ["Writing your first mail", "Offline flags and effects", "Configuration"]
    assert all("\ufb01" not in row.title for row in index.nodes)  # the nodes table is built from the same titles
