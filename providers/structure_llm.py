"""The LLM structure fallback (parsers.structure.LlmStructureHook): page-tagged text windows -> outline.

The model proposes headings per window of pages; nothing it says is trusted:
every entry must have a page in range and a title found in the text of that
page (or a neighbouring page, then the page is repaired); entries are then put
in reading order, de-duplicated and their levels made consistent. If too few
survive, the hook returns no entries and the chain falls back to page groups.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from parsers.pdf import PdfSource
from parsers.ranges import Entry
from providers.base import ModelProvider
from providers.errors import ProviderError
from providers.prompts import STRUCTURE, clip_chars, fence
from providers.usage import Usage

PAGE_CHARS = 1500  # per page in a window: headings sit near the top of their page
WINDOW_CHARS = 15000
MAX_WINDOWS = 40  # ~ 400 pages; beyond that the outline of the rest is not asked for (cost cap)
MIN_ENTRIES = 2
MIN_KEPT_RATIO = 0.5
FUZZ_MIN = 90
SEARCH_PAGES = 40  # how far from the proposed page an exact title is looked for (printed vs physical numbers)


@dataclass
class Candidate:
    title: str
    level: int
    page: int
    order: int


def windows(texts: list[str], *, page_chars: int = PAGE_CHARS, window_chars: int = WINDOW_CHARS) -> list[tuple[int, int, str]]:
    """(first page, last page, "[[page N]]"-tagged text) windows over the pages, in order."""
    out: list[tuple[int, int, str]] = []
    parts: list[str] = []
    first = 1
    size = 0
    for n, text in enumerate(texts, start=1):
        block = f"[[page {n}]]\n{clip_chars(text, page_chars)}\n"
        if parts and size + len(block) > window_chars:
            out.append((first, n - 1, "".join(parts)))
            parts, size, first = [], 0, n
        parts.append(block)
        size += len(block)
    if parts:
        out.append((first, len(texts), "".join(parts)))
    return out


def _norm(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.lower()))


def _locate(title: str, page_text: str) -> int | None:
    """Offset of ``title`` in the page text (normalized, fuzzy), or None."""
    t, p = _norm(title), _norm(page_text)
    if not t or not p:
        return None
    at = p.find(t)
    if at >= 0:
        return at
    if len(t) >= 6:
        hit = fuzz.partial_ratio_alignment(t, p, score_cutoff=FUZZ_MIN)
        if hit is not None:
            return hit.dest_start
    return None


def _search_near(title: str, page: int, texts: list[str], cache: dict[int, str]) -> tuple[int, int] | None:
    """(page, offset) of the exact (normalized) title on the page nearest to ``page`` within SEARCH_PAGES."""
    t = _norm(title)
    if len(t) < 4:
        return None
    n_pages = len(texts)
    centre = page
    for distance in range(2, SEARCH_PAGES + 1):
        for p in (centre + distance, centre - distance):  # later first: printed numbers usually lag physical ones
            if 1 <= p <= n_pages:
                if p not in cache:
                    cache[p] = _norm(texts[p - 1])
                at = cache[p].find(t)
                if at >= 0:
                    return p, at
    return None


def validate_outline(candidates: list[Candidate], texts: list[str]) -> tuple[list[Entry], dict[str, Any]]:
    """Keep entries whose title is found on their page (or +-1, or exactly within 40 pages: page repaired); order, level."""
    n_pages = len(texts)
    dropped = {"out_of_range": 0, "not_found": 0, "duplicate": 0, "empty": 0}
    repaired = 0
    located: list[tuple[int, int, int, Candidate]] = []
    seen: set[tuple[str, int]] = set()
    norm_pages: dict[int, str] = {}
    for c in candidates:
        title = " ".join(c.title.split())
        if not title:
            dropped["empty"] += 1
            continue
        if not 1 <= c.page <= n_pages:
            dropped["out_of_range"] += 1
            continue
        where = None
        for page in (c.page, c.page + 1, c.page - 1):
            if 1 <= page <= n_pages:
                offset = _locate(title, texts[page - 1])
                if offset is not None:
                    where = (page, offset)
                    break
        if where is None:
            # Models often answer with the printed page number: look for the exact title nearby.
            where = _search_near(title, c.page, texts, norm_pages)
        if where is None:
            dropped["not_found"] += 1
            continue
        if where[0] != c.page:
            repaired += 1
        key = (_norm(title), where[0])
        if key in seen:
            dropped["duplicate"] += 1
            continue
        seen.add(key)
        located.append((where[0], where[1], c.order, Candidate(title, c.level, where[0], c.order)))
    located.sort(key=lambda x: (x[0], x[1], x[2]))  # reading order: monotonic pages by construction
    entries: list[Entry] = []
    base = min((max(1, c.level) for *_, c in located), default=1)
    prev = 0
    for *_, c in located:
        level = max(1, c.level) - base + 1
        level = min(level, prev + 1)  # no jumps of two levels down
        entries.append(Entry(level, c.title, c.page))
        prev = level
    info = {"candidates": len(candidates), "kept": len(entries), "dropped": dropped, "repaired_pages": repaired}
    return entries, info


class LlmStructure:
    """A LlmStructureHook backed by a ModelProvider; one instance per document (it carries the usage)."""

    def __init__(self, provider: ModelProvider, usage: Usage | None = None, *, concurrency: int = 4,
                 max_windows: int = MAX_WINDOWS):
        self.provider = provider
        self.usage = usage or Usage(provider=provider.name, model=provider.model)
        self.concurrency = concurrency
        self.max_windows = max_windows

    def _ask(self, title: str, page_count: int, window: tuple[int, int, str]) -> list[dict[str, Any]]:
        first, last, text = window
        user = STRUCTURE.render(doc_title=fence(title), page_count=page_count, first=first, last=last, text=fence(text))
        try:
            completion = self.provider.complete(STRUCTURE.system, user, json_schema=STRUCTURE.schema,
                                                max_tokens=STRUCTURE.max_tokens)
        finally:
            self.usage.add(retries=getattr(self.provider, "last_retries", 0))
        self.usage.add_call("structure", completion.prompt_tokens, completion.completion_tokens, completion.cost_usd)
        try:
            sections = json.loads(completion.text).get("sections")
        except (ValueError, AttributeError):
            sections = None
        if not isinstance(sections, list):
            self.usage.add_error("ProviderResponseError")
            return []
        return [s for s in sections if isinstance(s, dict)]

    def __call__(self, pdf: PdfSource) -> tuple[list[Entry], dict[str, Any]]:
        texts = [pdf.text(n) for n in range(1, pdf.page_count + 1)]
        if not any(t.strip() for t in texts):
            return [], {"reason": "no text to read headings from"}
        wins = windows(texts)
        asked = wins[: self.max_windows]
        title = str((pdf.doc.metadata or {}).get("title") or "")
        info: dict[str, Any] = {"windows": len(asked), "windows_skipped": len(wins) - len(asked)}
        try:
            with ThreadPoolExecutor(max_workers=max(1, self.concurrency)) as pool:
                answers = list(pool.map(lambda w: self._ask(title, len(texts), w), asked))
        except ProviderError as exc:
            self.usage.add_error(type(exc).__name__)
            return [], {**info, "reason": f"model failed: {type(exc).__name__}: {exc}"}
        candidates: list[Candidate] = []
        for answer in answers:
            for s in answer:
                try:
                    candidates.append(Candidate(str(s.get("title") or ""), int(s.get("level") or 1), int(s.get("page") or 0),
                                                len(candidates)))
                except (TypeError, ValueError):
                    continue
        entries, checks = validate_outline(candidates, texts)
        info.update(checks)
        if len(entries) < MIN_ENTRIES or len(entries) < MIN_KEPT_RATIO * len(candidates):
            return [], {**info, "reason": f"not credible: {len(entries)} of {len(candidates)} proposed headings verified"}
        return entries, info
