"""A watermark set at 45 degrees across a contents page (a vendor's name over every page of a FrameMaker manual,
opensm-um's "Mellanox Technologies") has a box as tall as the dozen entries it crosses: merged by height with them,
it ran those entries into one line and the contents lost them. Diagonal text is left out of a page's lines, in the
compiled line builder and the Python one alike; text turned 90 degrees stays."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from parsers import pdf as pdfmod
from parsers.pdf import PdfSource
from parsers.toc import find_toc


def _watermarked_contents(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 80), "Table of Contents", fontname="hebo", fontsize=14)
    for k in range(20):
        y = 110 + 14 * k
        page.insert_text((100, y), f"{k // 4 + 1}.{k % 4 + 1} Section title number {k + 1}", fontsize=11)
        page.insert_text((495, y), str(3 + k), fontsize=11)
    # The watermark: 50 pt, turned 45 degrees about its start, its box spanning most of the listing.
    page.insert_text((150, 380), "Vendor Technologies", fontsize=50, color=(0.75, 0.75, 0.75),
                     morph=(pymupdf.Point(150, 380), pymupdf.Matrix(45)))
    page.insert_text((560, 700), "Printed sideways", fontsize=9, rotate=90)
    for n in range(24):
        body = doc.new_page(width=612, height=792)
        body.insert_text((72, 72), f"{n + 1}", fontsize=9)
    doc.save(path)
    return path


@pytest.mark.parametrize("compiled", [True, False])
def test_a_diagonal_watermark_does_not_run_contents_entries_together(tmp_path: Path, compiled: bool,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    if not compiled:
        monkeypatch.setattr(pdfmod, "_compiled_lines", None)
    path = _watermarked_contents(tmp_path / "watermarked.pdf")
    with pymupdf.open(path) as doc:  # the fixture is what it claims: a diagonal line crossing the listing
        dirs = [line["dir"] for block in doc[0].get_text("dict")["blocks"] for line in block.get("lines", [])]
        assert any(abs(dx) > 0.5 and abs(dy) > 0.5 for dx, dy in dirs)
    src = PdfSource(str(path))
    lay = src.layout(1)
    assert not any("Vendor" in line.text for line in lay.lines)
    assert any("Printed sideways" in line.text for line in lay.lines)  # turned 90 degrees: kept
    toc = find_toc(src.page_count, src.text, src.layout)
    assert [e.title for e in toc.entries] == [f"{k // 4 + 1}.{k % 4 + 1} Section title number {k + 1}"
                                              for k in range(20)]
    assert [e.page.value for e in toc.entries] == [3 + k for k in range(20)]
