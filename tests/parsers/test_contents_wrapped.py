"""A contents whose entries' first lines are set in a heavier face than their wrapped tails (FLINT's: "5.8
nmod_mpoly_factor.h – ... mod n" in demibold over "(word-size n) . . . 309"): the tail is the title's end, not an
entry of its own."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

# (first line, its font, wrapped tail or "", printed page)
ROWS = [
    ("1 Integers", "hebo", "", "1"),
    ("1.1 nmod.h - integers mod n (word-size n)", "helv", "", "1"),
    ("1.2 nmod_mat.h - matrices over integers mod n", "hebo", "(word-size n)", "2"),
    ("1.3 fq_zech.h - finite fields (Zech", "hebo", "logarithm representation)", "3"),
    ("2 Polynomials", "hebo", "", "4"),
    ("2.1 fmpz_poly.h - polynomials over the integers", "helv", "", "5"),
]


def _book(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 90), "Contents", fontname="hebo", fontsize=18)
    y = 130.0
    for first, font, tail, num in ROWS:
        x = 72 if first[1] == " " else 90
        if tail:
            page.insert_text((x, y), first, fontname=font, fontsize=10)
            y += 12
            x += 20
            first, font = tail, "helv"
        page.insert_text((x, y), first, fontname=font, fontsize=10)
        page.insert_text((x + pymupdf.get_text_length(first, fontname=font, fontsize=10) + 6, y), " ." * 20, fontsize=10)
        page.insert_text((520 - pymupdf.get_text_length(num, fontsize=10), y), num, fontsize=10)
        y += 16
    for n, (first, _, tail, _) in enumerate(ROWS[:1] + ROWS[2:], 1):
        body = doc.new_page(width=612, height=792)
        if n == 1:
            body.insert_text((72, 100), ROWS[0][0], fontname="hebo", fontsize=16)
            body.insert_text((72, 130), ROWS[1][0], fontname="hebo", fontsize=12)
        else:
            body.insert_text((72, 100), f"{first} {tail}".strip(), fontname="hebo", fontsize=12)
        body.insert_textbox(pymupdf.Rect(72, 150, 540, 700), "The functions of this module are described here. " * 20,
                            fontname="helv", fontsize=10)
        body.insert_text((300, 760), str(n), fontname="helv", fontsize=9)
    doc.save(path)
    return path


def test_a_wrapped_tail_in_a_lighter_face_ends_its_title(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "c.pdf")) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [e.title for e in result.entries] == [
        "1 Integers", "1.1 nmod.h - integers mod n (word-size n)",
        "1.2 nmod_mat.h - matrices over integers mod n (word-size n)",
        "1.3 fq_zech.h - finite fields (Zech logarithm representation)",
        "2 Polynomials", "2.1 fmpz_poly.h - polynomials over the integers"]
