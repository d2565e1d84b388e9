"""TeX's 7-bit fonts draw an accent as a glyph of its own ("D´efinitions", "Mises `a jour"): contents titles get their
accented letters back ("Définitions"), as the author's outline spells them, and are still found in the body."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from parsers.toc import spell_accents

W, H = 612, 792
PROSE = "Le texte de la section suit ici, assez long pour que la page se lise comme un corps de document. " * 6


def test_contents_titles_get_their_accents_back(tmp_path: Path) -> None:
    titles = ["1 D\u00b4efinitions", "2 Mises `a jour", "3 R\u00b4eglages fran\u00b8cais", "4 The `make` command"]
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 90), "Table des mati\u00e8res", fontname="hebo", fontsize=18)
    for i, title in enumerate(titles):
        y = 130 + 18 * i
        toc.insert_text((72, y), title, fontsize=11)
        toc.insert_text((320, y), " ." * 45, fontsize=11)
        toc.insert_text((515, y), str(i + 1), fontsize=11)
    for i, title in enumerate(titles):
        page = doc.new_page(width=W, height=H)
        page.insert_text((72, 90), title, fontname="hebo", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 700), PROSE, fontsize=10)
        page.insert_text((W / 2, H - 40), str(i + 1), fontsize=9)
    doc.save(tmp_path / "fr.pdf")
    with PdfSource(tmp_path / "fr.pdf") as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.title, e.page) for e in result.entries] == [
        ("1 Définitions", 2), ("2 Mises à jour", 3), ("3 Réglages français", 4), ("4 The `make` command", 5)]
    assert result.decisions["toc"]["verified"] == 4


def test_only_accents_are_put_on_letters() -> None:
    assert spell_accents("\u00b4Etiquettes et mot-cl\u00b4es") == "Étiquettes et mot-clés"
    assert spell_accents("na\u00a8\u0131ve Espa\u02dcnol") == "naïve Español"
    assert spell_accents("Run `apt update` first") == "Run `apt update` first"  # code, not a grave accent
    assert spell_accents("don`t") == "don`t"
