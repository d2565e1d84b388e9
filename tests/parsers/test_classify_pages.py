"""Page classification: the pure rules over PageStats, and page_stats on tiny PDFs built here."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from parsers.classify import PageKind, PageStats, classify, count_garbage, count_vowels, page_stats

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BODY = ("The pump controller regulates pressure in domestic water systems and keeps it within a narrow band "
        "around the target value set on the keypad. ") * 3


def _stats(chars=0, garbage=0, coverage=0.0, drawings=0, letters=0, vowels=0) -> PageStats:
    return PageStats(text_chars=chars, garbage_chars=garbage, image_coverage=coverage, drawings=drawings,
                     letters=letters, vowels=vowels)


@pytest.mark.parametrize(
    ("stats", "kind"),
    [
        (_stats(chars=1500, letters=1200, vowels=450), PageKind.BORN_DIGITAL),
        (_stats(chars=0, coverage=1.0), PageKind.NEEDS_OCR),  # a scan: one image, no text
        (_stats(chars=3, coverage=0.8), PageKind.NEEDS_OCR),  # a scan with a stamped page number
        (_stats(chars=400, garbage=120, letters=200, vowels=80), PageKind.NEEDS_OCR),  # unmappable glyphs
        (_stats(chars=400, letters=300, vowels=30), PageKind.NEEDS_OCR),  # glyph ids read as letters
        (_stats(chars=0), PageKind.BLANK),
        (_stats(chars=80, coverage=0.45, letters=60, vowels=24), PageKind.FIGURE_HEAVY),  # figure with a caption
        (_stats(chars=10, drawings=400), PageKind.FIGURE_HEAVY),  # a vector chart
        (_stats(chars=2000, coverage=0.45, letters=1500, vowels=600), PageKind.BORN_DIGITAL),  # text with a figure
        (_stats(chars=0, coverage=0.2), PageKind.FIGURE_HEAVY),  # a lone small picture
    ],
)
def test_classify_rules(stats: PageStats, kind: PageKind) -> None:
    assert classify(stats) is kind


def test_count_garbage_counts_replacement_private_use_and_control_chars() -> None:
    assert count_garbage("ab \ufffd\ue001\x03 c\n") == (6, 3)
    assert count_vowels("Hello WORLD 42") == (10, 3)


def _page_with(doc: pymupdf.Document, draw) -> None:
    draw(doc.new_page(width=612, height=792))


def test_page_stats_on_real_pages() -> None:
    doc = pymupdf.open()
    _page_with(doc, lambda p: p.insert_textbox(pymupdf.Rect(72, 72, 540, 700), BODY, fontsize=11))
    # A "scan": a rendered text page inserted as one full-page image.
    src = pymupdf.open()
    sp = src.new_page(width=612, height=792)
    sp.insert_textbox(pymupdf.Rect(72, 72, 540, 700), BODY, fontsize=11)
    png = sp.get_pixmap(dpi=50, colorspace=pymupdf.csGRAY).tobytes("png")
    _page_with(doc, lambda p: p.insert_image(p.rect, stream=png))
    _page_with(doc, lambda p: None)
    kinds = [classify(page_stats(p, p.get_text())) for p in doc]
    assert kinds == [PageKind.BORN_DIGITAL, PageKind.NEEDS_OCR, PageKind.BLANK]
    assert page_stats(doc[1], "").image_coverage == pytest.approx(1.0)


def garbage_layer_pdf(path: Path) -> Path:
    """Text in an embedded font whose /ToUnicode map was removed: MuPDF reads glyph ids ("QVWDOODWLRQ")."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_textbox(pymupdf.Rect(72, 72, 540, 700), BODY, fontname="dejavu", fontfile=DEJAVU, fontsize=14)
    for xref, *_ in page.get_fonts():
        doc.xref_set_key(xref, "ToUnicode", "null")
    doc.save(path)
    return path


def test_font_without_unicode_map_is_a_garbage_layer(tmp_path: Path) -> None:
    with pymupdf.open(garbage_layer_pdf(tmp_path / "garbage.pdf")) as doc:
        text = doc[0].get_text()
        assert "pump" not in text  # the layer really is unreadable
        assert classify(page_stats(doc[0], text)) is PageKind.NEEDS_OCR
