"""The offsets check's ``spaced_words`` (run on the text of every page it looks at) gives, by bytes, exactly what its
regular expression gave: on every Unicode code point and on a page's text as PyMuPDF reads it."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from parsers.offsets import spaced_words
from parsers.pdf import PdfSource

_REFERENCE = re.compile(r"[^0-9a-z]+")


def _reference(text: str) -> str:
    return " ".join(_REFERENCE.sub(" ", text.casefold()).split())


def test_spaced_words_is_the_regular_expressions_answer_on_every_code_point() -> None:
    for start in range(0, 0x110000, 0x8000):
        chars = [chr(c) for c in range(start, min(start + 0x8000, 0x110000))]
        for sep in ("", "a", " "):  # each alone, glued to a letter, between spaces
            text = sep.join(chars)
            assert spaced_words(text) == _reference(text), hex(start)
    for text in ("Straße ﬁne \u212a \u01c4 \u0130stanbul \U0001d400bc", "\ud800 a\udfffb", "", "  \t\n", "1.2\u00a03"):
        assert spaced_words(text) == _reference(text)


def test_spaced_words_of_a_page_read_by_pymupdf(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 72), "2.4 Leaders . . . . . . 17   e\ufb01cient \ufb02ow caf\u00e9", fontsize=10)
    page.insert_htmlbox(pymupdf.Rect(72, 100, 540, 300),
                        "<h1>Übersicht — Straße</h1><p>ΑΒΓ αβγ Ǆ İ x<sup>2</sup> ½ № 1–2 “quoted” (Ch. IV)</p>")
    doc.save(tmp_path / "p.pdf")
    with PdfSource(tmp_path / "p.pdf") as pdf:
        text = pdf.text(1)
    got = spaced_words(text)
    assert got == _reference(text)
    assert got.startswith("2 4 leaders 17 e") and "stra" in got and "uebersicht" not in got
