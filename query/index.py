"""Open one document's index at a version and read it: outline, sections, pages, grep.

Thin on purpose: imports neither Prefect nor PyMuPDF. tree.json is loaded
eagerly (it is small); the Parquet tables are read on first use, with column
projection. Loaded documents (tree, tables read so far, search index) are
cached in-process per (store, doc, version): versions are immutable.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from typing import Any, Callable, Sequence

from index_store import layout
from index_store.errors import InvalidDocId
from index_store.errors import NotFound as StoreNotFound
from index_store.model import Node, Tree, title_paths
from index_store.store import Store
from query.errors import InvalidRequest, NotFoundError, PageOutOfRange
from query.normalize import normalize

DEFAULT_MAX_CHARS = 20_000
MAX_GREP_HITS = 200
MAX_PATTERN = 500

log = logging.getLogger(__name__)


def compile_safe(pattern: str, ignore_case: bool = True) -> Any:
    """Compile with RE2 (linear-time matching); InvalidRequest for bad or unsupported patterns."""
    import re2

    if not pattern or len(pattern) > MAX_PATTERN:
        raise InvalidRequest(f"pattern must be 1-{MAX_PATTERN} characters")
    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.log_errors = False
    options.max_mem = 8 << 20  # a huge alternation fails to compile instead of eating memory
    try:
        return re2.compile(pattern, options)
    except (re2.error, ValueError, TypeError) as exc:
        raise InvalidRequest(f"invalid regex {pattern!r} (RE2 syntax: no backreferences or lookaround): {exc}") from None


MAX_SPEC_CHARS = 1000


def parse_page_spec(spec: str | tuple[int, int] | list[int], page_count: int, limit: int = 200) -> list[int]:
    """'5-10,12' -> [5..10, 12]; pages outside 1..page_count are an error (PageOutOfRange), and so is asking for
    more than ``limit`` pages (InvalidRequest). Every range is checked against the page count before it is
    expanded, so no spec costs more than ``limit`` + page_count integers ('1-200000000' used to be 7.9 GB)."""
    if isinstance(spec, tuple):
        spec = f"{spec[0]}-{spec[1]}"
    if isinstance(spec, list):
        spec = ",".join(str(p) for p in spec)
    text = str(spec).replace(" ", "")
    if len(text) > MAX_SPEC_CHARS:
        raise InvalidRequest(f"page spec longer than {MAX_SPEC_CHARS} characters")
    pages: list[int] = []
    for part in text.split(","):
        if not part:
            continue
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise InvalidRequest(f"invalid page spec {text[:80]!r}: use forms like '5', '5-10', '5-10,12'")
        for digits in m.groups():
            if digits and (len(digits) > 9 or not 1 <= int(digits) <= page_count):
                shown = digits if len(digits) <= 12 else digits[:12] + "..."
                raise PageOutOfRange(f"page {shown} out of range 1-{page_count}")
        a, b = int(m.group(1)), int(m.group(2) or m.group(1))
        if b < a:
            raise InvalidRequest(f"invalid page range {part!r}: end before start")
        if len(pages) + (b - a + 1) > limit:
            raise InvalidRequest(f"page spec {text[:80]!r} asks for more than {limit} pages")
        pages.extend(range(a, b + 1))
    if not pages:
        raise InvalidRequest("empty page spec: use forms like '5', '5-10', '5-10,12'")
    return list(dict.fromkeys(pages))


def version_id(version: str | None) -> str | None:
    """A version id as given: 16 hex digits, or the 'v'-prefixed form that list and the run summaries print."""
    if version and len(version) == 17 and version[0] in "vV":
        return version[1:]
    return version


class DocIndex:
    """One document at one version."""

    def __init__(self, store: Store, doc_id: str, version: str, tree: Tree):
        self.store = store
        self.doc_id = doc_id
        self.version = version
        self.tree = tree
        self._by_id: dict[str, Node] = {}
        self._parent: dict[str, str | None] = {}
        self._path = title_paths(tree.root)
        self._index(tree.root, None)
        self._lock = threading.Lock()
        self._node_text: dict[str, str] | None = None
        self._pages: list[dict[str, Any]] | None = None
        self._normalized: list[str] | None = None
        self._memo: dict[str, Any] = {}
        self._memo_lock = threading.Lock()  # not _lock: a build reads pages and node texts, which take _lock

    def _index(self, node: Node, parent: Node | None) -> None:
        self._by_id[node.node_id] = node
        self._parent[node.node_id] = parent.node_id if parent else None
        for child in node.nodes:
            self._index(child, node)

    # -- lookups ---------------------------------------------------------
    def node(self, node_id: str) -> Node:
        try:
            return self._by_id[node_id]
        except KeyError:
            raise NotFoundError(f"node {node_id!r} not found in {self.doc_id}@{self.version}") from None

    def has_node(self, node_id: str) -> bool:
        return node_id in self._by_id

    def path(self, node_id: str) -> str:
        self.node(node_id)
        return self._path[node_id]

    def parent_id(self, node_id: str) -> str | None:
        return self._parent.get(node_id)

    def nodes(self) -> list[Node]:
        return list(self._by_id.values())

    def _source(self, name: str) -> Any:
        """A file of this version as Parquet readers take it: its local path, or its bytes from a remote store."""
        path = self.store.backend.local_path(f"{layout.version_prefix(self.doc_id, self.version)}/{name}")
        return str(path) if path is not None else self.store.read_file(self.doc_id, self.version, name)

    def _table(self, name: str, columns: list[str] | None) -> Any:
        from index_store.tables import read_table  # pyarrow only when a table is needed

        return read_table(self._source(name), columns=columns)

    def node_texts(self) -> dict[str, str]:
        with self._lock:
            if self._node_text is None:
                table = self._table(layout.NODES, ["node_id", "text"])
                self._node_text = dict(zip(table.column("node_id").to_pylist(), table.column("text").to_pylist()))
            return self._node_text

    def pages(self) -> list[dict[str, Any]]:
        with self._lock:
            if self._pages is None:
                table = self._table(layout.PAGES, ["page_number", "label", "text", "text_source"])
                self._pages = table.to_pylist()
            return self._pages

    def normalized_texts(self) -> list[str]:
        """Every page's text as search, grep and find match it (query.normalize); pages.parquet stays faithful."""
        pages = self.pages()
        with self._lock:
            if self._normalized is None:
                self._normalized = [normalize(p["text"] or "") for p in pages]
            return self._normalized

    # -- tools -----------------------------------------------------------
    def outline(self, node_id: str = "0000", depth: int = 2) -> dict[str, Any]:
        """The subtree at ``node_id``, ``depth`` levels deep, with summaries."""
        if not 0 <= depth <= 10:
            raise InvalidRequest("depth must be between 0 and 10")

        def render(node: Node, remaining: int) -> dict[str, Any]:
            out: dict[str, Any] = {
                "node_id": node.node_id,
                "title": node.title,
                "level": node.level,
                "start_page": node.start_page,
                "end_page": node.end_page,
                "summary": node.summary,
            }
            if node.extra.get("anchor"):  # HTML sources: the heading's id, to deep-link into the document
                out["anchor"] = node.extra["anchor"]
            if node.nodes:
                if remaining > 0:
                    out["nodes"] = [render(c, remaining - 1) for c in node.nodes]
                else:
                    out["more"] = f"[+{len(node.nodes)} subsections]"
            return out

        return render(self.node(node_id), depth)

    def section_text(self, node_id: str) -> str:
        """The whole section: the node's own text followed by its descendants', in order."""
        texts = self.node_texts()
        return "\n\n".join(t for n in self.node(node_id).walk() if (t := texts.get(n.node_id, "")))

    def read(self, node_id: str, max_chars: int = DEFAULT_MAX_CHARS, cursor: int = 0) -> dict[str, Any]:
        """Section text with its path and pages; long sections come in pieces (``next_cursor``)."""
        if max_chars < 1 or max_chars > 200_000:
            raise InvalidRequest("max_chars must be between 1 and 200000")
        node = self.node(node_id)
        text = self.section_text(node_id)
        if cursor < 0 or cursor > len(text):
            raise InvalidRequest(f"cursor {cursor} out of range 0-{len(text)}")
        piece = text[cursor : cursor + max_chars]
        end = cursor + len(piece)
        return {
            "doc_id": self.doc_id,
            "version": self.version,
            "node_id": node.node_id,
            "title": node.title,
            "path": self._path[node.node_id],
            "start_page": node.start_page,
            "end_page": node.end_page,
            "text": piece,
            "total_chars": len(text),
            "truncated": end < len(text),
            "next_cursor": end if end < len(text) else None,
        }

    def read_pages(self, spec: str | tuple[int, int] | list[int], max_chars: int = DEFAULT_MAX_CHARS * 5) -> list[dict[str, Any]]:
        """Pages by physical number ('5-10,12'), each with its label and the deepest node containing it."""
        wanted = parse_page_spec(spec, self.tree.page_count)
        pages = self.pages()
        out, used = [], 0
        for number in wanted:
            row = pages[number - 1]
            text = row["text"] or ""
            if used + len(text) > max_chars:
                text = text[: max(0, max_chars - used)]
            used += len(text)
            node = self.node_for_page(number)
            out.append({"page": number, "label": row["label"], "text": text, "text_source": row["text_source"],
                        "node_id": node.node_id, "path": self._path[node.node_id]})
        return out

    def node_for_page(self, page: int) -> Node:
        """The deepest node whose range contains ``page`` (the last to start, among equals)."""
        node = self.tree.root
        while True:
            inside = [c for c in node.nodes if c.start_page <= page <= c.end_page]
            if not inside:
                return node
            node = inside[-1]

    def grep(self, pattern: str, node_id: str | None = None, pages: str | None = None,
             max_hits: int = 50, ignore_case: bool = True) -> list[dict[str, Any]]:
        """Regex hits (line, page, node path), scoped to a section and/or pages, capped.

        Patterns run on RE2 (linear time, no backtracking), so no pattern can pin a CPU;
        the price is no backreferences or lookaround, which are refused as invalid.
        """
        rx = compile_safe(pattern, ignore_case)
        max_hits = max(1, min(max_hits, MAX_GREP_HITS))
        scope = self.node(node_id or self.tree.root.node_id)
        numbers: Any = range(scope.start_page, min(scope.end_page, self.tree.page_count) + 1)
        if pages:
            allowed = set(parse_page_spec(pages, self.tree.page_count, limit=100_000))
            numbers = [n for n in numbers if n in allowed]
        texts = self.normalized_texts()  # what search matches too
        hits: list[dict[str, Any]] = []
        for number in numbers:
            for line in texts[number - 1].splitlines():
                if len(line) > 2000:
                    line = line[:2000]
                m = rx.search(line)
                if m:
                    node = self.node_for_page(number)
                    hits.append({"page": number, "node_id": node.node_id, "path": self._path[node.node_id],
                                 "line": line.strip(), "match": m.group(0)})
                    if len(hits) >= max_hits:
                        return hits
        return hits

    def find(self, text: str, max_hits: int = 50) -> list[dict[str, Any]]:
        """Sections containing ``text`` (case-insensitive exact substring) with the pages it is on."""
        needle = " ".join(normalize(text).split()).lower()
        if not needle or len(needle) > MAX_PATTERN:
            raise InvalidRequest(f"find text must be 1-{MAX_PATTERN} characters")
        on_pages = [i for i, t in enumerate(self.normalized_texts(), 1) if needle in " ".join(t.split()).lower()]
        out: list[dict[str, Any]] = []
        by_node: dict[str, list[int]] = {}
        for page in on_pages:
            by_node.setdefault(self.node_for_page(page).node_id, []).append(page)
        for node in self.nodes():  # titles match too (a heading may be split across lines in page text)
            if needle in " ".join(normalize(node.title).split()).lower() and node.node_id not in by_node and node.level > 0:
                by_node[node.node_id] = []
        for node_id, pages in by_node.items():
            node = self.node(node_id)
            out.append({"node_id": node_id, "title": node.title, "path": self._path[node_id],
                        "start_page": node.start_page, "end_page": node.end_page, "pages": pages})
            if len(out) >= max(1, min(max_hits, MAX_GREP_HITS)):
                break
        return out

    def facts(self, concept: str | None = None, text: str | None = None, limit: int = 10_000) -> list[dict[str, Any]]:
        """Inline-XBRL facts (facts.parquet) in document order, optionally one concept ("us-gaap:Revenues",
        or "Revenues" for any prefix) and/or values containing ``text``; [] for a document without XBRL."""
        try:
            table = self._table(layout.FACTS, None)
        except (StoreNotFound, FileNotFoundError):
            return []
        needle = (text or "").casefold()
        out = []
        for row in table.to_pylist():
            name = row["concept"] or ""
            if concept and name != concept and name.rsplit(":", 1)[-1] != concept:
                continue
            if needle and needle not in (row["value"] or "").casefold():
                continue
            out.append(row)
            if len(out) >= limit:
                break
        return out

    def versions(self) -> list[dict[str, Any]]:
        """Published versions of this document, oldest first (version, created_at, fingerprint, ...)."""
        return versions(self.store, self.doc_id)

    def memoized(self, name: str) -> Any:
        """What ``memo(name, ...)`` has built for this version, or None if nothing has asked for it yet."""
        with self._memo_lock:
            return self._memo.get(name)

    def page_postings(self, terms: Sequence[str]) -> Any:
        """query.terms.PagePostings of ``terms`` from this version's terms.parquet; None for a version indexed
        before the table existed, or by another tokeniser (the caller builds the postings from the pages)."""
        from query.terms import read_terms  # pyarrow only when a table is needed

        name = layout.TERMS
        try:
            return read_terms(self._source(name), terms)
        except (StoreNotFound, OSError, ValueError) as exc:  # gone, unreadable or not Parquet: the pages still serve
            if not isinstance(exc, (StoreNotFound, FileNotFoundError)):
                log.warning("%s@%s: %s unreadable (%s); reading the pages instead", self.doc_id, self.version, name,
                            type(exc).__name__)
            return None

    def memo(self, name: str, build: Callable[[], Any]) -> Any:
        """What ``build()`` returns, built once per loaded version (the lexical navigator's index); callers wait."""
        with self._memo_lock:
            if name not in self._memo:
                self._memo[name] = build()
            return self._memo[name]


def versions(store: str | Store, doc_id: str) -> list[dict[str, Any]]:
    """History of a document: one summary per published version, oldest first."""
    st = open_store(store)
    try:
        layout.check_doc_id(doc_id)
        manifests = st.versions(doc_id)
        latest = (st.latest(doc_id) or {}).get("version")
    except (StoreNotFound, InvalidDocId) as exc:
        raise NotFoundError(str(exc)) from None
    if not manifests:
        raise NotFoundError(f"document {doc_id!r} not found in {st.uri}")
    return [{"version": m.get("version"), "created_at": m.get("created_at"), "latest": m.get("version") == latest,
             "fingerprint": (m.get("pipeline") or {}).get("fingerprint"), "structure_source": m.get("structure_source"),
             "pages": (m.get("stats") or {}).get("pages"), "source_sha256": (m.get("source") or {}).get("sha256")}
            for m in manifests]


_CACHE: OrderedDict[tuple[str, str, str], DocIndex] = OrderedDict()
_CACHE_LOCK = threading.Lock()
CACHE_SIZE = 32


def cache_clear() -> None:
    """Forget every loaded document (tests, or to free memory)."""
    with _CACHE_LOCK:
        _CACHE.clear()


def open_store(store: str | Store, **options: Any) -> Store:
    return store if isinstance(store, Store) else Store(str(store), **options)


def open_index(store: str | Store, doc_id: str, version: str | None = None, **store_options: Any) -> DocIndex:
    """A document at ``version`` (default: latest). Raises NotFoundError for unknown docs/versions.

    Loaded documents are cached in-process by (store, doc, version): versions are
    immutable, so only the latest.json lookup is repeated for ``version=None``.
    """
    st = open_store(store, **store_options)
    try:
        layout.check_doc_id(doc_id)
        resolved = st.resolve(doc_id, version_id(version))
        key = (st.uri, doc_id, resolved)
        with _CACHE_LOCK:
            doc = _CACHE.get(key)
            if doc is not None:
                _CACHE.move_to_end(key)
                return doc
        tree = st.tree(doc_id, resolved)
    except (StoreNotFound, InvalidDocId) as exc:
        raise NotFoundError(str(exc)) from None
    doc = DocIndex(st, doc_id, resolved, tree)
    with _CACHE_LOCK:
        _CACHE[key] = doc
        while len(_CACHE) > CACHE_SIZE:
            _CACHE.popitem(last=False)
    return doc
