"""The structure chain: bookmarks -> printed TOC + offsets -> headings -> (LLM hook) -> page groups.

Each method either returns a credible list of entries or says why not; the
chain records every decision so a wrong tree is explainable from its manifest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from parsers.bookmarks import read_bookmarks
from parsers.pdf import PdfSource
from parsers.ranges import Entry

# A hook for a model-backed fallback: called only when no deterministic method
# yields a credible tree. It gets the open document and returns entries (or [])
# plus a dict of decisions for the manifest.
LlmStructureHook = Callable[[PdfSource], tuple[list[Entry], dict[str, Any]]]


@dataclass
class StructureResult:
    entries: list[Entry]
    source: str  # bookmarks | toc | headings | llm | pages
    page_offset: int | None = None
    decisions: dict[str, Any] = field(default_factory=dict)


def recover_structure(pdf: PdfSource, llm_hook: LlmStructureHook | None = None) -> StructureResult:
    decisions: dict[str, Any] = {"tried": []}
    entries, why = read_bookmarks(pdf)
    decisions["tried"].append({"method": "bookmarks", "used": why is None, "reason": why})
    if why is None:
        return StructureResult(entries, "bookmarks", None, decisions)
    if llm_hook is not None:
        entries, info = llm_hook(pdf)
        decisions["tried"].append({"method": "llm", "used": bool(entries), **info})
        if entries:
            return StructureResult(entries, "llm", None, decisions)
    decisions["tried"].append({"method": "pages", "used": True, "reason": "no credible structure found"})
    return StructureResult([], "pages", None, decisions)
