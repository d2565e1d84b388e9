"""The structure chain: bookmarks -> printed TOC + offsets -> headings -> (LLM hook) -> page groups.

Each method either returns a credible list of entries or says why not; the
chain records every decision so a wrong tree is explainable from its manifest.
Long leaves are then split by the headings inside them, or by page groups.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from index_store.model import Node
from parsers.bookmarks import read_bookmarks
from parsers.exhibits import add_exhibits
from parsers.headings import (MARGIN, MAX_HEAD_WORDS, MIN_NUMBERED, SENTENCE, Heading, body_size, detect_headings,
                              outline_headings, restarted_clauses)
from parsers.filing_pdf import anchor_items
from parsers.filings import complete_filing, is_filing, statement_title
from parsers.index_groups import BOOK_INDEX, index_heading, letter_groups
from parsers.inner_toc import add_inner_tocs
from parsers.memo import document_scope
from parsers.offsets import CHECKED, map_entries, title_key
from parsers.layout import PageLayout
from parsers.numbering import parse_numbering
from parsers.pdf import PdfSource
from parsers.ranges import KIND_PAGE_GROUP, Entry, build_tree
from parsers.toc import TocEntry, TocResult, find_toc, screen_page, spell_accents
from parsers.toc_bullets import find_bullet_toc
from parsers.toc_sections import body_sections, chapters_only, headed_sections, one_level, unlisted_sections

# A hook for a model-backed fallback, called only when no deterministic method
# (bookmarks, printed TOC, headings) yields a credible tree. It gets the open
# document and returns entries (or []) plus a dict of decisions for the manifest.
LlmStructureHook = Callable[[PdfSource], tuple[list[Entry], dict[str, Any]]]

MIN_ENTRIES = 3
MIN_VERIFIED_SHARE = 0.5  # of TOC entries with a page number that must check out in the body
# Below this many characters a page on average, the body has no text layer to verify TOC entries against
# (a typeset page holds 2,000-4,000; a running head and folio alone ~50).
MIN_BODY_CHARS = 150
MIN_BULLETED_PLACED = 0.6  # of a bulleted contents' titles (no page numbers) that must be found in the body
MAX_GOOD_SHARE_PAST_END = 0.25  # a TOC tail projected past the last page is cut when fewer of it check out
MAX_SPLIT_PAGES = 400  # do not build layouts for more pages than this when splitting leaves
MAX_LEAF_TOKENS = 20_000  # a leaf above this many (approximate) tokens is split even if short in pages
# A fine-grained author outline (bookmarks or a printed TOC) is split only where a leaf exceeds this many
# times the limits: an author's long leaf (an index, a reference section, a 10-K's Risk Factors or MD&A) is
# a unit the author chose; the corpus figures are in benchmarks/results/comment-figures.md.
OUTLINE_SPLIT_FACTOR = 4
AUTHOR_OUTLINES = ("bookmarks", "toc")
BODY_SAMPLE_PAGES = 9  # pages read for the document's body size, spread evenly over it
LARGER = 0.9  # points above the body size that make a line larger than the text (as headings.py counts them)
MIN_SPLIT_SHARE = 0.5  # of a leaf's pages that body-size heads must put in children under the limit
# "Index, general", "Index, commands": an index named by what it lists after a comma (gri's), as alphabetical as any.
_QUALIFIED_INDEX = re.compile(r"^\s*index,\s+[^\W\d_]+\s*$", re.I)
_SUBSET_TAG = re.compile(r"^[A-Z]{6}\+")


@dataclass
class StructureResult:
    entries: list[Entry]
    source: str  # bookmarks | toc | headings | llm | pages
    page_offset: int | None = None
    decisions: dict[str, Any] = field(default_factory=dict)


def recover_structure(
    pdf: PdfSource, llm_hook: LlmStructureHook | None = None, max_leaf_pages: int = 10,
    outline_split_factor: int = OUTLINE_SPLIT_FACTOR,
) -> StructureResult:
    """Run the chain; ``max_leaf_pages`` (0 = never) bounds leaf size by splitting long leaves.

    A fine-grained author outline (bookmarks, printed TOC) is kept verbatim except for leaves over
    ``outline_split_factor`` times the limits (0 = never split it); a coarse one, and a tree of detected
    headings, has every leaf over the limits split (see ``outline_is_coarse``).
    """
    with document_scope():  # the answers of pure text functions asked again and again, for this document only
        return _recover(pdf, llm_hook, max_leaf_pages, outline_split_factor)


def _recover(pdf: PdfSource, llm_hook: LlmStructureHook | None, max_leaf_pages: int,
             outline_split_factor: int) -> StructureResult:
    result = _chain(pdf, llm_hook)
    if result.source != "bookmarks":
        _anchor_filing(result, pdf)
        _add_exhibits(result, pdf)
    if result.entries and max_leaf_pages > 0:
        factor = 1
        if result.source in AUTHOR_OUTLINES:
            coarse = outline_is_coarse(result.entries, pdf.page_count, max_leaf_pages)
            # A coarse outline (chapters only) leaves whole chapters as leaves: split them like any other tree.
            # A fine-grained one is the author's chosen granularity: its sections stay whole unless outsized.
            factor = 1 if coarse else outline_split_factor
            result.decisions["outline"] = "coarse" if coarse else "fine-grained"
        if factor > 0:
            try:
                result.entries, info = split_long_leaves(result.entries, pdf, max_leaf_pages, True, factor)
                result.decisions["split"] = info
            except Exception as exc:  # splitting is an refinement: a failure keeps the unsplit tree
                result.decisions["split"] = {"error": f"{type(exc).__name__}: {exc}"}
    return result


def _anchor_filing(result: StructureResult, pdf: PdfSource) -> None:
    """A 10-K/10-Q's Parts and Items from the headings in its body, which win over a misread contents page."""
    try:
        entries, info = anchor_items(result.entries, pdf.page_count, pdf.text)
    except Exception as exc:  # a refinement: a failure keeps the chain's entries
        result.decisions["filing"] = {"error": f"{type(exc).__name__}: {exc}"}
        return
    if info:
        result.decisions["filing"] = info
    if entries is not result.entries:
        result.entries = entries
        if result.source == "pages":
            result.source = "headings"  # the Items headed in the body are the structure


def _add_exhibits(result: StructureResult, pdf: PdfSource) -> None:
    """A filing's long exhibits with a structure of their own get a subtree, and then every exhibit a node."""
    try:
        result.entries, info = add_exhibits(result.entries, pdf.page_count, pdf.text, pdf.layout, pdf.labels())
    except Exception as exc:  # a refinement: a failure keeps the chain's entries
        info = {"error": f"{type(exc).__name__}: {exc}"}
    if info:
        result.decisions["exhibits"] = info


def outline_is_coarse(entries: list[Entry], page_count: int, max_pages: int) -> bool:
    """An outline is coarse when its median leaf is longer than ``max_pages`` (e.g. chapter-only bookmarks)."""
    root = build_tree(entries, page_count, "")
    spans = sorted(n.end_page - n.start_page + 1 for n in root.walk() if n.level > 0 and not n.nodes)
    return bool(spans) and spans[len(spans) // 2] > max_pages


def _chain(pdf: PdfSource, llm_hook: LlmStructureHook | None) -> StructureResult:
    tried: list[dict[str, Any]] = []
    decisions: dict[str, Any] = {"tried": tried}

    entries, why, info = read_bookmarks(pdf)
    tried.append({"method": "bookmarks", "used": why is None, "reason": why, **info})
    if why is None:
        return StructureResult(entries, "bookmarks", None, decisions)

    try:
        toc_entries, offset, toc_info, why = _from_toc(pdf)
    except Exception as exc:  # no input may crash the chain: fall through to the next method
        toc_entries, offset, toc_info, why = [], None, {}, f"TOC reader failed: {type(exc).__name__}: {exc}"
    tried.append({"method": "toc", "used": why is None, "reason": why})
    if toc_info:
        decisions["toc"] = toc_info
    if why is None:
        return StructureResult(toc_entries, "toc", offset, decisions)

    try:
        head_entries, why = _from_headings(pdf)
    except Exception as exc:
        head_entries, why = [], f"headings failed: {type(exc).__name__}: {exc}"
    tried.append({"method": "headings", "used": why is None, "reason": why})
    if why is None:
        return StructureResult(head_entries, "headings", None, decisions)

    if llm_hook is not None:
        try:
            llm_entries, llm_info = llm_hook(pdf)
        except Exception as exc:  # the hook's provider may fail; the document still gets page groups
            llm_entries, llm_info = [], {"reason": f"{type(exc).__name__}: {exc}"}
        tried.append({"method": "llm", "used": bool(llm_entries), **llm_info})
        if llm_entries:
            return StructureResult(llm_entries, "llm", None, decisions)
    tried.append({"method": "pages", "used": True, "reason": "no credible structure found"})
    return StructureResult([], "pages", None, decisions)


def _from_toc(pdf: PdfSource) -> tuple[list[Entry], int | None, dict[str, Any], str | None]:
    toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    bulleted = False
    if not toc.entries:
        # A bulleted list of titles without page numbers under a contents heading (a web page printed to PDF).
        heads = [n for n in range(1, min(pdf.page_count, 40) + 1) if screen_page(pdf.text(n))[0]]
        found, pages = find_bullet_toc(pdf.page_count, pdf.text, pdf.layout, heads) if heads else ([], [])
        if found:
            toc, bulleted = TocResult(found, pages), True
    if len(toc.entries) < MIN_ENTRIES:
        return [], None, ({"pages": toc.pages} if toc.pages else {}), toc.reason or f"only {len(toc.entries)} TOC entries"
    texts = [pdf.text(n) for n in range(1, pdf.page_count + 1)]
    listed = len(toc.entries)
    # When the body begins under the listing on its last page, that page is the first section's as well.
    shared = toc.pages[-1] if toc.body_on_last_page else None
    result = map_entries(toc.entries, texts, pdf.labels(), toc.pages, shared, by_heading=bulleted)
    cut = beyond_last_page(toc.entries, pdf.page_count)
    if cut < listed:
        # A truncated document (an excerpt) or a TOC listing more than the file holds: map what is in range.
        toc.entries = [dataclasses.replace(e, physical=None, status="") for e in toc.entries[:cut]]
        result = map_entries(toc.entries, texts, pdf.labels(), toc.pages, shared)
    info = {
        "pages": toc.pages,
        "entries": len(toc.entries),
        "beyond_last_page": listed - len(toc.entries),
        "page_offset": result.page_offset,
        "mapping": result.mapping,
        "offset_method": result.method,
        **result.counts,
        **result.decisions,
    }
    with_pages = [e for e in toc.entries if e.page is not None or e.link is not None]
    good = sum(1 for e in with_pages if e.status in CHECKED)
    if bulleted:
        placed = sum(1 for e in toc.entries if e.status in CHECKED or e.status == "located")
        if placed < MIN_BULLETED_PLACED * len(toc.entries):
            return [], None, info, f"only {placed} of {len(toc.entries)} titles of a bulleted contents found in the body"
        info["bulleted"] = True
    if with_pages and good < MIN_VERIFIED_SHARE * len(with_pages):
        if result.method == "after-contents" and not body_has_text(texts, toc.pages):
            # Nothing to verify against (a body without a text layer): the listing is the only evidence there is.
            info["unverified_body"] = True
        else:
            return [], None, info, f"only {good} of {len(with_pages)} TOC entries could be verified in the body"
    entries = [Entry(e.level, spell_accents(e.title), e.physical or 1) for e in toc.entries]
    filing = is_filing(entries)
    if not filing and chapters_only(toc.entries):
        # A contents of chapters only: their numbered sections are headed in the body.
        per_entry = body_sections(toc.entries, pdf.text, pdf.page_count)
        if any(per_entry):
            entries = [x for e, kids in zip(entries, per_entry) for x in [e, *kids]]
            info["body_sections"] = sum(map(len, per_entry))
    if (not filing and not bulleted and "body_sections" not in info and one_level(toc.entries)
            and pdf.page_count <= MAX_SPLIT_PAGES):
        # A contents of one level whose entries the body heads, with sections headed one style below them.
        per_entry = headed_sections(entries, _outline_heads(pdf)[0])
        if any(per_entry):
            entries = [x for e, kids in zip(entries, per_entry) for x in [e, *kids]]
            info["headed_sections"] = sum(map(len, per_entry))
    if not filing:
        # An unnumbered entry listed alone (a preface) whose pages head numbered sections: they are its children.
        per_entry = unlisted_sections(entries, pdf.layout, pdf.page_count)
        if any(per_entry):
            entries = [x for e, kids in zip(entries, per_entry) for x in [e, *kids]]
            info["unlisted_sections"] = sum(map(len, per_entry))
    back: list[Entry] = []
    if filing:
        # Back matter first, so that the last Item ends at the signatures and an exhibit's own contents page
        # (an Exhibit 13 annual report's) is not read as the last Item's; exhibits get theirs in add_exhibits.
        entries, filing_info = complete_filing(entries, pdf.page_count, pdf.text, toc.heading, toc.pages[0])
        info.update(filing_info)
        cut = len(entries) - filing_info["back_matter"]
        entries, back = entries[:cut], entries[cut:]
    # A section's own contents listing (a 10-K's index to the financial statements) gives its children.
    end = back[0].page - 1 if back else pdf.page_count
    entries, inner = add_inner_tocs(entries, end, pdf.text, pdf.layout, pdf.labels(), toc.pages)
    entries += back
    if inner:
        info["inner"] = inner
    if filing:
        entries = [dataclasses.replace(e, title=statement_title(e.title)) for e in entries]
    return entries, result.page_offset, info, None


def body_has_text(texts: list[str], toc_pages: list[int]) -> bool:
    """Whether the pages after the contents carry enough text to find titles in (MIN_BODY_CHARS a page on average)."""
    body = texts[max(toc_pages, default=0):]
    return not body or sum(len(t.strip()) for t in body) >= MIN_BODY_CHARS * len(body)


def beyond_last_page(entries: list[TocEntry], page_count: int) -> int:
    """Index of the first TOC entry listed past the document's end, ``len(entries)`` if there is none.

    An entry is past the end when its printed page, shifted by the offset of the last entry before it
    that checked out, exceeds the page count and few of the entries from there on check out: the TOC
    of a document cut short (an excerpt) lists pages the file does not have. A single misread number
    mid-TOC is not a cut (the entries after it still check out).
    """
    good = [e.status in CHECKED for e in entries]
    offset: int | None = None
    for i, e in enumerate(entries):
        arabic = e.page is not None and e.page.kind == "arabic"
        if arabic and offset is not None and e.page.value + offset > page_count:  # type: ignore[union-attr]
            tail = good[i:]
            if sum(tail) < MAX_GOOD_SHARE_PAST_END * len(tail):
                return i
        if arabic and good[i] and e.physical:
            offset = e.physical - e.page.value  # type: ignore[union-attr]
    return len(entries)


def _outline_heads(pdf: PdfSource) -> tuple[list[Heading], list[PageLayout]]:
    """The headings reader's outline of the document (its first MAX_SPLIT_PAGES * 5 pages) and the layouts read."""
    n = min(pdf.page_count, MAX_SPLIT_PAGES * 5)
    layouts = [pdf.layout(p) for p in range(1, n + 1)]
    body = body_size(layouts)
    return outline_headings(detect_headings(layouts, body, whole=True), body), layouts


def _from_headings(pdf: PdfSource) -> tuple[list[Entry], str | None]:
    heads, layouts = _outline_heads(pdf)
    at = index_heading(heads)
    if at is not None:
        # The index's letter groups, which its own outline lists (LaTeX package manuals): up to the next head
        # at the index's level or above.
        until = next((h for h in heads[at + 1:] if h.level <= heads[at].level), None)
        heads[at + 1:at + 1] = letter_groups(layouts, heads[at], until)
    if len(heads) < MIN_ENTRIES:
        return [], f"only {len(heads)} headings found"
    if len(heads) > 8 * pdf.page_count:
        return [], f"{len(heads)} heading candidates on {pdf.page_count} pages is not a structure"
    return [Entry(h.level, h.title, h.page) for h in heads], None


# -- leaf splitting -------------------------------------------------------------------------


def split_long_leaves(
    entries: list[Entry], pdf: PdfSource, max_pages: int, by_headings: bool = True, factor: int = 1
) -> tuple[list[Entry], dict[str, Any]]:
    """Give every leaf over ``factor`` x (``max_pages``, MAX_LEAF_TOKENS) children of at most ``max_pages``
    pages: the headings inside it (when ``by_headings``), else page groups."""
    root = build_tree(entries, pdf.page_count, "")
    known = {title_key(e.title) for e in entries} - {""}
    info = {"max_leaf_pages": max_pages, "max_leaf_tokens": MAX_LEAF_TOKENS, "factor": factor, "by_headings": 0, "by_pages": 0}
    # Layouts for at most MAX_SPLIT_PAGES pages, or 60 % of a longer document's (the headings fallback lays out all).
    budget = max(MAX_SPLIT_PAGES, pdf.page_count * 3 // 5)
    body: list[float] = []  # the document's body size, read once when a leaf is split by its headings
    last, top = _numbered_reach(entries)
    for node in list(root.walk())[1:]:
        span = node.end_page - node.start_page + 1
        tokens = _tokens(pdf, node) if not node.nodes and span > 1 else 0
        if node.nodes or (span <= factor * max_pages and tokens <= factor * MAX_LEAF_TOKENS):
            continue
        if BOOK_INDEX.match(title_key(node.title)) or _QUALIFIED_INDEX.match(node.title):
            info["index_kept"] = info.get("index_kept", 0) + 1  # alphabetical entries: no section to split off
            continue
        # Dense pages (tables, small print) get smaller groups so a leaf stays near the token limit.
        group = max(1, min(max_pages, span * MAX_LEAF_TOKENS // max(tokens, 1)))
        children: list[Node] = []
        if by_headings and span <= budget:
            budget -= span
            if not body:
                body.append(document_body(pdf))
            # A leaf from the document's last numbered section on: an appended text's clauses are a list of it.
            children = _heading_children(node, pdf, group, known, body[0], top if node.start_page >= last else 0)
        if children:
            info["by_headings"] += 1
        else:
            children = _page_group_children(node, group)
            info["by_pages"] += 1
        node.nodes = children
    out: list[Entry] = []

    def visit(node: Node, level: int) -> None:
        for child in node.nodes:
            out.append(Entry(level, child.title, child.start_page, str(child.extra.get("kind", ""))))
            visit(child, level + 1)

    visit(root, 1)
    return out, info


def _numbered_reach(entries: list[Entry]) -> tuple[int, int]:
    """The page of the document's last numbered section and the top-level number its sections count up to (0 when
    fewer than MIN_NUMBERED entries are numbered "3", "4.2", "C.1")."""
    numbered = [(e.page or 0, n) for e in entries if (n := parse_numbering(e.title)) is not None
                and n.kind in ("decimal", "letter")]
    if len(numbered) < MIN_NUMBERED:
        return 0, 0
    tops = [int(head) for _, n in numbered if n.kind == "decimal" and (head := n.label.split(".")[0]).isdigit()]
    return max(page for page, _ in numbered), max(tops, default=0)


def _tokens(pdf: PdfSource, node: Node) -> int:
    """Rough token count of a node's pages (4 characters a token), from the cached plain text."""
    return sum(len(pdf.text(p)) for p in range(node.start_page, node.end_page + 1)) // 4


def document_body(pdf: PdfSource) -> float:
    """The size the document's prose is set in, from BODY_SAMPLE_PAGES pages spread over it."""
    n = pdf.page_count
    pages = sorted({1 + (n - 1) * (k + 1) // (BODY_SAMPLE_PAGES + 1) for k in range(BODY_SAMPLE_PAGES)})
    return body_size([pdf.layout(p) for p in pages])


def _heading_children(node: Node, pdf: PdfSource, max_pages: int, known: set[str] = frozenset(),
                      document: float = 0.0, top: int = 0) -> list[Node]:
    """The headings inside ``node`` as a subtree, kept only as deep as needed to get leaves under ``max_pages``.

    Headings repeating a title already in the tree (the section's own title, a "(continued)" head, the
    Part above it) are not sections of it. Nor is a line that is larger only than the leaf's small print (a
    bibliography and an index after a preface): a head set no larger than the ``document``'s prose is bold or
    a numbered head in capitals. In a leaf after a document whose sections counted up to ``top``, clauses
    numbered from 0 or 1 again are a list of it (``restarted_clauses``).
    """
    layouts = [pdf.layout(p) for p in range(node.start_page, node.end_page + 1)]
    own = title_key(node.title)
    strong = [h for h in detect_headings(layouts, strong_only=True) if h.size >= document + LARGER or h.bold
              or h.numbering is not None and _capitals(h.numbering.rest)]
    heads = [h for h in strong if not _repeats(title_key(h.title), own, known)]
    clauses = restarted_clauses(heads, top)
    heads = [h for h in heads if id(h) not in clauses]
    if heads:
        return _subtree(node, heads, max_pages)
    # No head set larger or numbered below the section's own: its lower heads may be bold at body size, whole lines
    # set apart (Sphinx's and DocBook's fourth level and below), which page groups would cut across. They are set in
    # the typeface of the larger heads (the section's own title), when that is not the body's (Sphinx's Helvetica
    # over a Times body): bold words of the body's face (a note's label, "[Equation 1]", a reference entry's name)
    # or of the code's (an option's values) are not heads. Kept only when they do split it: bold labels scattered
    # through long pages (an API reference's "Return value") are not.
    fonts = {(lay.number, ln.y0): ln.font for lay in layouts for ln in lay.lines}
    body = Counter()  # the prose's face: code listings (fixed pitch) may outweigh it in a reference section
    for lay in layouts:
        for ln in lay.lines:
            body[_face(ln.font)] += 0 if ln.mono else len(ln.text)
    faces = {_face(fonts.get((h.page, h.y0), "")) for h in strong} - {"", *(f for f, _ in body.most_common(1))}
    heads = [h for h in detect_headings(layouts) if _whole_line_head(h) and _face(fonts.get((h.page, h.y0), "")) in faces
             and not _repeats(title_key(h.title), own, known)]
    if faces:
        # In that face a head may open lower-case (an API reference's "sas.qtgui.Plotting module"), which a line of
        # the body's face never may (it continues a paragraph).
        taken = {(h.page, h.y0) for h in heads}
        heads += [h for h in _lower_heads(layouts, faces, body_size(layouts)) if (h.page, h.y0) not in taken
                  and not _repeats(title_key(h.title), own, known)]
        heads.sort(key=lambda h: (h.page, h.y0))
    clauses = restarted_clauses(heads, top)
    heads = [h for h in heads if id(h) not in clauses]
    children = _subtree(node, heads, max_pages) if heads else []
    short = sum(c.end_page - c.start_page + 1 for c in children if c.end_page - c.start_page < max_pages)
    return children if short >= MIN_SPLIT_SHARE * (node.end_page - node.start_page + 1) else []


def _subtree(node: Node, heads: list[Heading], max_pages: int) -> list[Node]:
    top = min(h.level for h in heads)
    children = _nest([(h.level - top + 1, h.title, h.page) for h in heads])
    holder = Node(node_id="", title="", level=0, start_page=node.start_page, end_page=node.end_page, nodes=children)
    _ranges(holder)
    for child in children:
        _prune(child, max_pages)
    return children


def _lower_heads(layouts: list[PageLayout], faces: set[str], body: float) -> list[Heading]:
    """Bold lines at body size in a heading face that open lower-case: whole lines, set apart from the text above,
    outside the running heads' bands."""
    out = []
    for lay in layouts:
        last = None
        for ln in lay.lines:
            gap = ln.y0 - last if last is not None else lay.height
            last = ln.y1
            text = " ".join(ln.text.split())
            if not (text[:1].islower() and ln.bold and abs(ln.size - body) < 0.6 and _face(ln.font) in faces):
                continue
            if ln.y1 < lay.height * MARGIN or ln.y0 > lay.height * (1 - MARGIN) or gap < 0.6 * max(ln.y1 - ln.y0, 1.0):
                continue
            h = Heading(lay.number, text, round(ln.size, 1), True, ln.y0)
            if _whole_line_head(h) and not text.endswith((".", ",", ";")):
                out.append(h)
    return out


def _whole_line_head(h: Heading) -> bool:
    """A head on a line of its own that reads as a title: not a run-in label, a code chunk or a sentence."""
    return not (h.run_in or h.lead_in or h.chunk) and len(h.title.split()) <= MAX_HEAD_WORDS and not (
        SENTENCE.search(h.title) or h.title.endswith(":"))


def _capitals(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def _face(font: str) -> str:
    """A font's typeface without its subset tag, weight or design size: "ABCDEF+TeXGyreHeros-Bold" -> "texgyreheros"."""
    return re.split(r"[-,]", _SUBSET_TAG.sub("", font))[0].rstrip("0123456789").lower()


def _repeats(key: str, own: str, known: set[str]) -> bool:
    return not key or key in known or bool(own) and (key.startswith(own) or own.startswith(key))


def _ranges(parent: Node) -> None:
    kids = parent.nodes
    for i, child in enumerate(kids):
        nxt = kids[i + 1].start_page if i + 1 < len(kids) else parent.end_page + 1
        child.end_page = max(child.start_page, min(parent.end_page, nxt - 1))
        _ranges(child)


def _prune(node: Node, max_pages: int) -> None:
    """Drop sub-headings of sections that are already small enough: split only as far as needed."""
    if node.end_page - node.start_page + 1 <= max_pages:
        node.nodes = []
    for child in node.nodes:
        _prune(child, max_pages)


def _nest(items: list[tuple[int, str, int]]) -> list[Node]:
    root = Node(node_id="", title="", level=0, start_page=1, end_page=1)
    stack: list[tuple[int, Node]] = [(0, root)]
    for level, title, page in items:
        while len(stack) > 1 and stack[-1][0] >= level:
            stack.pop()
        child = Node(node_id="", title=title, level=0, start_page=page, end_page=page)
        stack[-1][1].nodes.append(child)
        stack.append((level, child))
    return root.nodes


def _page_group_children(node: Node, size: int) -> list[Node]:
    out = []
    for start in range(node.start_page, node.end_page + 1, size):
        end = min(node.end_page, start + size - 1)
        out.append(Node(node_id="", title=f"{node.title} (pages {start}\u2013{end})", level=0, start_page=start, end_page=end,
                        extra={"kind": KIND_PAGE_GROUP}))
    return out
