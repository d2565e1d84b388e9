"""Bookmarks (the PDF outline) as structure entries, with basic soundness checks."""

from __future__ import annotations

from parsers.pdf import PdfSource
from parsers.ranges import Entry


def read_bookmarks(pdf: PdfSource) -> tuple[list[Entry], str | None]:
    """Outline entries that point at a page, and the reason they are unusable (None if usable)."""
    raw = pdf.outline()
    entries = [Entry(level, title.strip(), page) for level, title, page in raw if 1 <= page <= pdf.page_count]
    if not entries:
        return [], "no outline" if not raw else "no outline entry points at a page"
    return entries, None
