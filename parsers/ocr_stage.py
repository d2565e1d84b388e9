"""The OCR stage of the pipeline: classify every page, OCR the scanned ones, describe figures.

Runs between text extraction and the structure chain. OCR'd pages are handed
to ``PdfSource.set_layout`` so structure methods see them like born-digital
pages. Vision descriptions are appended to the page text under a marker line
and the page's ``text_source`` becomes "vision" (docs/ocr.md). Everything the
stage decided is returned for the manifest.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any, Callable

from parsers.classify import HUGE_TEXT_CHARS, PageKind, classify, page_stats
from parsers.layout import PageLayout
from parsers.ocr import OcrOptions, check_tesseract, page_png
from parsers.ocr_cache import PageCache, read_pages
from parsers.ocr_layout import mark_bold
from parsers.pdf import PdfSource, damage_warnings

# A vision-capable model behind the provider interface: PNG bytes in, a description (or None) out.
# providers.vision.vision_callable(provider) builds one; it may also raise: the stage records either.
Vision = Callable[[bytes], "str | None"]
VISION_MARKER = "[page description]"


@dataclass
class OcrStage:
    sources: dict[int, str] = field(default_factory=dict)  # page -> text_source where not decided by the text layer
    confidence: dict[int, float] = field(default_factory=dict)  # page -> mean OCR word confidence (0-100)
    stats: dict[str, Any] = field(default_factory=dict)
    decisions: dict[str, Any] = field(default_factory=dict)
    cache_keys: list[str] = field(default_factory=list)  # OCR cache entries this document's pages use (manifest cache_refs)


def default_workers() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _ranges(pages: list[int]) -> str:
    """[1,2,3,7] -> "1-3,7": compact page lists for the manifest."""
    runs: list[list[int]] = []
    for n in sorted(pages):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def run_ocr_stage(pdf: PdfSource, *, ocr: bool = True, lang: str = "eng", dpi: int = 300, timeout: float = 120.0,
                  max_pixels: int = 40_000_000, vision_below: float = 60.0, vision_max_pages: int = 50,
                  vision: Vision | None = None, workers: int | None = None, bold: bool = False,
                  cache: PageCache | None = None, doc_sha: str | None = None,
                  progress: Callable[[str], None] | None = None) -> OcrStage:
    """Classify, OCR and describe pages of ``pdf`` in place (set_layout); raises DependencyError if tesseract is needed but missing.

    ``bold`` marks OCR lines bold from their stroke width (ocr_layout.mark_bold). Off by default: on the
    scanned manuals it lowered structure F1 (figures in docs/ocr.md, "Bold"), because the headings detector
    then promotes bold list items, as it does on born-digital pages.
    ``cache`` (parsers/ocr_cache.py) holds readings by page image: a page found there is not OCR'd again
    (``doc_sha``, the document's sha256, lets a rebuild of the same bytes find them without rendering).
    ``progress`` gets "OCR <done>/<total> pages" as pages are read, then "vision <done>/<total> pages"."""
    stage = OcrStage()
    kinds: dict[int, PageKind] = {}
    huge: list[int] = []
    for n in range(1, pdf.page_count + 1):
        if n in pdf.huge:  # bounded work: no statistics, no OCR, no layout (PdfSource.text, PdfSource.layout)
            kinds[n] = PageKind.BORN_DIGITAL
            huge.append(n)
            continue
        try:
            kinds[n] = classify(page_stats(pdf.doc[n - 1], pdf.text(n)))
        except Exception:  # an unreadable page dictionary: treat as born-digital (its text is whatever MuPDF read)
            kinds[n] = PageKind.BORN_DIGITAL
    if huge:
        stage.decisions["huge_text_layer"] = {
            "pages": _ranges(huge), "limit_chars": HUGE_TEXT_CHARS, "chars": {n: pdf.huge[n] for n in huge},
            "decision": "text layer kept, cut to limit_chars: not classified, not OCR'd, not laid out for structure"}
    by_kind = {k.value: [n for n, v in kinds.items() if v is k] for k in PageKind}
    stage.decisions["classes"] = {k: _ranges(v) for k, v in by_kind.items() if v}
    stage.stats["page_classes"] = {k: len(v) for k, v in by_kind.items() if v}
    todo = by_kind[PageKind.NEEDS_OCR.value]
    ocr_info: dict[str, Any] = {"enabled": ocr, "lang": lang, "dpi": dpi, "pages": _ranges(todo)}
    stage.decisions["ocr"] = ocr_info
    calls = 0
    ocr_seconds = tess_seconds = 0.0
    low: list[int] = []
    if todo and not ocr:
        ocr_info["skipped"] = "OCR disabled: these pages keep their (missing or garbage) text layer"
    elif todo:
        engine_version, installed = check_tesseract(lang)
        opts = OcrOptions(lang=lang, dpi=dpi, timeout=timeout, max_pixels=max_pixels, rotate="osd" in installed, strokes=bold)
        if not opts.rotate:
            ocr_info["rotation"] = "OSD data missing (apt package tesseract-ocr-osd): no auto-rotation"
        labels = pdf.labels()
        results, keys, cache_hits = read_pages(pdf, todo, labels, opts, workers or default_workers(), cache, engine_version,
                                              doc_sha, (lambda d, t: progress(f"OCR {d}/{t} pages")) if progress else None)
        stage.cache_keys = keys
        stage.stats.update(ocr_cache_hits=cache_hits, ocr_pages_read=len(todo) - cache_hits)
        errors, blank, rotated, downscaled, notes, kept = {}, [], {}, {}, {}, []
        for n in todo:
            r = results[n]
            calls += r.tesseract_calls
            ocr_seconds += r.seconds
            tess_seconds += r.tesseract_seconds
            if r.dpi and r.dpi < dpi:
                downscaled[n] = r.dpi
            if r.rotation:
                rotated[n] = r.rotation
            if r.notes:
                notes[n] = "; ".join(r.notes)
            if r.layout.error:
                errors[n] = r.layout.error
                # OCR failed (a timeout, a crash): a text layer, even a poor one, beats an empty page.
                stage.sources[n] = "text" if pdf.text(n).strip() else "none"
                if stage.sources[n] == "text":
                    kept.append(n)
                continue
            if r.skipped == "blank" or r.layout.text_source != "ocr":
                blank.append(n)
                stage.sources[n] = "none"
                continue
            pdf.set_layout(r.layout)
            stage.sources[n] = "ocr"
            if r.layout.ocr_confidence is not None:
                stage.confidence[n] = r.layout.ocr_confidence
                if r.layout.ocr_confidence < vision_below:
                    low.append(n)
        if bold:  # against this document's own median stroke: fonts and scan darkness differ per document
            strokes = [(ln, r) for n in todo if stage.sources.get(n) == "ocr"
                       for ln, r in zip(results[n].layout.lines, results[n].strokes)]
            ocr_info["bold_lines"] = mark_bold(strokes)
        ocr_info.update({k: v for k, v in (("errors", errors), ("blank", _ranges(blank)), ("rotated", rotated),
                                           ("downscaled_dpi", downscaled), ("low_confidence", _ranges(low)), ("notes", notes),
                                           ("kept_text_layer", _ranges(kept))) if v})
    stage.stats.update(ocr_pages=sum(1 for s in stage.sources.values() if s == "ocr"), ocr_calls=calls,
                       ocr_seconds=round(ocr_seconds, 3), tesseract_seconds=round(tess_seconds, 3))
    # Page health goes with the classes: a damaged file publishes, marked (manifest stats.warnings, run report).
    stage.stats["warnings"] = damage_warnings(pdf, by_kind[PageKind.BLANK.value], _ranges)
    wanted = sorted(by_kind[PageKind.FIGURE_HEAVY.value] + low)
    _describe(pdf, wanted, vision, vision_max_pages, stage, progress)
    return stage


def _describe(pdf: PdfSource, wanted: list[int], vision: Vision | None, max_pages: int, stage: OcrStage,
              progress: Callable[[str], None] | None = None) -> None:
    """Call the vision model on figure-heavy and poorly read pages; without one, only flag them."""
    info: dict[str, Any] = {"wanted": _ranges(wanted)}
    stage.decisions["vision"] = info
    stage.stats["vision_pages"] = 0
    if not wanted:
        return
    if vision is None:
        info["skipped"] = "no vision model configured: pages keep their text/OCR"
        return
    described, empty, errors = [], [], {}
    sent = wanted[:max_pages]
    for i, n in enumerate(sent):
        if progress is not None:
            progress(f"vision {i}/{len(sent)} pages")
        try:
            desc = vision(page_png(pdf.doc[n - 1]))
        except Exception as exc:  # a provider failure must never block indexing
            errors[n] = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            continue
        if not desc or not desc.strip():
            empty.append(n)  # the model failed or saw nothing; the page keeps its text
            continue
        layout = pdf.layout(n)
        base = layout.text.strip()
        layout.text = f"{base}\n\n{VISION_MARKER} {desc.strip()}" if base else f"{VISION_MARKER} {desc.strip()}"
        pdf.set_layout(_with_source(layout, "vision"))
        stage.sources[n] = "vision"
        described.append(n)
    if len(wanted) > max_pages:
        info["capped"] = f"only the first {max_pages} of {len(wanted)} pages were sent"
    info.update({k: v for k, v in (("described", _ranges(described)), ("no_description", _ranges(empty)),
                                   ("errors", errors)) if v})
    stage.stats["vision_pages"] = len(described)


def _with_source(layout: PageLayout, source: str) -> PageLayout:
    layout.text_source = source
    return layout
