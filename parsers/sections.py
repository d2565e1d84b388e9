"""Give every node its own text: from its heading to the next heading in document order.

Headings are located in their start page's text by title (whitespace and case
insensitive); where a title cannot be found the section starts at the top of
its page. When a section's text runs onto the page where the next section
starts (the next heading is mid-page), its ``end_page`` is extended to that page.
"""

from __future__ import annotations

import re

from index_store.model import Node

_MIN_SPILL_CHARS = 80  # text before a mid-page heading that counts as a section running on


def title_pattern(title: str) -> re.Pattern[str] | None:
    """A heading's first eight words, any punctuation or spacing between them, case-insensitive (None: no words)."""
    words = re.findall(r"\w+", title)[:8]
    if not words:
        return None
    return re.compile(r"\W*".join(re.escape(w) for w in words), re.IGNORECASE)


def locate_headings(nodes: list[Node], pages: list[str]) -> list[tuple[int, int]]:
    """(page, char offset) of each node's heading, monotonic in document order."""
    anchors: list[tuple[int, int]] = []
    prev = (1, 0)
    for node in nodes:
        page = max(node.start_page, 1)
        start = prev[1] if page == prev[0] else 0
        if page < prev[0]:
            page, start = prev
        text = pages[page - 1] if page - 1 < len(pages) else ""
        offset = start
        pattern = title_pattern(node.title)
        if pattern is not None:
            match = pattern.search(text, start)
            if match:
                offset = match.start()
        anchors.append((page, offset))
        prev = (page, offset)
    return anchors


def assign_text(root: Node, pages: list[str]) -> dict[str, str]:
    """Own text of each node (children's text excluded), keyed by node_id."""
    order = list(root.walk())[1:]
    own: dict[str, str] = {root.node_id: ""}
    if not order:
        own[root.node_id] = "\n".join(pages)
        return own
    anchors = locate_headings(order, pages)
    first_page, first_off = anchors[0]
    own[root.node_id] = _slice(pages, (1, 0), (first_page, first_off))
    for i, node in enumerate(order):
        end = anchors[i + 1] if i + 1 < len(order) else (len(pages), len(pages[-1]) if pages else 0)
        text = _slice(pages, anchors[i], end)
        own[node.node_id] = text
        if i + 1 < len(order):
            next_page, next_off = anchors[i + 1]
            before = pages[next_page - 1][:next_off] if next_page - 1 < len(pages) else ""
            if next_page > node.end_page and len(before.strip()) >= _MIN_SPILL_CHARS and anchors[i][0] <= next_page:
                node.end_page = next_page
    _propagate_end(root)
    return own


def _slice(pages: list[str], start: tuple[int, int], end: tuple[int, int]) -> str:
    (sp, so), (ep, eo) = start, end
    if (ep, eo) <= (sp, so):
        return ""
    if sp == ep:
        return pages[sp - 1][so:eo].strip()
    parts = [pages[sp - 1][so:]]
    parts.extend(pages[p - 1] for p in range(sp + 1, ep))
    parts.append(pages[ep - 1][:eo])
    return "\n".join(p.strip("\n") for p in parts).strip()


def _propagate_end(node: Node) -> int:
    for child in node.nodes:
        node.end_page = max(node.end_page, _propagate_end(child))
    return node.end_page
