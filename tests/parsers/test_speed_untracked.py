"""A laid-out page's lines and word boxes are left out of the cycle collector's walks (parsers/layout_lines.pyx):
they hold only text, numbers and flags, so no cycle can pass through them, and on a contents page set as TeX sets
it (each leader dot a word of its own) they were thousands of objects every collection walked while the document
was read."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pymupdf

from parsers import pdf as pdfmod
from parsers.pdf import PdfSource


def _tex_contents(path: Path) -> Path:
    """A contents page whose entries, leader dots and page numbers are placed glyph run by glyph run."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for row in range(40):
        y = 72 + 16 * row
        x = 72.0
        for word in (f"{row + 1}", "Section", f"title{row}"):
            page.insert_text((x, y), word, fontsize=10, fontname="hebo" if row % 8 == 0 else "helv")
            x += pymupdf.get_text_length(word, fontsize=10) + 4
        for k in range(int((500 - x) / 6)):
            page.insert_text((x + 6 * k, y), ".", fontsize=10)
        page.insert_text((510, y), str(3 * row + 1), fontsize=10)
    doc.save(path)
    return path


def test_laid_out_lines_and_their_words_are_not_walked_by_the_cycle_collector(tmp_path: Path) -> None:
    path = _tex_contents(tmp_path / "contents.pdf")
    with PdfSource(path) as pdf:
        pdf.text(1)
        lay = pdf.layout(1)
        words = [w for line in lay.lines for w in line.words]
        assert len(lay.lines) == 40 and len(words) > 40 * 60  # every leader dot a word
        assert lay.lines[8].bold and lay.lines[0].words[-1].text == "1"
        assert not any(map(gc.is_tracked, lay.lines))
        assert not any(map(gc.is_tracked, words))
        # The same lines and words as the Python functions make (which leave them tracked).
        data = pdf.doc[0].get_textpage(flags=pymupdf.TEXTFLAGS_TEXT).extractDICT()
        python = pdfmod.merge_visual_lines(pdfmod._fragments(data))
        assert [(ln.text, ln.x0, ln.y1, ln.size, ln.bold, [vars(w) for w in ln.words]) for ln in python] == \
            [(ln.text, ln.x0, ln.y1, ln.size, ln.bold, [vars(w) for w in ln.words]) for ln in lay.lines]
        assert all(map(gc.is_tracked, python))
        # OCR and the contents reader give a line other words or text later: words and strings too.
        line = lay.lines[1]
        line.words = line.words[:2]
        line.text = " ".join(w.text for w in line.words)
        gc.collect()
        assert line.text == "2 Section" and [w.text for w in line.words] == ["2", "Section"]
        # Untracked, they are still freed with their page: reference counting needs no collector.
        gone = [weakref.ref(lay.lines[0]), weakref.ref(lay.lines[-1])]
        del lay, words, python, line
        pdf._layout.clear()
        assert [ref() for ref in gone] == [None, None]

