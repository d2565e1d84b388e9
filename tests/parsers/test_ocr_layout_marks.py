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
