"""A printed contents page with a link on each row, for tests of the contents reader (tests build their own PDFs)."""

from __future__ import annotations

from typing import Iterable

import pymupdf


def linked_contents(page: pymupdf.Page, rows: Iterable[tuple[str, int, int, float]]) -> None:
    """Write "Contents" and one row per (title, printed page, 1-based page the link names, destination height):
    the title, dot leaders, the number set flush right at x 520, and a GoTo link over the row."""
    page.insert_text((72, 80), "Contents", fontname="hebo", fontsize=18)
    for i, (title, printed, link, to_y) in enumerate(rows):
        y = 120 + 18 * i
        page.insert_text((72, y), title, fontname="helv", fontsize=11)
        page.insert_text((300, y), " ." * 50, fontsize=11)
        num = str(printed)
        page.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
        page.insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(72, y - 10, 520, y + 3), "page": link - 1,
                          "to": pymupdf.Point(72, to_y)})
