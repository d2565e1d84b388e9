"""The pure chain: a PDF path plus settings in, a DocumentIndex out.

No Prefect, no network, no store: unit tests and benchmarks call this directly.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from index_store.model import SCHEMA_VERSION, NodeRow, PageRecord, Tree, flatten
from parsers import stages
from parsers.describe import TITLE_PAGES, describe
from parsers.result import DocumentIndex, catalog_description, degraded_build, document_version
from parsers.errors import DocumentError
from parsers.formats import HTML, MARKDOWN, detect_format
from parsers.markup_pipeline import index_markup
from parsers.ocr_cache import PageCache
from parsers.ocr_stage import Vision, run_ocr_stage
from parsers.offsets import printed_labels
from parsers.pdf import OpenLimits, PdfSource
from parsers.ranges import build_tree, clip_titles, front_matter, page_groups, plain_titles
from parsers.sections import assign_text
from parsers.structure import LlmStructureHook, recover_structure
from parsers.summarize import Summarizer, summarize_document

PROMPT_VERSION_NONE = "none"


def package_version() -> str:
    try:
        return metadata.version("pagetree")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@dataclass(frozen=True)
class PipelineSettings:
    """Everything that changes the output of indexing; all of it enters the fingerprint."""

    page_group_size: int = 10
    max_leaf_pages: int = 10
    outline_split_factor: int = 4  # fine-grained author outlines: split only leaves over 4x the limits (0 = never)
    max_bytes: int = 1 << 30
    max_pages: int = 20_000
    ocr: bool = True
    ocr_lang: str = "eng"
    ocr_dpi: int = 300
    ocr_timeout: float = 120.0  # seconds per tesseract call; a page over it gets text_source none + an error
    ocr_max_pixels: int = 40_000_000  # per rendered page; bigger pages are OCR'd at a lower dpi
    vision_below_confidence: float = 60.0  # OCR pages under this mean word confidence go to the vision model
    vision_max_pages: int = 50
    summarizer: str = "extractive"
    model: str | None = None
    vision_model: str | None = None
    prompt_version: str = PROMPT_VERSION_NONE
    virtual_page_chars: int = 3000  # HTML/Markdown without page breaks: pages of about this many characters

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def fingerprint(self) -> str:
        """sha256 over the schema version, the declared stage versions and these settings (parsers/stages.py).

        Not over code bytes: a comment or a refactor that changes no output leaves every version current;
        tests/parsers/test_stage_goldens.py fails when an output changes without a stage version bump."""
        return stages.fingerprint(self.to_dict())

    def record(self) -> dict[str, Any]:
        """The manifest's ``pipeline`` record: what built a version, stage by stage (docs/format.md)."""
        return {"fingerprint": self.fingerprint(), "package_version": package_version(),
                "schema_version": SCHEMA_VERSION, "stages": stages.stage_versions(), "settings": self.to_dict()}


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


# What a long build is doing, for a progress line: "text 400/1321 pages", "OCR 12/300 pages", "vision 2/5 pages",
# "structure", "summaries 50/1183" (flows/document.py forwards it to the CLI's progress line).
Progress = Callable[[str], None]
PROGRESS_PAGES = 200  # text extraction reports every this many pages


def _read_texts(pdf: PdfSource, progress: Progress | None) -> list[str]:
    texts = []
    for n in range(1, pdf.page_count + 1):
        if progress and n % PROGRESS_PAGES == 1:
            progress(f"text {n - 1}/{pdf.page_count} pages")
        texts.append(pdf.text(n))
    return texts


def _metadata_title(pdf: PdfSource) -> str:
    try:
        return str((pdf.doc.metadata or {}).get("title") or "")
    except Exception:
        return ""


def _doc_title(pdf: PdfSource, path: Path) -> str:
    title = _metadata_title(pdf)
    title = " ".join(title.split())
    return title if 3 <= len(title) <= 200 else path.stem


def index_document(
    path: str | Path,
    doc_id: str,
    settings: PipelineSettings | None = None,
    *,
    summarizer: Summarizer | None = None,
    llm_structure: LlmStructureHook | None = None,
    sha256: str | None = None,
    progress: Progress | None = None,
    vision: Vision | None = None,
    ocr_workers: int | None = None,
    model_usage: Any = None,
    ocr_cache: PageCache | None = None,
) -> DocumentIndex:
    """Index one PDF, HTML or Markdown document (format read from its bytes: parsers/formats.py).
    Raises parsers.errors.DocumentError for unusable input.

    ``ocr_cache`` (parsers/ocr_cache.py) holds OCR readings by page image: cached pages are not OCR'd."""
    settings = settings or PipelineSettings()
    path = Path(path)
    t0 = time.perf_counter()
    fmt = detect_format(path)
    if fmt is None and path.suffix.lower() != ".pdf" and path.stat().st_size:
        raise DocumentError("unsupported format: not a PDF, HTML or Markdown document", "unsupported_format")
    sha = sha256 or file_sha256(path)
    size = path.stat().st_size
    if fmt in (HTML, MARKDOWN):
        return index_markup(path, doc_id, fmt, settings, sha256=sha, size=size, summarizer=summarizer,
                            progress=progress, model_usage=model_usage)
    with PdfSource(path, OpenLimits(settings.max_bytes, settings.max_pages)) as pdf:
        labels = pdf.labels()
        texts = _read_texts(pdf, progress)
        t_text = time.perf_counter()
        # OCR stage (parsers/ocr_stage.py): scanned pages get OCR layouts before structure runs; workers don't change output.
        ocr = run_ocr_stage(pdf, ocr=settings.ocr, lang=settings.ocr_lang, dpi=settings.ocr_dpi, timeout=settings.ocr_timeout,
                            max_pixels=settings.ocr_max_pixels, vision_below=settings.vision_below_confidence,
                            vision_max_pages=settings.vision_max_pages, vision=vision, workers=ocr_workers,
                            cache=ocr_cache, doc_sha=sha, progress=progress)
        texts = [pdf.text(n) for n in range(1, pdf.page_count + 1)]
        t_ocr = time.perf_counter()
        if progress:
            progress("structure")
        structure = recover_structure(pdf, llm_hook=llm_structure, max_leaf_pages=settings.max_leaf_pages,
                                      outline_split_factor=settings.outline_split_factor)
        title = _doc_title(pdf, path)
        if structure.entries:
            root = build_tree(structure.entries, pdf.page_count, title)
        else:
            root = page_groups(pdf.page_count, title, settings.page_group_size)
        # Kind, printed title and catalog description (parsers/describe.py): the catalog selects on them.
        about = describe(texts, [pdf.layout(n) for n in range(1, min(TITLE_PAGES, pdf.page_count) + 1)], root,
                         metadata_title=_metadata_title(pdf), fallback_title=title)
        title = root.title = about.title
        t_struct = time.perf_counter()
        labels = printed_labels(labels, texts)  # the folios printed on the pages when the PDF has no /PageLabels
        pages = [
            PageRecord(page_number=n, label=labels[n - 1], text=texts[n - 1],
                       text_source=ocr.sources.get(n) or ("text" if texts[n - 1].strip() else "none"),
                       ocr_confidence=ocr.confidence.get(n))
            for n in range(1, pdf.page_count + 1)
        ]
    own = assign_text(root, [p.text for p in pages])
    clip_titles(root, own)  # a hostile 100 KB outline title stays whole in the text, not in the tree
    plain_titles(root)  # "Writing your ﬁrst mail" (a ligature from the page's text) reads "Writing your first mail"
    title = root.title
    if progress:
        progress(f"summaries 0/{len(own)}")
    # Model summaries when a summarizer is given (extractive fallback per node), else extractive; see parsers/summarize.py.
    # model_usage (providers.usage.Usage) accounts summaries, vision and structure calls together in stats["model"].
    summaries = summarize_document(root, own, summarizer, doc_title=title, page_count=len(pages), usage=model_usage,
                                   progress=(lambda d, t: progress(f"summaries {d}/{t}")) if progress else None)
    t_sum = time.perf_counter()
    version = document_version(sha, settings.fingerprint(), degraded_build(summarizer, summaries))
    tree = Tree(
        doc_id=doc_id,
        version=version,
        page_count=len(pages),
        structure_source=structure.source,
        page_offset=structure.page_offset,
        root=root,
        # front_matter: the pages before the first entry, which are the root's own text (null when none).
        extra={"title": title, "description": catalog_description(about.description, summaries), "doc_kind": about.doc_kind,
               "facts": about.facts, "front_matter": front_matter(root), "source_format": "pdf", "page_kind": "physical"},
    )
    rows = flatten(root, own)
    stats = {
        "pages": len(pages),
        "nodes": len(rows),
        "text_pages": sum(p.text_source == "text" for p in pages),
        "ocr_pages": sum(p.text_source == "ocr" for p in pages),
        "empty_pages": sum(p.text_source == "none" for p in pages),
        "pages_parsed": len(pages),
        **ocr.stats,  # ocr_pages (pages read by OCR, incl. those later described by vision), ocr_calls, vision_pages, page_classes
        "model": summaries.model_stats,  # calls, tokens, cost_usd, fallbacks, cache_hits (flows/report.py sums them)
        "seconds": {
            "text": round(t_text - t0, 4),
            "ocr": round(t_ocr - t_text, 4),
            "structure": round(t_struct - t_ocr, 4),
            "summaries": round(t_sum - t_struct, 4),
            "total": round(time.perf_counter() - t0, 4),
        },
    }
    return DocumentIndex(tree=tree, pages=pages, nodes=rows, sha256=sha, size=size, stats=stats,
                         decisions={"structure": structure.decisions, "ocr": ocr.decisions,
                                    "summaries": summaries.decisions},
                         cache_refs={"ocr": ocr.cache_keys} if ocr.cache_keys else {})


def resummarize(
    tree: Tree,
    nodes: list[NodeRow],
    pages: list[PageRecord],
    settings: PipelineSettings,
    *,
    sha256: str,
    size: int,
    stats: dict[str, Any],
    decisions: dict[str, Any],
    summarizer: Summarizer | None = None,
    model_usage: Any = None,
    **_: Any,
) -> DocumentIndex:
    """A new version from a previous one's tree, node texts and pages, with only the summaries redone.

    For a document whose content is unchanged when only the summary stages are stale: no PDF is opened
    and nothing is OCR'd. ``stats``/``decisions`` are the previous manifest's; their summary parts are
    replaced, the rest (what the earlier stages decided) is carried over."""
    t0 = time.perf_counter()
    root = tree.root
    own = {row.node_id: row.text for row in nodes}
    title = str(tree.extra.get("title") or root.title)
    summaries = summarize_document(root, own, summarizer, doc_title=title, page_count=len(pages), usage=model_usage)
    version = document_version(sha256, settings.fingerprint(), degraded_build(summarizer, summaries))
    tagged = tree.extra.get("facts") or {}  # an HTML filing's tagged cover (no HTML is read here)
    about = describe([p.text for p in pages], [], root, metadata_title=title, fallback_title=title,
                     cover=tagged if tagged.get("source") == "inline_xbrl" else None)
    extra = {**tree.extra, "description": catalog_description(about.description, summaries)}
    new_tree = Tree(doc_id=tree.doc_id, version=version, page_count=tree.page_count, structure_source=tree.structure_source,
                    page_offset=tree.page_offset, root=root, extra=extra)
    seconds = round(time.perf_counter() - t0, 4)
    new_stats = {**stats, "pages_parsed": 0, "ocr_calls": 0, "ocr_cache_hits": 0, "ocr_pages_read": 0,
                 "model": summaries.model_stats,
                 "seconds": {"text": 0.0, "ocr": 0.0, "structure": 0.0, "summaries": seconds, "total": seconds}}
    return DocumentIndex(tree=new_tree, pages=pages, nodes=flatten(root, own), sha256=sha256, size=size, stats=new_stats,
                         decisions={**decisions, "summaries": summaries.decisions})
