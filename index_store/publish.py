"""Encode one indexed document as a version (tree.json + Parquet + manifest) and publish it."""

from __future__ import annotations

from typing import Any, Sequence

from index_store import layout
from index_store.model import FactRow, NodeRow, PageRecord, Tree
from index_store.store import Store, dumps, utcnow
from index_store.tables import encode_facts, encode_nodes, encode_pages


def encode_version(tree: Tree, nodes: Sequence[NodeRow], pages: Sequence[PageRecord],
                   facts: Sequence[FactRow] | None = None, terms: bytes | None = None) -> dict[str, bytes]:
    files = {
        layout.TREE: dumps(tree.to_dict()),
        layout.NODES: encode_nodes(nodes),
        layout.PAGES: encode_pages(pages),
    }
    if facts:  # only documents with inline XBRL have a facts table
        files[layout.FACTS] = encode_facts(facts)
    if terms is not None:  # each page's search terms, encoded by the caller's tokeniser (query.terms)
        files[layout.TERMS] = terms
    return files


def build_manifest(
    *,
    tree: Tree,
    source: dict[str, Any],
    pipeline: dict[str, Any],
    stats: dict[str, Any],
    decisions: dict[str, Any],
    reused: dict[str, Any] | None = None,
    cache_refs: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Manifest fields per docs/format.md; ``files`` is added by Store.publish."""
    extra: dict[str, Any] = {}
    if reused:
        extra["reused"] = reused  # {"from_version", "stages", "why"}: what this version took from an older one
    if cache_refs:
        extra["cache_refs"] = cache_refs  # {"ocr": [key], "vision": [key]}: cache entries gc must keep
    fallbacks = int((stats.get("model") or {}).get("fallbacks") or 0) if (stats.get("model") or {}).get("summarizer") not in (None, "extractive") else 0
    if fallbacks:
        extra["degraded"] = {"summaries": fallbacks}
    return {
        "schema_version": tree.schema_version,
        "doc_id": tree.doc_id,
        "version": tree.version,
        "source": source,
        "pipeline": pipeline,
        "created_at": utcnow(),
        "structure_source": tree.structure_source,
        "page_offset": tree.page_offset,
        "source_format": tree.source_format,
        "stats": stats,
        "decisions": decisions,
        **extra,
    }


def publish_document(
    store: Store,
    *,
    tree: Tree,
    nodes: Sequence[NodeRow],
    pages: Sequence[PageRecord],
    source: dict[str, Any],
    pipeline: dict[str, Any],
    stats: dict[str, Any],
    decisions: dict[str, Any],
    facts: Sequence[FactRow] | None = None,
    reused: dict[str, Any] | None = None,
    cache_refs: dict[str, list[str]] | None = None,
    terms: bytes | None = None,
) -> bool:
    """Write the version (data first, manifest last) and move latest.json. True if latest moved."""
    files = encode_version(tree, nodes, pages, facts, terms)
    manifest = build_manifest(tree=tree, source=source, pipeline=pipeline, stats=stats, decisions=decisions,
                              reused=reused, cache_refs=cache_refs)
    latest_extra = {
        "fingerprint": pipeline.get("fingerprint"),
        "source": {k: source.get(k) for k in ("uri", "etag", "bytes", "sha256")},
        "title": tree.extra.get("title"),
        "description": tree.extra.get("description"),
        "doc_kind": tree.extra.get("doc_kind"),
        "page_count": tree.page_count,
        "structure_source": tree.structure_source,
    }
    if manifest.get("degraded"):  # built with extractive fallbacks: rebuilt (summaries only) once a model is reachable
        latest_extra["degraded"] = manifest["degraded"]
    return store.publish(tree.doc_id, tree.version, files, manifest, latest_extra)
