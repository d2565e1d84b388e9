"""Chunks with tree context, for hybrid (vector + tree) stacks.

Each chunk is ~``size`` characters of one page, split at whitespace, and carries
the metadata a vector store needs to filter by section: doc_id, version,
node_id, tree_path, page_number (1-based physical) and the page label.
"""

from __future__ import annotations

import json
from typing import Any, Iterator, TextIO

from query.errors import InvalidRequest
from query.text import chunk_text


def iter_chunks(doc: Any, size: int = 500) -> Iterator[dict[str, Any]]:
    """Chunks of one loaded document in page order."""
    if not 100 <= size <= 20_000:
        raise InvalidRequest("chunk size must be between 100 and 20000 characters")
    for row in doc.pages():
        page = row["page_number"]
        node = doc.node_for_page(page)
        for i, text in enumerate(chunk_text(row["text"] or "", size)):
            yield {
                "id": f"{doc.doc_id}:{doc.version}:{page}:{i}",
                "doc_id": doc.doc_id,
                "version": doc.version,
                "node_id": node.node_id,
                "tree_path": doc.path(node.node_id),
                "page_number": page,
                "page_label": row["label"],
                "chunk_index": i,
                "text": text,
            }


def write_jsonl(docs: list[Any], out: TextIO, size: int = 500) -> int:
    """Write the chunks of ``docs`` as JSON lines; returns how many were written."""
    n = 0
    for doc in docs:
        for chunk in iter_chunks(doc, size):
            out.write(json.dumps(chunk, ensure_ascii=False) + "\n")
            n += 1
    return n
