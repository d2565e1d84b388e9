"""The pure chain: a PDF path plus settings in, a DocumentIndex out.

No Prefect, no network, no store: unit tests and benchmarks call this directly.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable

from index_store.model import NodeRow, PageRecord, Tree, flatten
from parsers.describe import TITLE_PAGES, describe
from parsers.ocr_stage import Vision, run_ocr_stage
from parsers.pdf import OpenLimits, PdfSource
from parsers.ranges import build_tree, front_matter, page_groups
from parsers.sections import assign_text
from parsers.structure import LlmStructureHook, recover_structure
from parsers.summarize import Summarizer, summarize_document

PROMPT_VERSION_NONE = "none"


def package_version() -> str:
    try:
        return metadata.version("pagetree")
    except metadata.PackageNotFoundError:
        return "0+unknown"


#: The packages whose code turns a PDF into a tree, its texts and its summaries.
INDEXING_PACKAGES = ("parsers", "providers")


def code_digest(package_dirs: tuple[Path, ...]) -> str:
    """sha256 over the relative path and bytes of every ``.py`` file under ``package_dirs`` (sorted; caches
    such as ``__pycache__`` are not sources). Comments count too: a cheap, certain rule beats a clever one."""
    digest = hashlib.sha256()
    for root in package_dirs:
        for path in sorted(root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            digest.update(f"{root.name}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def indexing_code_version() -> str:
    """The digest of the indexing code this process runs (computed once).

    The package version alone is not enough: a checkout that changes a parser without a release keeps
    its version, so the same bytes would get the same version id and nothing would be rebuilt (the
    retrieval benchmark read trees two parser generations old that way).
    """
    here = Path(__file__).resolve().parent.parent
    return code_digest(tuple(here / name for name in INDEXING_PACKAGES if (here / name).is_dir()))


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

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def fingerprint(self) -> str:
        """sha256 over the package version, the indexing code's digest and these settings (canonical JSON)."""
        payload = json.dumps({"package_version": package_version(), "code": indexing_code_version(),
                              "settings": self.to_dict()}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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


Progress = Callable[[str], None]


def _metadata_title(pdf: PdfSource) -> str:
    try:
        return str((pdf.doc.metadata or {}).get("title") or "")
    except Exception:
        return ""


def _doc_title(pdf: PdfSource, path: Path) -> str:
    title = _metadata_title(pdf)
    title = " ".join(title.split())
    return title if 3 <= len(title) <= 200 else path.stem


def _description(described: str, summaries: Any) -> str:
    """The catalog description: the model's when a model wrote one (docs/providers.md), else what describe()
    read (the title, which names company, form and period, is in the catalog either way)."""
    if summaries.description_source == "model" and summaries.description:
        return summaries.description
    return described or summaries.description


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
) -> DocumentIndex:
    """Index one PDF. Raises parsers.errors.DocumentError for unusable input."""
    settings = settings or PipelineSettings()
    path = Path(path)
    t0 = time.perf_counter()
    sha = sha256 or file_sha256(path)
    size = path.stat().st_size
    with PdfSource(path, OpenLimits(settings.max_bytes, settings.max_pages)) as pdf:
        labels = pdf.labels()
        texts = [pdf.text(n) for n in range(1, pdf.page_count + 1)]
        t_text = time.perf_counter()
        # OCR stage (parsers/ocr_stage.py): scanned pages get OCR layouts before structure runs; workers don't change output.
        ocr = run_ocr_stage(pdf, ocr=settings.ocr, lang=settings.ocr_lang, dpi=settings.ocr_dpi, timeout=settings.ocr_timeout,
                            max_pixels=settings.ocr_max_pixels, vision_below=settings.vision_below_confidence,
                            vision_max_pages=settings.vision_max_pages, vision=vision, workers=ocr_workers)
        texts = [pdf.text(n) for n in range(1, pdf.page_count + 1)]
        t_ocr = time.perf_counter()
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
        pages = [
            PageRecord(page_number=n, label=labels[n - 1], text=texts[n - 1],
                       text_source=ocr.sources.get(n) or ("text" if texts[n - 1].strip() else "none"),
                       ocr_confidence=ocr.confidence.get(n))
            for n in range(1, pdf.page_count + 1)
        ]
    own = assign_text(root, [p.text for p in pages])
    # Model summaries when a summarizer is given (extractive fallback per node), else extractive; see parsers/summarize.py.
    # model_usage (providers.usage.Usage) accounts summaries, vision and structure calls together in stats["model"].
    summaries = summarize_document(root, own, summarizer, doc_title=title, page_count=len(pages), usage=model_usage,
                                   progress=(lambda d, t: progress(f"summaries {d}/{t}")) if progress else None)
    t_sum = time.perf_counter()
    fingerprint = settings.fingerprint()
    version = version_id(sha, fingerprint)
    tree = Tree(
        doc_id=doc_id,
        version=version,
        page_count=len(pages),
        structure_source=structure.source,
        page_offset=structure.page_offset,
        root=root,
        # front_matter: the pages before the first entry, which are the root's own text (null when none).
        extra={"title": title, "description": _description(about.description, summaries), "doc_kind": about.doc_kind,
               "facts": about.facts, "front_matter": front_matter(root)},
    )
    rows = flatten(root, own)
    stats = {
        "pages": len(pages),
        "nodes": len(rows),
        "text_pages": sum(p.text_source == "text" for p in pages),
        "ocr_pages": sum(p.text_source == "ocr" for p in pages),
        "empty_pages": sum(p.text_source == "none" for p in pages),
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
                                    "summaries": summaries.decisions})
