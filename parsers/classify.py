"""Page classification: decide per page whether its text layer is usable, it needs OCR, or it is a figure.

``classify`` is a pure function over ``PageStats``; ``page_stats`` gathers the
statistics from a PyMuPDF page as cheaply as it can (drawings are only counted
on pages with little text, where they can change the answer).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import pymupdf


class PageKind(str, Enum):
    BORN_DIGITAL = "born_digital"  # the text layer is good: never OCR'd
    NEEDS_OCR = "needs_ocr"  # no or garbage text layer, page mostly image(s)
    FIGURE_HEAVY = "figure_heavy"  # little text, large images or dense vector drawings: a vision candidate
    BLANK = "blank"  # nothing on the page: no OCR call, no vision call


# Thresholds (characters are non-whitespace characters of the text layer).
MIN_TEXT_CHARS = 20  # below this a page has "no text" (a page number, a stray header)
LITTLE_TEXT_CHARS = 300  # below this a page has "little text" (a figure with a caption)
GARBAGE_RATIO = 0.05  # share of unmappable glyphs above which the text layer is garbage (far above sound text's)
MIN_VOWEL_SHARE = 0.2  # Latin-script text has 30-45% vowels; fonts decoded by glyph id ("QVWDOODWLRQ") far fewer
VOWEL_MIN_LETTERS = 100  # letters needed before the vowel share means anything
SCAN_COVERAGE = 0.5  # image share of the page above which a text-less page is a scan
FIGURE_COVERAGE = 0.3  # image share above which a little-text page is a figure page
DENSE_DRAWINGS = 150  # vector paths above which a little-text page is a drawing/chart page
#: Characters above which a page's text layer cannot be legible print: a Letter page set solid in 4 pt type holds
#: ~50,000 (306 per line x 165 lines). Such a layer (hidden junk, a text bomb) is kept as it is: rendering it for
#: OCR at full resolution ran tesseract into its timeout, and laying it out cost seconds per 10,000 spans.
HUGE_TEXT_CHARS = 50_000


@dataclass(frozen=True)
class PageStats:
    """What classification looks at; all plain numbers so the rules are testable without a PDF."""

    text_chars: int  # non-whitespace characters in the text layer
    garbage_chars: int  # of those: U+FFFD, private-use and control characters (glyphs without unicode)
    image_coverage: float  # share of the page area covered by images, 0..1
    drawings: int  # vector paths drawn (counted only when text is scarce, else 0)
    letters: int = 0  # ASCII letters in the text layer
    vowels: int = 0  # of those: a e i o u y

    @property
    def garbage_ratio(self) -> float:
        return self.garbage_chars / self.text_chars if self.text_chars else 0.0

    @property
    def good_chars(self) -> int:
        return self.text_chars - self.garbage_chars


def classify(stats: PageStats) -> PageKind:
    """Born-digital unless the text layer is missing or garbage (OCR) or the page is mostly figure."""
    garbage = (stats.text_chars >= MIN_TEXT_CHARS and stats.garbage_ratio >= GARBAGE_RATIO) or (
        stats.letters >= VOWEL_MIN_LETTERS and stats.vowels < MIN_VOWEL_SHARE * stats.letters)
    no_text = stats.good_chars < MIN_TEXT_CHARS
    if garbage:
        # A garbage layer is replaced by OCR whether the glyphs are an image or unmappable font text.
        return PageKind.NEEDS_OCR
    if no_text and stats.image_coverage >= SCAN_COVERAGE:
        return PageKind.NEEDS_OCR
    if stats.text_chars == 0 and stats.image_coverage < 0.01 and stats.drawings == 0:
        return PageKind.BLANK
    if stats.good_chars < LITTLE_TEXT_CHARS and (stats.image_coverage >= FIGURE_COVERAGE or stats.drawings >= DENSE_DRAWINGS):
        return PageKind.FIGURE_HEAVY
    if no_text and stats.image_coverage >= 0.05:  # a lone picture: only a model can say what it shows
        return PageKind.FIGURE_HEAVY
    return PageKind.BORN_DIGITAL


def count_garbage(text: str) -> tuple[int, int]:
    """(non-whitespace chars, of which unmappable): U+FFFD, private use area, C0/C1 controls."""
    total = garbage = 0
    for ch in text:
        if ch.isspace():
            continue
        total += 1
        o = ord(ch)
        if o == 0xFFFD or 0xE000 <= o <= 0xF8FF or o < 0x20 or 0x7F <= o < 0xA0:
            garbage += 1
    return total, garbage


def count_vowels(text: str) -> tuple[int, int]:
    """(ASCII letters, of which vowels)."""
    letters = sum(1 for ch in text if ch.isascii() and ch.isalpha())
    return letters, sum(text.count(v) for v in "aeiouyAEIOUY")


def image_coverage(page: "pymupdf.Page") -> float:
    """Share of the page covered by image placements (overlaps counted once via a coarse grid)."""
    rect = page.rect
    area = rect.width * rect.height
    if area <= 0:
        return 0.0
    try:
        infos = page.get_image_info()
    except Exception:  # a broken image dictionary must not stop classification
        return 0.0
    boxes = []
    for info in infos:
        b = pymupdf.Rect(info.get("bbox", (0, 0, 0, 0))) & rect
        if not b.is_empty:
            boxes.append(b)
    if not boxes:
        return 0.0
    if len(boxes) == 1:
        return min(1.0, boxes[0].width * boxes[0].height / area)
    # Several images may overlap (tiled scans, masks): rasterise onto a 64x64 grid.
    n = 64
    cells = set()
    for b in boxes:
        c0 = int((b.x0 - rect.x0) / rect.width * n)
        c1 = int(min(n - 1, (b.x1 - rect.x0) / rect.width * n))
        r0 = int((b.y0 - rect.y0) / rect.height * n)
        r1 = int(min(n - 1, (b.y1 - rect.y0) / rect.height * n))
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                cells.add((r, c))
    return len(cells) / (n * n)


def page_stats(page: "pymupdf.Page", text: str) -> PageStats:
    """Statistics of one page given its already-extracted text layer."""
    chars, garbage = count_garbage(text)
    coverage = image_coverage(page)
    drawings = 0
    if chars - garbage < LITTLE_TEXT_CHARS:
        try:
            drawings = len(page.get_cdrawings())
        except Exception:
            drawings = 0
    letters, vowels = count_vowels(text)
    return PageStats(text_chars=chars, garbage_chars=garbage, image_coverage=round(coverage, 4), drawings=drawings,
                     letters=letters, vowels=vowels)
