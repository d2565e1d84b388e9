"""Rebuilds that cost only what changed: what a document's latest version can lend to its next one.

A document whose bytes are unchanged keeps the output of every stage before the first stale one
(parsers/stages.py): when only summaries or prompts are stale the new version is made from the old
version's tree, node texts and pages (no PDF parse, no OCR); otherwise the PDF is parsed again and
scanned pages come from the OCR cache. A version published with extractive fallbacks is stale for
its summaries once a model is configured. ``estimate`` predicts the work of a rebuild from the old
manifest alone (for ``rebuild-stale --dry-run``); the run report gives the same counts as measured.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from typing import Any, Mapping

from index_store.errors import StoreError
from index_store import layout
from index_store.model import FactRow, NodeRow, PageRecord, Tree
from index_store.store import Store
from index_store.tables import read_table
from parsers.pipeline import DocumentIndex, PipelineSettings, document_version, resummarize
from parsers.stages import RESUMMARIZE_FROM, StaleStage, first_stale, reusable_stages, stale_stages


def model_available(pipeline: PipelineSettings, env: Mapping[str, str] | None = None) -> bool:
    """A model is named and can be reached: a key, or a base URL (local servers take any key)."""
    env = os.environ if env is None else env
    return bool(pipeline.model) and bool(env.get("OPENAI_API_KEY") or env.get("OPENAI_BASE_URL"))


def fallbacks(manifest_or_latest: Mapping[str, Any]) -> int:
    """Sections a version summarized with the extractive fallback because the model failed."""
    degraded = manifest_or_latest.get("degraded")
    if isinstance(degraded, Mapping):
        return int(degraded.get("summaries") or 0)
    model = ((manifest_or_latest.get("stats") or {}).get("model") or {})
    return int(model.get("fallbacks") or 0) if model.get("summarizer") not in (None, "extractive") else 0


@dataclass
class Reuse:
    """What the latest version of a document can lend to a rebuild, and why the rebuild is needed."""

    from_version: str
    manifest: dict[str, Any]
    stale: list[StaleStage] = field(default_factory=list)
    content_changed: bool = False

    @property
    def first(self) -> str | None:
        return "text" if self.content_changed else first_stale(self.stale)

    @property
    def resummarize(self) -> bool:
        return not self.content_changed and self.first in RESUMMARIZE_FROM

    def why(self) -> str:
        if self.content_changed:
            return "content changed"
        return "; ".join(s.why if s.why.startswith(s.stage) else f"{s.stage}: {s.why}" for s in self.stale) or "current"


def explain(manifest: Mapping[str, Any], pipeline: PipelineSettings, sha: str | None, *,
            retry_degraded: bool) -> Reuse:
    """Compare a version's manifest with the current pipeline (and the current content's sha256, when known)."""
    stale = stale_stages(manifest.get("pipeline"), pipeline.to_dict(), structure_source=manifest.get("structure_source"))
    n = fallbacks(manifest)
    if n and retry_degraded and not any(s.stage == "summaries" for s in stale):
        stale.append(StaleStage("summaries", f"summaries: {n} sections fell back to extractive summaries; "
                                             f"model {pipeline.model} is configured now"))
    content_changed = sha is not None and (manifest.get("source") or {}).get("sha256") != sha
    return Reuse(str(manifest.get("version")), dict(manifest), stale, content_changed)


def plan_reuse(store: Store, doc_id: str, latest: Mapping[str, Any], sha: str, pipeline: PipelineSettings) -> Reuse | None:
    """The latest version's offer for a rebuild of the same content, or None (new or changed document, or unreadable)."""
    if not latest.get("version") or (latest.get("source") or {}).get("sha256") != sha:
        return None
    try:
        manifest = store.manifest(doc_id, str(latest["version"]))
    except StoreError:
        return None
    return explain(manifest, pipeline, sha, retry_degraded=model_available(pipeline))


def rebuild_from(store: Store, doc_id: str, reuse: Reuse, pipeline: PipelineSettings,
                 models: dict[str, Any]) -> DocumentIndex:
    """A new version from ``reuse.from_version``'s stored tree, nodes and pages, with the summaries redone."""
    version = reuse.from_version
    tree = Tree.from_dict(json.loads(store.read_file(doc_id, version, layout.TREE)))
    nodes = _rows(NodeRow, store.read_file(doc_id, version, layout.NODES))
    pages = _rows(PageRecord, store.read_file(doc_id, version, layout.PAGES))
    manifest = reuse.manifest
    source = manifest.get("source") or {}
    index = resummarize(tree, nodes, pages, pipeline, sha256=str(source.get("sha256")), size=int(source.get("bytes") or 0),
                        stats=dict(manifest.get("stats") or {}), decisions=dict(manifest.get("decisions") or {}), **models)
    index.cache_refs = dict(manifest.get("cache_refs") or {})  # the pages are the old version's: so are their entries
    if layout.FACTS in (manifest.get("files") or {}):  # inline-XBRL facts point at nodes and pages, which are kept
        index.facts = _rows(FactRow, store.read_file(doc_id, version, layout.FACTS))
    index.reused = {"from_version": version, "why": reuse.why(),
                    "stages": [s for s in reusable_stages(reuse.first) if s not in RESUMMARIZE_FROM]}
    return index


def _rows(cls: Any, data: bytes) -> list[Any]:
    names = [f.name for f in dataclasses.fields(cls)]  # columns a newer writer added are not ours to read
    return [cls(**{k: row.get(k) for k in names}) for row in read_table(data, columns=names).to_pylist()]


def estimate(manifest: Mapping[str, Any], reuse: Reuse, pipeline: PipelineSettings) -> dict[str, int]:
    """The work a rebuild will do, from the old manifest: pages to parse, pages to OCR, model calls.

    Pages to OCR are the old version's OCR'd pages when the OCR stage (or the content) is stale; otherwise
    they come from the OCR cache. Model calls are the sections the model will be asked to summarize (all
    summarized sections when summaries or earlier stages are stale, only the fallback ones when only the
    fallbacks are), 0 offline: an upper bound, since the summary cache answers sections whose text and
    prompt did not change."""
    stats = manifest.get("stats") or {}
    model = stats.get("model") or {}
    pages = int(stats.get("pages") or 0)
    first = reuse.first
    stale_names = {s.stage for s in reuse.stale}
    parse = 0 if reuse.resummarize or first is None else pages
    old_ocr = int(stats.get("ocr_pages_read", stats.get("ocr_pages")) or 0) + int(stats.get("ocr_cache_hits") or 0)
    if reuse.resummarize or first is None:
        ocr = 0
    elif reuse.content_changed or "ocr" in stale_names:
        ocr = old_ocr
    else:  # the text layer, vision or structure is stale: OCR'd pages come from the cache when it holds them
        ocr = max(0, old_ocr - len((manifest.get("cache_refs") or {}).get("ocr") or []))
    calls = 0
    if pipeline.model and first is not None:
        summarized = int(model.get("summarized") or 0) + int(model.get("fallbacks") or 0) + int(model.get("cache_hits") or 0)
        only_fallbacks = stale_names == {"summaries"} and all("fell back" in s.why for s in reuse.stale)
        calls = fallbacks(manifest) if only_fallbacks else summarized
        calls += 1 if calls else 0  # the document description
    return {"pages_parsed": parse, "ocr_pages": ocr, "model_calls": calls}


def work_done(index: DocumentIndex) -> dict[str, int]:
    """The measured counterpart of ``estimate``: pages parsed, pages OCR'd by tesseract, model calls."""
    stats = index.stats
    return {"pages_parsed": int(stats.get("pages_parsed", stats.get("pages")) or 0),
            "ocr_pages": int(stats.get("ocr_pages_read") or 0),
            "model_calls": int((stats.get("model") or {}).get("calls") or 0)}


def current_versions(sha: str, pipeline: PipelineSettings) -> set[str]:
    """Version ids that count as up to date for this content: the full build, and the degraded build
    (extractive fallbacks) while no model is reachable (asking again could only fall back again)."""
    fingerprint = pipeline.fingerprint()
    out = {document_version(sha, fingerprint)}
    if pipeline.model and not model_available(pipeline):
        out.add(document_version(sha, fingerprint, degraded=True))
    return out
