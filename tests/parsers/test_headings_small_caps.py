"""The headings fallback on amsart's layout: numbered sections centred at body size in a small-capitals font (whose
text reads in lower case, "1. Introduction"), numbered subsections run in ("1.1. A first example. We ..."), and an
unnumbered bold run-in head opening its paragraph, which is no section."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import rename_fonts

SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"  # renamed below to Computer Modern's small capitals
PROSE = "The proof system keeps a list of goals and refines each of them by the rules until none is left. " * 4
SECTIONS = ["Introduction", "Getting started", "Propositional logic", "Predicate logic", "Induction"]


def _tutorial(path: Path) -> Path:
    doc = pymupdf.open()
    for s, title in enumerate(SECTIONS, start=1):
        page = doc.new_page(width=612, height=792)
        if s == 1:
            page.insert_text((150, 80), "A TUTORIAL FOR THE PROOF SYSTEM", fontname="hebo", fontsize=12)
        head = f"{s}. {title}"
        page.insert_text((306 - 3.5 * len(head), 130), head, fontname="cmcsc", fontfile=SERIF, fontsize=12)
        y = 145.0
        page.insert_textbox(pymupdf.Rect(86, y, 526, y + 90), PROSE, fontname="tiro", fontsize=12)
        y += 110
        for k in (1, 2):
            page.insert_text((86, y), f"{s}.{k}. A worked example. We now show how the goal is split into two.",
                             fontname="tiro", fontsize=12)
            page.insert_textbox(pymupdf.Rect(86, y + 6, 526, y + 96), PROSE, fontname="tiro", fontsize=12)
            y += 120
        if s == 3:
            page.insert_text((86, y), "Making a sketch of the proof. We need a plan before we", fontname="tibo",
                             fontsize=12)
            page.insert_textbox(pymupdf.Rect(86, y + 6, 526, y + 96), PROSE, fontname="tiro", fontsize=12)
        page.insert_text((300, 760), str(s), fontname="tiro", fontsize=9)
    rename_fonts(doc, "DejaVu", "/ABCDEF+CMCSC10")
    doc.save(path)
    doc.close()
    return path


def test_small_capitals_sections_and_their_run_in_subsections_are_the_outline(tmp_path: Path) -> None:
    with PdfSource(_tutorial(tmp_path / "tutor.pdf")) as pdf:
        assert any(ln.font == "CMCSC10" and not ln.bold for ln in pdf.layout(1).lines)  # no weight to go by
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    titles = [(e.title, e.page) for e in result.entries]
    for s, title in enumerate(SECTIONS, start=1):
        assert (f"{s}. {title}", s) in titles
        assert (f"{s}.1. A worked example", s) in titles
    assert not any(t.startswith("Making a sketch") for t, _ in titles)  # an unnumbered bold run-in head
