"""Bookmarks (the PDF outline) as structure entries, checked before they are trusted.

PyMuPDF reads the outline; pypdf is the fallback reader when MuPDF returns nothing
but the catalog has /Outlines. An outline is rejected (and the chain falls through
to the printed TOC) when it cannot describe the document: no entries pointing at a
page, most entries out of range, everything on one page, generic "Page N" titles,
or mostly backwards page order. Small defects are repaired and counted.
"""

from __future__ import annotations

import re
from typing import Any

from parsers.pdf import PdfSource
from parsers.ranges import Entry

_GENERIC = re.compile(r"^\s*(?:page|p\.|pg\.?|seite|pagina|página|bookmark|untitled)?\s*\d+\s*$", re.I)


def read_outline_pypdf(path: Any) -> list[tuple[int, str, int]]:
    """The outline via pypdf as (level, title, 1-based page); page -1 when it points nowhere."""
    import pypdf

    out: list[tuple[int, str, int]] = []
    try:
        reader = pypdf.PdfReader(str(path), strict=False)

        def walk(items: list, level: int) -> None:
            for item in items:
                if isinstance(item, list):
                    walk(item, level + 1)
                    continue
                try:
                    page = reader.get_destination_page_number(item)
                    page = page + 1 if page is not None and page >= 0 else -1
                except Exception:
                    page = -1
                out.append((level, str(getattr(item, "title", "") or ""), page))

        walk(reader.outline, 1)
    except Exception:
        return []
    return out


def _has_outline_object(pdf: PdfSource) -> bool:
    try:
        kind, _ = pdf.doc.xref_get_key(pdf.doc.pdf_catalog(), "Outlines")
        return kind not in ("null", "")
    except Exception:
        return False


def check_outline(raw: list[tuple[int, str, int]], page_count: int) -> tuple[list[Entry], str | None, dict[str, Any]]:
    """Entries from a raw outline, the reason to reject it (None if usable) and repair counts. Pure."""
    info: dict[str, Any] = {"raw_entries": len(raw)}
    if not raw:
        return [], "no outline", info
    in_range = [(lv, t, p) for lv, t, p in raw if 1 <= p <= page_count]
    info["out_of_range"] = len(raw) - len(in_range)
    if not in_range:
        return [], "no outline entry points at a page", info
    if len(in_range) < 0.5 * len(raw):
        return [], f"{len(raw) - len(in_range)} of {len(raw)} outline entries point outside the document", info
    titles = [" ".join(str(t).split()) for _, t, _ in in_range]
    if len(in_range) >= 3 and page_count >= 3 and len({p for _, _, p in in_range}) == 1:
        return [], f"all {len(in_range)} outline entries point at page {in_range[0][2]}", info
    generic = sum(1 for t in titles if not t or _GENERIC.match(t))
    if generic >= max(2, 0.6 * len(titles)):
        return [], f"{generic} of {len(titles)} outline titles are generic (empty or 'Page N')", info
    backwards = sum(1 for a, b in zip(in_range, in_range[1:]) if b[2] < a[2])
    info["backwards"] = backwards
    if len(in_range) >= 4 and backwards > 0.3 * (len(in_range) - 1):
        return [], f"{backwards} of {len(in_range) - 1} outline steps go backwards in the page order", info
    # Repair: levels that jump down by more than one are pulled up (1 -> 3 becomes 1 -> 2).
    entries: list[Entry] = []
    prev_level = 0
    fixed = 0
    for (lv, _, p), title in zip(in_range, titles):
        level = max(1, int(lv))
        if level > prev_level + 1:
            level, fixed = prev_level + 1, fixed + 1
        entries.append(Entry(level, title or "(untitled)", p))
        prev_level = level
    info["levels_repaired"] = fixed
    return entries, None, info


def read_bookmarks(pdf: PdfSource) -> tuple[list[Entry], str | None, dict[str, Any]]:
    """Outline entries that point at a page, the reason they are unusable (None if usable), and details."""
    raw = pdf.outline()
    reader = "pymupdf"
    if not raw and _has_outline_object(pdf):
        raw = read_outline_pypdf(pdf.path)
        reader = "pypdf"
    entries, why, info = check_outline(raw, pdf.page_count)
    info["reader"] = reader
    return entries, why, info
