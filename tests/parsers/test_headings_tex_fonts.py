"""The headings fallback on TeX output whose bold faces carry no bold flag (dvips, old pdfTeX): a real PDF whose
bold font is embedded under Computer Modern's name (CMBX10) with a descriptor that does not say bold."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource
from tests.pdfs import rename_fonts

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"  # a regular face: MuPDF reads no weight from it
PROSE = "The mesh generator reads the geometry and writes the mesh in the format the solver expects. " * 6


def _article(path: Path) -> Path:
    """Two sections (14 pt), each with two body-size subsubsections set in the font renamed CMBX10, and 10 pt prose."""
    doc = pymupdf.open()
    for s in (1, 2):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), f"{s} Section number {s}", fontname="hebo", fontsize=14)
        y = 110
        for k in (1, 2):
            page.insert_textbox(pymupdf.Rect(72, y, 540, y + 90), PROSE, fontname="helv", fontsize=10)
            page.insert_text((72, y + 112), f"{s}.1.{k} Example of a case {k}", fontname="cmbx", fontfile=SERIF,
                             fontsize=10)
            y += 130
        page.insert_textbox(pymupdf.Rect(72, y, 540, y + 90), PROSE, fontname="helv", fontsize=10)
    rename_fonts(doc, "DejaVu", "/ABCDEF+CMBX10")
    doc.save(path)
    doc.close()
    return path


def test_computer_modern_bold_by_name_gives_body_size_heads(tmp_path: Path) -> None:
    with PdfSource(_article(tmp_path / "cmbx.pdf")) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    heads = [ln for lay in layouts for ln in lay.lines if ln.text.startswith(("1.1.", "2.1."))]
    assert heads and all(ln.font == "CMBX10" and not ln.bold for ln in heads)  # what MuPDF reports: no bold flag
    found = outline_headings(detect_headings(layouts))
    assert [(h.title, h.level) for h in found] == [
        ("1 Section number 1", 1), ("1.1.1 Example of a case 1", 2), ("1.1.2 Example of a case 2", 2),
        ("2 Section number 2", 1), ("2.1.1 Example of a case 1", 2), ("2.1.2 Example of a case 2", 2),
    ]
