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


class _Words:
    """``Line.words``, which a line may be given as a function that builds them when first read.

    A dataclass field whose default is a descriptor (Python's "descriptor-typed fields"): the constructor, ``replace``,
    ``asdict`` and equality still see a plain list. Word boxes are read on contents pages only, while the headings
    fallback lays out every page, and building them cost as much as the rest of the layout.
    """

    def __get__(self, line: "Line | None", owner: type | None = None) -> "list[Word] | None":
        if line is None:
            return None  # the field's default: no words given
        state = line.__dict__
        words = state.get("_words")
        if words is None:
            build = state.pop("_build_words", None)
            words = state["_words"] = build() if build is not None else []
        return words

    def __set__(self, line: "Line", words: "list[Word] | None") -> None:
        line.__dict__["_words"] = words
        line.__dict__.pop("_build_words", None)


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
    words: list[Word] = _Words()  # type: ignore[assignment]
    # Widest horizontal gap between the fragments merged into this line (points); a gap of
    # several font sizes means two columns share a baseline, not one heading.
    max_gap: float = 0.0
    mono: bool = False  # the dominant font is fixed-pitch (the font's own flag): code, whatever its name

    def words_from(self, build: Callable[[], list[Word]]) -> None:
        """Have ``words`` built by ``build`` when first read, unless they were given."""
        if self.__dict__.get("_words") is None:
            self.__dict__["_build_words"] = build

    def words_follow_text(self) -> bool:
        """Whether ``words`` are still to be built by the layout (``words_from``): then their texts are ``text``'s
        words, split at spaces (``pdf.merge_visual_lines`` joins its fragments' texts with a space and splits each
        into words; so does the compiled builder), and a reader after some words only can look at ``text`` first."""
        return "_build_words" in self.__dict__


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
    # Link annotations on this page that go to another page: (rect y0, rect y1, the destination's height on its page or
    # -1 when the link names none, target 1-based page).
    links: list[tuple[float, float, float, int]] = field(default_factory=list)
    image_coverage: float = 0.0  # share of page area covered by images, 0..1
    error: str | None = None  # a per-page problem that did not stop the document
    # Reads ``links`` when first asked for (``page_links``): walking a page's link chain costs more than reading
    # its text, and only a contents listing's lines need it, not the headings of every page.
    read_links: Callable[[], list[tuple[float, float, float, int]]] | None = field(default=None, repr=False, compare=False)

    def page_links(self) -> list[tuple[float, float, float, int]]:
        """``links``, read now if they were left for later."""
        if self.read_links is not None:
            self.links, self.read_links = self.read_links(), None
        return self.links
