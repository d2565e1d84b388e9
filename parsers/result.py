"""What one indexing produces (``DocumentIndex``) and the names it is published under: the version id, and the
catalog description. The PDF chain (parsers.pipeline) and the markup chain (parsers.markup_pipeline) both
build one, so it lives apart from either.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from index_store.model import NodeRow, PageRecord, Tree

if TYPE_CHECKING:
    from parsers.summarize import Summarizer


def version_id(doc_sha256: str, fingerprint: str) -> str:
    """V = first 16 hex chars of sha256 over (document sha256, pipeline fingerprint)."""
    return hashlib.sha256(f"{doc_sha256}:{fingerprint}".encode()).hexdigest()[:16]


@dataclass
class DocumentIndex:
    """What one indexing produces; index_store publishes it as one version."""

    tree: Tree
    pages: list[PageRecord]
    nodes: list[NodeRow]
    sha256: str
    size: int
    stats: dict[str, Any] = field(default_factory=dict)
    decisions: dict[str, Any] = field(default_factory=dict)
    facts: list[Any] = field(default_factory=list)  # index_store.model.FactRow: inline-XBRL facts (HTML filings)
    cache_refs: dict[str, list[str]] = field(default_factory=dict)  # cache kind -> entry keys used (manifest cache_refs)
    reused: dict[str, Any] | None = None  # {"from_version", "stages"} when built from a previous version's results


def document_version(sha: str, fingerprint: str, degraded: bool = False) -> str:
    """The version id; a build whose model summaries fell back to extractive ones gets its own id (``degraded``),
    so that the full build, once the model answers, is a new version rather than a rewrite of this one."""
    return version_id(sha, f"{fingerprint}:degraded" if degraded else fingerprint)


def degraded_build(summarizer: Summarizer | None, summaries: Any) -> bool:
    """True when a model was to write the summaries and some fell back to extractive ones."""
    return summarizer is not None and bool(summaries.decisions.get("fallback"))


def catalog_description(described: str, summaries: Any) -> str:
    """The catalog description: the model's when a model wrote one (docs/providers.md), else what describe()
    read (the title, which names company, form and period, is in the catalog either way)."""
    if summaries.description_source == "model" and summaries.description:
        return summaries.description
    return described or summaries.description
