"""The index data model: the tree, page records and manifest a version is made of.

This module is the store's format contract (see docs/format.md). It is plain
dataclasses so that `query` can load a tree in a few milliseconds without
pulling in heavy dependencies. Unknown keys in stored JSON are kept in
``extra`` so newer writers never break older readers.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterator

from index_store.errors import FormatError

# 2: documents read from HTML and Markdown (tree.json ``source_format``, ``page_kind``, node ``anchor``; an
# optional facts.parquet). Version 1 trees are still read: their pages are physical pages of a PDF.
SCHEMA_VERSION = 2
SOURCE_FORMATS = ("pdf", "html", "markdown")
PAGE_KINDS = ("physical", "virtual")

STRUCTURE_SOURCES = ("bookmarks", "toc", "headings", "llm", "pages")
TEXT_SOURCES = ("text", "ocr", "vision", "none")
SUMMARY_SOURCES = ("extractive", "model", "text", "none")
#: tree.json "doc_kind", decided at index time (parsers/describe.py); query profiles key on it.
DOC_KINDS = ("filing", "manual", "other")
#: tree.json node "kind" of nodes that are not sections of the document: page groups made where no structure was
#: found (trees written before the front matter became the root's own text may also carry "front_matter").
KIND_PAGE_GROUP = "page_group"
SYNTHETIC_KINDS = ("front_matter", KIND_PAGE_GROUP)
#: A node summary is one sentence of at most this many words (the extractive summarizer and the model prompt).
SUMMARY_MAX_WORDS = 30
#: Joins the titles from the first level down to a node into its path ("Chapter > Section").
PATH_SEP = " > "
#: Words of a company's legal form ("Inc", "plc", "Holdings"): not part of the name a reader calls it by, wherever
#: names are read (parsers/describe.py) or matched (query/names.py, query/periods.py).
LEGAL_WORDS = frozenset("the inc incorporated corp corporation company co ltd limited plc llc lp nv sa ag group holdings "
                        "holding".split())


@dataclass
class Node:
    """One section. Pages are 1-based physical and inclusive."""

    node_id: str
    title: str
    level: int
    start_page: int
    end_page: int
    summary: str = ""
    nodes: list["Node"] = field(default_factory=list)
    summary_source: str = "none"
    extra: dict[str, Any] = field(default_factory=dict)

    def walk(self) -> Iterator["Node"]:
        """Pre-order traversal, self first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.nodes))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = dict(self.extra)
        d.update(
            node_id=self.node_id,
            title=self.title,
            level=self.level,
            start_page=self.start_page,
            end_page=self.end_page,
            summary=self.summary,
            summary_source=self.summary_source,
            nodes=[child.to_dict() for child in self.nodes],
        )
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Node":
        try:
            known = {f.name for f in dataclasses.fields(cls)}
            return cls(
                node_id=str(d["node_id"]),
                title=str(d["title"]),
                level=int(d["level"]),
                start_page=int(d["start_page"]),
                end_page=int(d["end_page"]),
                summary=str(d.get("summary") or ""),
                summary_source=str(d.get("summary_source") or "none"),
                nodes=[cls.from_dict(c) for c in d.get("nodes") or []],
                extra={k: v for k, v in d.items() if k not in known},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"invalid node in tree.json: {exc!r}") from exc


@dataclass
class Tree:
    """Content of tree.json."""

    doc_id: str
    version: str
    page_count: int
    structure_source: str
    page_offset: int | None
    root: Node
    schema_version: int = SCHEMA_VERSION
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = dict(self.extra)
        d.update(
            schema_version=self.schema_version,
            doc_id=self.doc_id,
            version=self.version,
            page_count=self.page_count,
            structure_source=self.structure_source,
            page_offset=self.page_offset,
            root=self.root.to_dict(),
        )
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Tree":
        try:
            schema = int(d["schema_version"])
            if schema > SCHEMA_VERSION:
                raise FormatError(
                    f"tree.json schema_version {schema} is newer than this reader ({SCHEMA_VERSION}); upgrade pagetree"
                )
            known = {f.name for f in dataclasses.fields(cls)}
            return cls(
                schema_version=schema,
                doc_id=str(d["doc_id"]),
                version=str(d["version"]),
                page_count=int(d["page_count"]),
                structure_source=str(d["structure_source"]),
                page_offset=None if d.get("page_offset") is None else int(d["page_offset"]),
                root=Node.from_dict(d["root"]),
                extra={k: v for k, v in d.items() if k not in known},
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"invalid tree.json: {exc!r}") from exc

    def nodes(self) -> Iterator[Node]:
        return self.root.walk()

    @property
    def source_format(self) -> str:
        """``pdf`` | ``html`` | ``markdown`` (trees written before schema 2 are PDFs)."""
        return str(self.extra.get("source_format") or "pdf")

    @property
    def page_kind(self) -> str:
        """``physical`` (printed pages, the default) or ``virtual`` (~3,000-character cuts of a page-less text)."""
        return str(self.extra.get("page_kind") or "physical")

    @property
    def doc_kind(self) -> str:
        """"filing" | "manual" | "other"; trees written before the field existed read as "other"."""
        kind = self.extra.get("doc_kind")
        return kind if kind in DOC_KINDS else "other"

    @property
    def title(self) -> str:
        """The document's title (tree.json "title"; the root's title for older trees)."""
        return str(self.extra.get("title") or self.root.title)

    @property
    def description(self) -> str:
        """The catalog description (tree.json "description"), "" when absent."""
        return str(self.extra.get("description") or "")

    def find(self, node_id: str) -> Node | None:
        for node in self.root.walk():
            if node.node_id == node_id:
                return node
        return None


@dataclass
class PageRecord:
    """One row of pages.parquet."""

    page_number: int
    label: str | None
    text: str
    text_source: str = "text"
    ocr_confidence: float | None = None


@dataclass
class NodeRow:
    """One row of nodes.parquet: the tree flattened, with each node's own text."""

    node_id: str
    parent_id: str | None
    level: int
    title: str
    path: str
    start_page: int
    end_page: int
    summary: str
    summary_source: str
    text: str


@dataclass
class FactRow:
    """One row of facts.parquet: an inline-XBRL fact and where it appears (null node/page when hidden)."""

    concept: str
    value: str
    number: float | None
    unit: str | None
    period_start: str | None
    period_end: str | None
    instant: str | None
    decimals: str | None
    context_id: str
    dimensions: str | None  # JSON object {axis: member}, null for the default context
    node_id: str | None
    page_number: int | None
    fact_id: str | None = None


def number_tree(root: Node) -> None:
    """Assign zero-padded pre-order ids ("0000" is the root) and levels."""
    width = 4 if sum(1 for _ in root.walk()) <= 10_000 else 6

    def visit(node: Node, level: int, counter: list[int]) -> None:
        node.node_id = str(counter[0]).zfill(width)
        node.level = level
        counter[0] += 1
        for child in node.nodes:
            visit(child, level + 1, counter)

    visit(root, 0, [0])


def title_paths(root: Node) -> dict[str, str]:
    """node_id -> the titles from the first level down joined by PATH_SEP (the root: its own title)."""
    out: dict[str, str] = {}

    def visit(node: Node, path: list[str]) -> None:
        here = path + [node.title] if node.level > 0 else path
        out[node.node_id] = PATH_SEP.join(here) if here else node.title
        for child in node.nodes:
            visit(child, here)

    visit(root, [])
    return out


def flatten(root: Node, own_text: dict[str, str]) -> list[NodeRow]:
    """Rows for nodes.parquet in pre-order with parent ids and title paths."""
    rows: list[NodeRow] = []

    def visit(node: Node, parent: Node | None, path: list[str]) -> None:
        here = path + [node.title] if node.level > 0 else path
        rows.append(
            NodeRow(
                node_id=node.node_id,
                parent_id=parent.node_id if parent else None,
                level=node.level,
                title=node.title,
                path=PATH_SEP.join(here) if here else node.title,
                start_page=node.start_page,
                end_page=node.end_page,
                summary=node.summary,
                summary_source=node.summary_source,
                text=own_text.get(node.node_id, ""),
            )
        )
        for child in node.nodes:
            visit(child, node, here)

    visit(root, None, [])
    return rows
