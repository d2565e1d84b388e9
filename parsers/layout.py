"""Plain data the structure methods work on: pages of positioned lines.

Born-digital pages (PyMuPDF) and scanned pages (tesseract word boxes) are both
turned into these types, so the TOC parser and the headings detector never
know where a line came from. Coordinates are PDF points, origin top-left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    # The weight of the fragment it was set in (None when unknown: OCR): a line merged from two columns' entries
    # takes one weight, and each column's part needs its own back (parsers.toc).
    bold: bool | None = None


@dataclass
class Line:
    """One visual line: words sharing a baseline, left to right."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float = 0.0  # dominant font size in points (0 when unknown, e.g. OCR)
    bold: bool = False
    font: str = ""
    words: list[Word] = field(default_factory=list)
    # Widest horizontal gap between the fragments merged into this line (points); a gap of
    # several font sizes means two columns share a baseline, not one heading.
    max_gap: float = 0.0
    mono: bool = False  # the dominant font is fixed-pitch (the font's own flag): code, whatever its name


@dataclass
class PageLayout:
    """One physical page. ``number`` is 1-based."""

    number: int
    width: float
    height: float
    label: str | None = None
    lines: list[Line] = field(default_factory=list)
    text: str = ""
    text_source: str = "text"  # "text" | "ocr" | "vision" | "none"
    ocr_confidence: float | None = None
    # Link annotations on this page that go to another page: (rect y0, rect y1, target 1-based page).
    links: list[tuple[float, float, int]] = field(default_factory=list)
    image_coverage: float = 0.0  # share of page area covered by images, 0..1
    error: str | None = None  # a per-page problem that did not stop the document
    # Reads ``links`` when first asked for (``page_links``): walking a page's link chain costs more than reading
    # its text, and only a contents listing's lines need it, not the headings of every page.
    read_links: Callable[[], list[tuple[float, float, int]]] | None = field(default=None, repr=False, compare=False)

    def page_links(self) -> list[tuple[float, float, int]]:
        """``links``, read now if they were left for later."""
        if self.read_links is not None:
            self.links, self.read_links = self.read_links(), None
        return self.links
