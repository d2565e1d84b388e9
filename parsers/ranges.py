"""Turn a flat, ordered list of outline entries into a tree of page ranges.

A node ends where the next node at the same or a higher level starts. The
pages before the first entry (title page, contents) are the root's own text,
not a made-up node; ``front_matter`` reports their range for tree.json.
"""

from __future__ import annotations

from dataclasses import dataclass

from index_store.model import KIND_PAGE_GROUP, Node, number_tree


@dataclass(frozen=True)
class Entry:
    """One outline entry: ``level`` >= 1, ``page`` 1-based physical.

    ``kind`` marks nodes the indexer made up rather than read from the document
    ("page_group" for size splits); it is stored as the node's ``kind`` in tree.json.
    """

    level: int
    title: str
    page: int
    kind: str = ""



def build_tree(entries: list[Entry], page_count: int, title: str) -> Node:
    """Nest entries by level and compute inclusive page ranges; the root spans every page."""
    root = Node(node_id="0000", title=title, level=0, start_page=1, end_page=page_count)
    clean = [
        Entry(max(1, e.level), " ".join(e.title.split()) or "(untitled)", min(max(1, e.page), page_count), e.kind)
        for e in entries
    ]
    stack: list[tuple[int, Node]] = [(0, root)]
    for entry in clean:
        while len(stack) > 1 and stack[-1][0] >= entry.level:
            stack.pop()
        node = Node(node_id="", title=entry.title, level=0, start_page=entry.page, end_page=entry.page,
                    extra={"kind": entry.kind} if entry.kind else {})
        stack[-1][1].nodes.append(node)
        stack.append((entry.level, node))
    _close_ranges(root, page_count)
    number_tree(root)
    return root


MAX_TITLE_CHARS = 300  # a title is a line in a tree; a longer one (a 100 KB outline entry) is cut, kept in the text


# Latin ligature characters (U+FB00-FB06) that TeX's fonts set and text extraction passes on: "ﬁrst" reads "first".
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
                            "\ufb05": "st", "\ufb06": "st"})


def plain_titles(root: Node) -> int:
    """Spell out ligature characters in titles (a tree's titles are read, copied and matched as text; the page text
    keeps what the PDF holds, and search folds both alike). Returns how many titles changed."""
    changed = 0
    for node in root.walk():
        title = node.title.translate(_LIGATURES)
        if title != node.title:
            node.title = title
            changed += 1
    return changed


def clip_titles(root: Node, own: dict[str, str], limit: int = MAX_TITLE_CHARS) -> int:
    """Cut titles longer than ``limit`` characters (at a word, with "..."); the full title goes at the head of the
    node's own text unless the text already holds it. Returns how many were cut."""
    cut = 0
    for node in root.walk():
        if len(node.title) <= limit:
            continue
        text = own.get(node.node_id, "")
        if node.title not in text:
            own[node.node_id] = node.title + ("\n" + text if text else "")
        head = node.title[:limit]
        node.title = (head.rsplit(" ", 1)[0] if " " in head[limit // 2:] else head) + " ..."
        cut += 1
    return cut


def front_matter(root: Node) -> dict[str, int] | None:
    """Pages before the first entry (the root's own text): tree.json's ``front_matter``, None if there are none."""
    if not root.nodes or root.nodes[0].start_page <= 1:
        return None
    return {"start_page": 1, "end_page": root.nodes[0].start_page - 1}


def _close_ranges(parent: Node, parent_end: int) -> None:
    kids = parent.nodes
    for i, node in enumerate(kids):
        nxt = kids[i + 1].start_page if i + 1 < len(kids) else parent_end + 1
        node.end_page = max(node.start_page, min(parent_end, nxt - 1))
        _close_ranges(node, node.end_page)


def page_groups(page_count: int, title: str, group: int = 10) -> Node:
    """Last-resort structure: consecutive groups of ``group`` pages."""
    entries = [
        Entry(1, f"Pages {start}\u2013{min(page_count, start + group - 1)}" if group > 1 else f"Page {start}", start, KIND_PAGE_GROUP)
        for start in range(1, page_count + 1, group)
    ]
    return build_tree(entries, page_count, title)
