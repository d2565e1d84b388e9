"""Pure image measures behind OCR layouts: dot leaders to erase, stroke width for bold. No tesseract."""

from __future__ import annotations

import numpy as np
import pymupdf
from PIL import Image

from parsers.layout import Line
from parsers.ocr_layout import leader_boxes, mark_bold, stroke_ratio

DPI = 200
SCALE = 72 / DPI


def render(draw) -> Image.Image:
    """A grayscale 200-dpi 'scan' of a page that ``draw(page)`` fills."""
    with pymupdf.open() as doc:
        page = doc.new_page(width=500, height=200)
        draw(page)
        pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY)
        return Image.frombytes("L", (pix.width, pix.height), pix.samples)


def test_dot_leaders_between_a_title_and_its_page_number_are_found() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.insert_text((40, 60), "2.4 Where to ask for help " + ". " * 25 + " 17", fontname="tiro", fontsize=11)
        page.insert_text((40, 100), "A sentence ends here... and goes on with more words.", fontname="tiro", fontsize=11)

    img = render(draw)
    title_x1 = 40 + pymupdf.get_text_length("2.4 Where to ask for help", "tiro", 11)
    number_x0 = 40 + pymupdf.get_text_length("2.4 Where to ask for help " + ". " * 25 + " ", "tiro", 11)
    boxes = leader_boxes(np.array(img), line_height=11 / SCALE)
    assert len(boxes) == 1  # the ellipsis in running text is too short to be a leader
    x0, y0, x1, y1 = (v * SCALE for v in boxes[0])
    assert title_x1 < x0 < title_x1 + 8  # starts at the first dot, not inside "help"
    assert number_x0 - 12 < x1 <= number_x0  # ends at the last dot, before "17"
    assert y0 < 56 < y1  # as tall as its line, so the "..." put back lands on it


def test_bold_lines_have_thicker_strokes_than_regular_ones() -> None:
    rows = [("helv", 10), ("hebo", 10), ("helv", 16), ("hebo", 16), ("tiro", 10), ("tibo", 10)]

    def draw(page: pymupdf.Page) -> None:
        for i, (font, size) in enumerate(rows):
            page.insert_text((20, 30 + 28 * i), "Installing the pump controller", fontname=font, fontsize=size)

    img = render(draw)
    lines = []
    for i, (font, size) in enumerate(rows):
        width = pymupdf.get_text_length("Installing the pump controller", font, size)
        base = 30 + 28 * i
        lines.append(Line("Installing the pump controller", 20, base - 0.75 * size, 20 + width, base + 0.25 * size, size=size))
    ratios = [stroke_ratio(img, ln, SCALE) for ln in lines]
    for regular, bold in ((0, 1), (2, 3), (4, 5)):
        assert ratios[bold] > 1.4 * ratios[regular], (rows[regular], ratios)
    assert abs(ratios[0] - ratios[2]) < 0.25 * ratios[0]  # scale-free: 10 pt and 16 pt regular agree

    body = [Line("body text of the page " * 3, 0, 0, 1, 1, size=10) for _ in range(5)]
    marked = mark_bold([(ln, ratios[0]) for ln in body] + [(lines[1], ratios[1]), (lines[3], ratios[3]), (lines[2], ratios[2])])
    assert marked == 2 and lines[1].bold and lines[3].bold and not lines[2].bold and not any(ln.bold for ln in body)


def test_misread_contents_page_numbers_are_read_again_as_digits(tmp_path) -> None:
    """Real tesseract on a small strip: '3l' and 'AT' after a leader become the printed 31 and 47."""
    from parsers.layout import PageLayout, Word
    from parsers.ocr import OcrOptions, OcrResult, _reread_numbers

    entries = [("Language internals", "31", "3l"), ("Termination", "47", "AT"), ("Translation", "46", "46")]

    def draw(page: pymupdf.Page) -> None:
        for i, (title, number, _) in enumerate(entries):
            page.insert_text((40, 50 + 40 * i), title, fontname="tiro", fontsize=11)
            page.insert_text((440, 50 + 40 * i), number, fontname="tiro", fontsize=11)

    render(draw).save(tmp_path / "page.pgm")
    lines = []
    for i, (title, number, misread) in enumerate(entries):
        base = 50 + 40 * i
        tw = pymupdf.get_text_length(title, "tiro", 11)
        nw = pymupdf.get_text_length(number, "tiro", 11)
        words = [Word(title, 40, base - 9, 40 + tw, base + 2), Word("...", 50 + tw, base - 9, 420, base + 2),
                 Word(".", 425, base - 2, 428, base), Word(misread, 440, base - 9, 440 + nw, base + 2)]
        lines.append(Line(" ".join(w.text for w in words), 40, base - 9, 440 + nw, base + 2, size=11, words=words))
    layout = PageLayout(number=1, width=500, height=200, lines=lines, text="\n".join(ln.text for ln in lines))
    result = OcrResult(layout=layout)
    _reread_numbers(str(tmp_path / "page.pgm"), layout, SCALE, OcrOptions(), result)
    assert [ln.text for ln in layout.lines] == ["Language internals ... 31", "Termination ... 47", "Translation ... . 46"]
    assert layout.text.splitlines()[1] == "Termination ... 47" and result.tesseract_calls == 1
