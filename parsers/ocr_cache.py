"""OCR results cached by what tesseract would see: the rendered page image, the engine and its settings.

The key is sha256 over the grayscale pixels the OCR stage would render (same dpi cap as parsers/ocr.py),
the tesseract version, the OCR stage version (parsers/stages.py) and the options that change a reading
(language, dpi, pixel cap, rotation check, stroke measuring). So an entry serves any document, version or
pipeline whose page looks the same, and a new engine, language or stage version simply misses. Rendering a
page for its key costs a few per cent of reading it. Only clean readings are stored (no error, no timeout):
a page that failed is read again next time. The store side is index_store/cache.py (``cache/ocr/``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any, Callable, Protocol, Sequence

import pymupdf

from parsers import stages
from parsers.layout import Line, PageLayout, Word
from parsers.ocr import OcrOptions, OcrResult, effective_dpi


class PageCache(Protocol):
    """JSON entries by key (index_store.cache.StoreOcrCache)."""

    def get_many(self, keys: Sequence[str]) -> dict[str, dict[str, Any]]: ...

    def put(self, key: str, entry: dict[str, Any]) -> None: ...

    def flush(self) -> None: ...


def engine(opts: OcrOptions, tesseract_version: str) -> dict[str, Any]:
    """Everything besides the image that decides what OCR reads (timeouts do not: a timed-out page is not cached)."""
    return {"engine": f"tesseract {tesseract_version}", "ocr_stage": stages.STAGES["ocr"][0], "lang": opts.lang,
            "dpi": opts.dpi, "max_pixels": opts.max_pixels, "rotate": opts.rotate, "strokes": opts.strokes}


def page_key(page: "pymupdf.Page", opts: OcrOptions, engine_info: dict[str, Any]) -> str:
    """sha256 over the page as parsers.ocr renders it for tesseract, plus ``engine_info``."""
    rect = page.rect
    dpi = effective_dpi(rect.width, rect.height, opts.dpi, opts.max_pixels)
    pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    digest = hashlib.sha256(json.dumps(engine_info, sort_keys=True).encode())
    digest.update(f"\0{pix.width}x{pix.height}@{dpi}\0{rect.width:.3f}x{rect.height:.3f}\0".encode())
    digest.update(pix.samples)
    return digest.hexdigest()


def to_entry(result: OcrResult, engine_info: dict[str, Any]) -> dict[str, Any] | None:
    """A cache entry for a clean reading, or None (errors and timeouts are not cached)."""
    if result.layout.error:
        return None
    return {"layout": asdict(result.layout), "tesseract_calls": result.tesseract_calls, "dpi": result.dpi,
            "rotation": result.rotation, "skipped": result.skipped, "notes": list(result.notes),
            "strokes": list(result.strokes), "seconds": round(result.seconds, 3), **engine_info}


def from_entry(entry: dict[str, Any], number: int, label: str | None) -> OcrResult:
    """The OcrResult an entry stands for, on page ``number`` of this document (0 tesseract calls now)."""
    raw = dict(entry["layout"])
    lines = [Line(**{**ln, "words": [Word(**w) for w in ln.get("words", [])]}) for ln in raw.pop("lines", [])]
    raw["links"] = [tuple(link) for link in raw.get("links", [])]
    layout = PageLayout(**{**raw, "number": number, "label": label, "lines": lines})
    return OcrResult(layout=layout, tesseract_calls=0, dpi=int(entry.get("dpi") or 0),
                     rotation=int(entry.get("rotation") or 0), skipped=entry.get("skipped"),
                     notes=list(entry.get("notes") or []), strokes=list(entry.get("strokes") or []))


def alias_key(doc_sha: str, number: int, engine_info: dict[str, Any]) -> str:
    """The key of an alias entry ``{"image_key"}``: page ``number`` of the document with sha256 ``doc_sha``.

    Rebuilding the same bytes then finds its readings without rendering a page (a render is a noticeable share
    of an OCR'd page's cost: benchmarks/results/comment-figures.md). The PyMuPDF version is part of it: another
    renderer may draw another image."""
    payload = json.dumps({"doc": doc_sha, "page": number, "renderer": pymupdf.VersionBind, **engine_info}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


def read_pages(pdf: Any, todo: list[int], labels: list[str | None], opts: OcrOptions, workers: int,
               cache: PageCache | None, tesseract_version: str,
               doc_sha: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> tuple[dict[int, OcrResult], list[str], int]:
    """OCR ``todo`` pages of ``pdf`` (a PdfSource), taking what ``cache`` holds: (results, keys used, hits).

    Without a cache this is parsers.ocr.ocr_pages. New clean readings are put in the cache; with ``doc_sha``
    an alias per page (``alias_key``) lets the next build of the same bytes skip rendering for keys.
    ``progress(done, total)`` is called as pages are read (cached pages count as done at once)."""
    from parsers.ocr import ocr_pages

    done = [0]

    def page_done() -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0], len(todo))

    if cache is None:
        return ocr_pages(str(pdf.path), [(n, labels[n - 1]) for n in todo], opts, workers, page_done), [], 0
    info = engine(opts, tesseract_version)
    aliases = {n: alias_key(doc_sha, n, info) for n in todo} if doc_sha else {}
    keys: dict[int, str] = {}
    if aliases:
        known = cache.get_many(sorted(set(aliases.values())))
        for n, alias in aliases.items():
            image_key = (known.get(alias) or {}).get("image_key")
            if isinstance(image_key, str):
                keys[n] = image_key
    rendered = [n for n in todo if n not in keys]
    for n in rendered:
        try:
            keys[n] = page_key(pdf.doc[n - 1], opts, info)
        except Exception:  # an unrenderable page: OCR records why; nothing to cache
            continue
    found = cache.get_many(sorted(set(keys.values())))
    results: dict[int, OcrResult] = {}
    for n, key in keys.items():
        if key in found:
            try:
                results[n] = from_entry(found[key], n, labels[n - 1])
            except (TypeError, KeyError, ValueError):  # an entry from an incompatible writer: read the page again
                pass
    missing = [n for n in todo if n not in results]
    hits = len(results)
    done[0] = hits
    results.update(ocr_pages(str(pdf.path), [(n, labels[n - 1]) for n in missing], opts, workers, page_done))
    stored = {n for n in results if n not in missing}
    for n in missing:
        entry = to_entry(results[n], info) if n in keys else None
        if entry is not None:
            cache.put(keys[n], entry)
            stored.add(n)
    referenced = sorted({keys[n] for n in stored})
    for n in sorted(stored):
        if n in aliases:
            if n in rendered:
                cache.put(aliases[n], {"image_key": keys[n]})
            referenced.append(aliases[n])
    cache.flush()
    return results, sorted(set(referenced)), hits
