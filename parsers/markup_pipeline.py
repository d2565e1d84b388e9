"""The chain for documents that are not PDFs: HTML (EDGAR inline XBRL, manuals) and Markdown.

Same output as the PDF chain (a DocumentIndex: tree, pages, node rows, decisions), so the store, summaries
and every query work unchanged. Pages come from the document's page breaks (physical, with printed folios as
labels) or are cut every ~3,000 characters at block boundaries (virtual). Structure: a 10-K/10-Q's Parts and
Items (parsers/html_filing.py) with styled sub-headings inside them; otherwise h1-h6 / Markdown headings,
otherwise styled headings, otherwise page groups. No model is called to build the tree.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from index_store.model import Node, PageRecord, Tree, flatten
from parsers import filing_anatomy as fa
from parsers.blocks import Block, Heading, assign_pages, page_labels, page_texts, split_long
from parsers.html_headings import body_size, markup_headings, running_lines, styled_headings
from parsers.ranges import KIND_PAGE_GROUP, Entry, build_tree, front_matter

MAX_TITLE = 300
FORM_SCAN_BLOCKS = 120  # the cover page names the form


def _join(blocks: list[Block], a: int, b: int) -> str:
    return "\n".join(x.text for x in blocks[a:b])


def build_block_tree(heads: list[Heading], blocks: list[Block], page_count: int, title: str) -> tuple[Node, dict[str, str]]:
    """The tree of ``heads`` (sorted, in block order) with each node's own text cut at block boundaries and
    its page range from its first block to the last block of its subtree."""
    entries = [Entry(h.level, h.title[:MAX_TITLE], blocks[h.block].page if blocks else 1, h.kind) for h in heads]
    root = build_tree(entries, page_count, title)
    nodes = list(root.walk())[1:]
    own: dict[str, str] = {root.node_id: _join(blocks, 0, heads[0].block if heads else len(blocks))}
    for k, (node, h) in enumerate(zip(nodes, heads)):
        node.extra["anchor"] = h.anchor
        end = heads[k + 1].block if k + 1 < len(heads) else len(blocks)
        own[node.node_id] = _join(blocks, h.block, end)
        nxt = next((m for m in range(k + 1, len(heads)) if heads[m].level <= h.level), None)
        last = (heads[nxt].block if nxt is not None else len(blocks)) - 1
        node.end_page = max(node.start_page, blocks[last].page if 0 <= last < len(blocks) else node.start_page)
    root.extra["anchor"] = None
    return root, own


def _page_group_heads(blocks: list[Block], page_count: int, group: int) -> list[Heading]:
    if not blocks:  # nothing but images or markup: one page, one group, no text
        return [Heading(0, 1, "Pages 1\u20131" if group > 1 else "Page 1", None, KIND_PAGE_GROUP)]
    heads = []
    first_block = {}
    for i, b in enumerate(blocks):
        first_block.setdefault(b.page, i)
    for start in range(1, page_count + 1, group):
        if start in first_block:
            end = min(page_count, start + group - 1)
            title = f"Pages {start}\u2013{end}" if group > 1 else f"Page {start}"
            heads.append(Heading(first_block[start], 1, title, None, KIND_PAGE_GROUP))
    return heads


def html_structure(blocks: list[Block], page_count: int) -> tuple[list[Heading], str, dict[str, Any]]:
    """Headings of an HTML document, the structure source and the decisions."""
    from parsers.html_filing import filing_headings

    running = running_lines(blocks, page_count)
    base = body_size(blocks)
    form = fa.detect_form([b.text for b in blocks[:FORM_SCAN_BLOCKS]])
    decisions: dict[str, Any] = {"tried": []}
    if form:
        heads, filing = filing_headings(blocks, form)
        decisions["filing"] = filing
        items = [h for h in heads if h.level == filing["item_level"] and h.kind != "inferred"]
        if filing["items"] >= 3:
            decisions["tried"].append({"method": "filing", "used": True, "items": filing["items"]})
            return _with_subsections(heads, blocks, running, base, filing["item_level"]), \
                "toc" if filing["item_sources"]["toc_link"] * 2 >= len(items) else "headings", decisions
        decisions["tried"].append({"method": "filing", "used": False, "why": f"{len(items)} Items found"})
    heads = markup_headings(blocks)
    if heads:
        decisions["tried"].append({"method": "markup_headings", "used": True, "headings": len(heads)})
        return heads, "headings", decisions
    decisions["tried"].append({"method": "markup_headings", "used": False, "why": "no h1-h6"})
    heads = styled_headings(blocks, 0, len(blocks), 1, running, base)
    if heads:
        decisions["tried"].append({"method": "styled_headings", "used": True, "headings": len(heads)})
        return heads, "headings", decisions
    decisions["tried"].append({"method": "styled_headings", "used": False, "why": "no styled headings"})
    return [], "pages", decisions


def _with_subsections(heads: list[Heading], blocks: list[Block], running: set[str], base: float,
                      item_level: int) -> list[Heading]:
    """Styled headings inside each Item (MD&A subsections, each statement, each note), one level below it."""
    out: list[Heading] = []
    for k, h in enumerate(heads):
        out.append(h)
        if h.level != item_level or h.title.casefold().startswith(("part ", "signature")):
            continue
        end = heads[k + 1].block if k + 1 < len(heads) else len(blocks)
        # A Part or Item line inside an Item is a page header or a cross-reference, not a sub-section.
        out.extend(sub for sub in styled_headings(blocks, h.block + 1, end, item_level + 1, running, base)
                   if not (fa.parse_item(sub.title) or fa.parse_part(sub.title)))
    return out


def read_document(path: Path, fmt: str, max_bytes: int) -> tuple[list[Block], str, dict[str, Any], Any]:
    """(blocks, title, reader decisions, the HTML document or None)."""
    if fmt == "markdown":
        from parsers.markdown_doc import read_markdown

        md = read_markdown(path, max_bytes)
        return md.blocks, md.title, md.decisions, None
    from parsers.html_doc import read_html

    doc = read_html(path, max_bytes)
    return doc.blocks, doc.title, doc.decisions, doc


def index_markup(path: Path, doc_id: str, fmt: str, settings: Any, *, sha256: str, size: int, summarizer: Any = None,
                 progress: Any = None, model_usage: Any = None) -> Any:
    """Index one HTML or Markdown document (``fmt``); see parsers.pipeline.index_document."""
    from parsers.describe import describe
    from parsers.result import DocumentIndex, catalog_description, degraded_build, document_version
    from parsers.summarize import summarize_document

    t0 = time.perf_counter()
    raw_blocks, title, reader, doc = read_document(path, fmt, settings.max_bytes)
    limit = 2 * settings.virtual_page_chars
    # Facts point at blocks; a block cut in pieces keeps its first piece's index through this map.
    first_piece: list[int] = []
    blocks: list[Block] = []
    for b in raw_blocks:
        first_piece.append(len(blocks))
        blocks.extend(split_long([b], limit))
    if blocks:
        page_count, page_kind = assign_pages(blocks, settings.virtual_page_chars)
    else:
        page_count, page_kind = 1, "virtual"
    labels = page_labels(blocks, page_count, page_kind)
    texts = page_texts(blocks, page_count)
    t_text = time.perf_counter()
    if fmt == "markdown":
        heads, source, structure = markup_headings(blocks), "headings", {"tried": [{"method": "markdown_headings"}]}
        if not heads:
            source = "pages"
    else:
        heads, source, structure = html_structure(blocks, page_count)
    title = " ".join((title or "").split())[:200] or path.stem
    if not heads:
        heads = _page_group_heads(blocks, page_count, settings.page_group_size)
    heads = sorted({(h.block, h.level): h for h in heads}.values(), key=lambda h: (h.block, h.level))
    root, own = build_block_tree(heads, blocks, page_count, title)
    # Kind, title and catalog description as for a PDF (parsers/describe.py); <title> stands for PDF metadata.
    # The inline-XBRL dei facts are the filer's own cover page; the cover's text fills in where they are missing.
    cover = None
    if doc is not None and (doc.facts or doc.header is not None):
        from parsers.xbrl import dei_cover

        cover = dei_cover(doc.facts, doc.header)
    about = describe(texts, [], root, metadata_title=title, fallback_title=title, cover=cover)
    title = root.title = about.title
    structure["headings"] = len(heads)
    t_struct = time.perf_counter()
    pages = [PageRecord(page_number=n, label=labels[n - 1], text=texts[n - 1],
                        text_source="text" if texts[n - 1].strip() else "none") for n in range(1, page_count + 1)]
    summaries = summarize_document(root, own, summarizer, doc_title=title, page_count=page_count, usage=model_usage,
                                   progress=(lambda d, t: progress(f"summaries {d}/{t}")) if progress else None)
    t_sum = time.perf_counter()
    version = document_version(sha256, settings.fingerprint(), degraded_build(summarizer, summaries))
    tree = Tree(doc_id=doc_id, version=version, page_count=page_count, structure_source=source, page_offset=None,
                root=root, extra={"title": title, "description": catalog_description(about.description, summaries),
                                  "doc_kind": about.doc_kind, "facts": about.facts, "front_matter": front_matter(root),
                                  "source_format": fmt, "page_kind": page_kind})
    rows = flatten(root, own)
    facts = []
    if doc is not None and (doc.facts or doc.header is not None):
        from parsers.xbrl import fact_rows

        nodes = list(root.walk())[1:]
        marks = doc.facts
        for m in marks:
            if m.block is not None:
                m.block = first_piece[m.block] if m.block < len(first_piece) else len(blocks) - 1
        facts = fact_rows(marks, doc.header, [b.page for b in blocks], [h.block for h in heads],
                          [n.node_id for n in nodes], root.node_id)
    stats = {
        "pages": page_count, "nodes": len(rows),
        "text_pages": sum(p.text_source == "text" for p in pages), "ocr_pages": 0,
        "empty_pages": sum(p.text_source == "none" for p in pages),
        "labelled_pages": sum(label is not None for label in labels), "facts": len(facts),
        "model": summaries.model_stats,
        "seconds": {"text": round(t_text - t0, 4), "ocr": 0.0, "structure": round(t_struct - t_text, 4),
                    "summaries": round(t_sum - t_struct, 4), "total": round(time.perf_counter() - t0, 4)},
    }
    decisions = {"format": {"source_format": fmt, "page_kind": page_kind, **reader},
                 "structure": structure, "summaries": summaries.decisions}
    return DocumentIndex(tree=tree, pages=pages, nodes=rows, sha256=sha256, size=size, stats=stats,
                         decisions=decisions, facts=facts)
