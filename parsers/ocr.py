"""OCR of scanned pages with tesseract, producing the same PageLayout born-digital pages have.

One page = render with PyMuPDF (grayscale, ``dpi`` capped by ``max_pixels``) ->
skip if blank -> tesseract hOCR (word boxes, word confidences, line x-heights)
-> PageLayout in PDF points. A page whose first pass reads poorly is checked
with tesseract OSD and re-read upright when it is rotated. Pages run in a
process pool; a page never raises: problems land in ``PageLayout.error``.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Iterable

import pymupdf
import pytesseract

from parsers.errors import DependencyError
from parsers.layout import PageLayout, Word
from parsers.ocr_layout import layout_from_hocr, leader_boxes, stroke_ratio

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

ROTATE_BELOW_CONFIDENCE = 60.0  # a first pass whose median word reads worse than this triggers an orientation check
BLANK_INK_SHARE = 0.00005  # fewer dark pixels than this share of the page: nothing to read


@dataclass(frozen=True)
class OcrOptions:
    lang: str = "eng"
    dpi: int = 300
    timeout: float = 120.0  # seconds per tesseract call; 0 = none
    max_pixels: int = 40_000_000  # per rendered page; larger pages are rendered at a lower dpi
    rotate: bool = True  # check orientation (OSD) on poorly read pages
    strokes: bool = False  # measure each line's stroke width (for bold detection)


@dataclass
class OcrResult:
    """One page's OCR outcome; ``layout.text_source`` is "ocr" or "none" (blank or failed)."""

    layout: PageLayout
    tesseract_calls: int = 0  # OCR passes + OSD checks actually run
    seconds: float = 0.0  # wall time of this page inside the worker
    tesseract_seconds: float = 0.0  # of which spent in tesseract
    dpi: int = 0  # effective render resolution (lower than asked for huge pages)
    rotation: int = 0  # degrees the page image was turned to read it upright
    skipped: str | None = None  # "blank" when no tesseract call was needed
    notes: list[str] = field(default_factory=list)
    strokes: list[float] = field(default_factory=list)  # per layout line: stem width / size (ocr_layout.stroke_ratio)


# -- start-up check ---------------------------------------------------------


def apt_package(lang: str) -> str:
    """Debian package holding a tesseract language: deu -> tesseract-ocr-deu, chi_sim -> tesseract-ocr-chi-sim."""
    return "tesseract-ocr-" + lang.lower().replace("_", "-")


@lru_cache(maxsize=16)
def check_tesseract(lang: str = "eng") -> tuple[str, frozenset[str]]:
    """(version, installed languages); raises DependencyError naming the apt package to install."""
    if shutil.which(pytesseract.pytesseract.tesseract_cmd) is None:
        raise DependencyError("tesseract is not installed (needed for OCR); install it with: "
                              "sudo apt-get install -y tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd  (or run with --no-ocr)")
    try:
        out = subprocess.run([pytesseract.pytesseract.tesseract_cmd, "--list-langs"], capture_output=True, text=True, timeout=30)
        version = str(pytesseract.get_tesseract_version())
    except (OSError, subprocess.SubprocessError, pytesseract.TesseractNotFoundError) as exc:
        raise DependencyError(f"tesseract does not run: {exc}; reinstall with: sudo apt-get install -y --reinstall tesseract-ocr") from exc
    installed = frozenset(ln.strip() for ln in out.stdout.splitlines()[1:] if ln.strip())
    missing = [code for code in lang.split("+") if code and code not in installed]
    if missing:
        pkgs = " ".join(apt_package(code) for code in missing)
        raise DependencyError(f"tesseract language pack missing for {', '.join(missing)}; install it with: sudo apt-get install -y {pkgs}")
    return version, installed


def osd_available() -> bool:
    try:
        return "osd" in check_tesseract("eng")[1]
    except DependencyError:
        return False


# -- one page ------------------------------------------------------------------

_DOCS: dict[str, pymupdf.Document] = {}
_RENDER_LOCK = threading.Lock()  # PyMuPDF is not thread-safe; processes never contend for it


def effective_dpi(width_pt: float, height_pt: float, dpi: int, max_pixels: int) -> int:
    """The asked dpi, lowered so the rendered page stays under ``max_pixels``."""
    pixels = (width_pt * dpi / 72) * (height_pt * dpi / 72)
    if pixels <= max_pixels:
        return dpi
    return max(1, int(72 * (max_pixels / max(width_pt * height_pt, 1e-6)) ** 0.5))


def _render(path: str, number: int, dpi: int, max_pixels: int, out: str) -> tuple[float, float, int, float, str]:
    """Render a page to a grayscale PGM file; returns (width pt, height pt, dpi used, dark-pixel share, MuPDF warnings)."""
    with _RENDER_LOCK:
        pymupdf.TOOLS.mupdf_warnings(reset=True)
        doc = _DOCS.get(path)
        if doc is None:
            for old in _DOCS.values():  # a worker keeps only the document it is working on open
                old.close()
            _DOCS.clear()
            doc = _DOCS[path] = pymupdf.open(path)
        page = doc[number - 1]
        rect = page.rect
        used = effective_dpi(rect.width, rect.height, dpi, max_pixels)
        pix = page.get_pixmap(dpi=used, colorspace=pymupdf.csGRAY, alpha=False)
        hist = _histogram(pix)
        pix.save(out)
        del pix
        # MuPDF draws what it can of a broken image stream and only warns; the warnings say why a page came out empty.
        warnings = pymupdf.TOOLS.mupdf_warnings(reset=True) or ""
    dark = sum(hist[:128]) / max(1, sum(hist))
    return rect.width, rect.height, used, dark, warnings


def _histogram(pix: "pymupdf.Pixmap") -> list[int]:
    from PIL import Image

    return Image.frombuffer("L", (pix.width, pix.height), pix.samples, "raw", "L", pix.stride, 1).histogram()


def _rotated_copy(src: str, degrees: int, dst: str) -> None:
    """Turn the page image clockwise by ``degrees`` so tesseract reads it upright."""
    from PIL import Image

    with Image.open(src) as img:
        img.rotate(-degrees, expand=True).save(dst)


def tesseract_config(psm: int, digits: bool = False) -> str:
    """The tesseract command-line options of one pass (also a cache key for benchmarks)."""
    return f"--psm {psm}" + (" -c tessedit_char_whitelist=0123456789" if digits else "")


def _hocr(image: str, opts: OcrOptions, psm: int = 3, digits: bool = False) -> bytes:
    return pytesseract.image_to_pdf_or_hocr(image, lang=opts.lang, extension="hocr", timeout=opts.timeout,
                                            config=tesseract_config(psm, digits))


# Leaders before something near the line end ("Title .... 12", also after junk was collapsed to "...").
_LEADERS = re.compile(r"(?:\.\s?){3,}\s*\S.{0,10}$")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+|[IVX]+\.)\s+\S")
_ENDS_NUMBER = re.compile(r"(?:\d+|[ivxlc]+)$")


def looks_like_toc(layout: PageLayout) -> bool:
    """Dot leaders or many numbered short lines: a contents page, whose page-number column tesseract may drop."""
    lines = [ln.text for ln in layout.lines]
    leaders = sum(1 for t in lines if _LEADERS.search(t))
    numbered = sum(1 for t in lines if _NUMBERED.match(t) and len(t.split()) <= 12)
    return leaders >= 2 or (numbered >= 4 and numbered >= 0.5 * len(lines))


def _numbered_ends(layout: PageLayout) -> int:
    return sum(1 for ln in layout.lines if _ENDS_NUMBER.search(ln.text))


def ocr_page(path: str, number: int, label: str | None, opts: OcrOptions) -> OcrResult:
    """OCR one page of the PDF at ``path``. Never raises: failures give text_source "none" and an error."""
    t0 = time.perf_counter()
    result = OcrResult(layout=PageLayout(number=number, width=0, height=0, label=label, text_source="none"))
    with tempfile.TemporaryDirectory(prefix="pagetree-ocr-") as tmp:
        image = os.path.join(tmp, "page.pgm")
        try:
            width, height, result.dpi, dark, warnings = _render(path, number, opts.dpi, opts.max_pixels, image)
        except Exception as exc:  # a corrupt page or image stream: record it, keep the document
            result.layout.error = f"render failed: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
            result.seconds = time.perf_counter() - t0
            return result
        result.layout.width, result.layout.height = width, height
        first_warning = warnings.splitlines()[0] if warnings else ""
        if dark < BLANK_INK_SHARE or dark > 1 - BLANK_INK_SHARE:
            if "image" in warnings or "jpeg" in warnings.lower():
                result.layout.error = f"page image could not be decoded: {first_warning}"
            result.skipped = "blank"
            result.seconds = time.perf_counter() - t0
            return result
        if warnings:
            result.notes.append(f"render warnings: {first_warning}")
        scale = 72.0 / result.dpi
        try:
            t1 = time.perf_counter()
            result.tesseract_calls += 1
            layout, confs = layout_from_hocr(_hocr(image, opts), number, scale, width, height, label)
            result.tesseract_seconds += time.perf_counter() - t1
            # median, not mean: leader dots on a contents page are many low-confidence words on an upright page
            if opts.rotate and (not confs or statistics.median(confs) < ROTATE_BELOW_CONFIDENCE):
                layout = _try_rotations(image, tmp, number, scale, width, height, label, opts, layout, result)
            if not result.rotation and looks_like_toc(layout):
                layout = _reread_as_block(image, number, scale, width, height, label, opts, layout, result)
            result.layout = layout
            if opts.strokes:
                result.strokes = _strokes(os.path.join(tmp, "turned.pgm") if result.rotation else image, layout, scale)
        except RuntimeError as exc:  # pytesseract signals its timeout this way
            result.layout.error = f"ocr timeout after {opts.timeout:g}s" if "timeout" in str(exc).lower() else f"ocr failed: {exc}"
        except (pytesseract.TesseractError, ET.ParseError, OSError) as exc:
            result.layout.error = f"ocr failed: {str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__}"
    result.seconds = time.perf_counter() - t0
    return result


def _strokes(image: str, layout: PageLayout, scale: float) -> list[float]:
    """Stroke ratio of every line (bold is decided per document in the OCR stage, against its median)."""
    from PIL import Image

    with Image.open(image) as img:
        img.load()
        return [stroke_ratio(img, ln, scale) for ln in layout.lines]


def _reread_as_block(image: str, number: int, scale: float, width: float, height: float, label: str | None,
                     opts: OcrOptions, first: PageLayout, result: OcrResult) -> PageLayout:
    """Contents pages: dot leaders make tesseract drop the spaces of titles ("Wheretoaskforhelp") and
    read the dots as junk ("ee ee", "1ST" for 157), and automatic segmentation (psm 3) tends to drop
    the right-aligned column of page numbers. So erase the leaders found in the image, read the page
    as one uniform block (psm 6, keeping each title with its number) and put "..." back where the
    dots were. Keep it unless it ends clearly fewer lines in a number than the first reading."""
    from PIL import Image

    with Image.open(image) as img:
        pixels = _gray_array(img)
    heights = sorted((ln.y1 - ln.y0) / scale for ln in first.lines)
    leaders = leader_boxes(pixels, heights[len(heights) // 2]) if heights else []
    source = image
    if leaders:
        for x0, y0, x1, y1 in leaders:
            pixels[y0:y1 + 1, x0:x1] = 255
        source = os.path.join(os.path.dirname(image), "no-leaders.pgm")
        Image.fromarray(pixels).save(source)
    t1 = time.perf_counter()
    result.tesseract_calls += 1
    layout, _ = layout_from_hocr(_hocr(source, opts, psm=6), number, scale, width, height, label, leaders=leaders)
    result.tesseract_seconds += time.perf_counter() - t1
    _sizes_from(first, layout)
    # Without leaders erased the block reading must end more lines in a number; with them erased it is
    # the better reading unless it lost numbers wholesale (a few misread numbers cost less than junk).
    if _numbered_ends(layout) >= (0.85 * _numbered_ends(first) if leaders else _numbered_ends(first) + 1):
        result.notes.append(f"contents page re-read as one block (psm 6, {len(leaders)} dot leaders erased)")
        if leaders:
            _reread_numbers(source, layout, scale, opts, result)
        return layout
    return first


_PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,7})$", re.I)


def _reread_numbers(image: str, layout: PageLayout, scale: float, opts: OcrOptions, result: OcrResult) -> None:
    """Contents entries whose last word, after the leader, is not a page number ("3l", "AT", "4B"):
    read those words again, stacked into one small image, digits only, and take the answers that
    are numbers. Punctuation left between the leader and the number is dropped."""
    from PIL import Image

    todo = [ln for ln in layout.lines if len(ln.words) >= 3 and any(w.text == "..." for w in ln.words[:-1])
            and not _PAGE_NUMBER.match(ln.words[-1].text) and len(ln.words[-1].text) <= 5]
    if not todo:
        return
    pad, gap = 8, 24
    with Image.open(image) as page:
        crops = [page.crop(tuple(int(round(v)) for v in (w.x0 / scale - pad, w.y0 / scale - pad, w.x1 / scale + pad,
                                                         w.y1 / scale + pad))) for w in (ln.words[-1] for ln in todo)]
    width = max(c.width for c in crops) + 2 * gap
    sheet = Image.new("L", (width, sum(c.height + gap for c in crops) + gap), 255)
    slots, y = [], gap
    for crop in crops:
        sheet.paste(crop, (gap, y))
        slots.append((y, y + crop.height))
        y += crop.height + gap
    path = os.path.join(os.path.dirname(image), "numbers.pgm")
    sheet.save(path)
    t1 = time.perf_counter()
    result.tesseract_calls += 1
    read, _ = layout_from_hocr(_hocr(path, opts, psm=6, digits=True), layout.number, 1.0, sheet.width, sheet.height)
    result.tesseract_seconds += time.perf_counter() - t1
    text_from_lines = layout.text == "\n".join(ln.text for ln in layout.lines)
    fixed = 0
    for ln, (top, bottom) in zip(todo, slots):
        got = [r.text for r in read.lines if top <= (r.y0 + r.y1) / 2 <= bottom]
        if len(got) != 1 or not re.fullmatch(r"\d{1,4}", got[0]):
            continue
        last = ln.words[-1]
        keep = len(ln.words) - 1
        while keep > 0 and ln.words[keep - 1].text != "..." and not re.search(r"\w", ln.words[keep - 1].text):
            keep -= 1  # stray dots or bars the leader scan left between the leader and the number
        ln.words = ln.words[:keep] + [Word(got[0], last.x0, last.y0, last.x1, last.y1)]
        ln.text = " ".join(w.text for w in ln.words)
        fixed += 1
    if fixed:
        result.notes.append(f"{fixed} page numbers re-read as digits")
        if text_from_lines:
            layout.text = "\n".join(ln.text for ln in layout.lines)


def _sizes_from(first: PageLayout, layout: PageLayout) -> None:
    """Give re-read lines the size of the first-pass line they overlap most: one uniform block (psm 6)
    fits x-heights less steadily than automatic segmentation, and entries of one style must keep one size."""
    for ln in layout.lines:
        best, overlap = None, 0.0
        for old in first.lines:
            o = min(ln.y1, old.y1) - max(ln.y0, old.y0)
            if o > overlap:
                best, overlap = old, o
        if best is not None and overlap > 0.5 * min(ln.y1 - ln.y0, best.y1 - best.y0):
            ln.size = best.size


def _gray_array(img: "Image.Image") -> "np.ndarray":
    import numpy as np

    return np.array(img.convert("L"))  # a writable copy: leaders get erased in it


def _try_rotations(image: str, tmp: str, number: int, scale: float, width: float, height: float, label: str | None,
                   opts: OcrOptions, first: PageLayout, result: OcrResult) -> PageLayout:
    """Ask OSD how the page is turned; re-read it upright and keep the better-confidence reading."""
    t1 = time.perf_counter()
    result.tesseract_calls += 1
    try:
        osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT, timeout=opts.timeout)
    except pytesseract.TesseractError:  # "Too few characters": nothing to orient by
        result.tesseract_seconds += time.perf_counter() - t1
        return first
    result.tesseract_seconds += time.perf_counter() - t1
    degrees = int(osd.get("rotate", 0)) % 360
    if degrees == 0:
        return first
    turned = os.path.join(tmp, "turned.pgm")
    _rotated_copy(image, degrees, turned)
    w, h = (height, width) if degrees in (90, 270) else (width, height)
    t2 = time.perf_counter()
    result.tesseract_calls += 1
    layout, confs = layout_from_hocr(_hocr(turned, opts), number, scale, w, h, label)
    result.tesseract_seconds += time.perf_counter() - t2
    if (layout.ocr_confidence or 0) > (first.ocr_confidence or 0):
        result.rotation = degrees
        result.notes.append(f"rotated {degrees} degrees (OSD)")
        return layout
    return first


# -- many pages --------------------------------------------------------------


def _init_worker() -> None:
    # Parallelism comes from the pool; one OpenMP thread per tesseract avoids 2 x N threads fighting over N cores.
    os.environ["OMP_THREAD_LIMIT"] = "1"


def _can_spawn() -> bool:
    """Spawned workers re-import __main__ by path: impossible for daemons (Dask workers) and for `python - <script`."""
    if multiprocessing.current_process().daemon:
        return False
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    return main is None or os.path.exists(main)


def _executor(workers: int, processes: bool) -> Executor:
    if not processes:
        # tesseract is a subprocess, so threads still run pages in parallel; rendering is serialised by _RENDER_LOCK.
        return ThreadPoolExecutor(max_workers=workers)
    # spawn, not fork: the parent may run threads (Prefect, Dask) whose held locks a forked child would inherit.
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker)


def _run_pool(path: str, pages: list[tuple[int, str | None]], opts: OcrOptions, workers: int,
              processes: bool, page_done: Callable[[], None] | None = None) -> dict[int, OcrResult]:
    results: dict[int, OcrResult] = {}
    with _executor(workers, processes) as pool:
        futures = {n: pool.submit(ocr_page, path, n, label, opts) for n, label in pages}
        for n, label in pages:
            try:
                results[n] = futures[n].result()
            except Exception as exc:  # a worker that died (e.g. MuPDF crashed on a broken image)
                layout = PageLayout(number=n, width=0, height=0, label=label, text_source="none",
                                    error=f"ocr worker failed: {type(exc).__name__}: {exc}")
                results[n] = OcrResult(layout=layout)
            if page_done is not None:
                page_done()
    return results


def ocr_pages(path: str, pages: Iterable[tuple[int, str | None]], opts: OcrOptions, workers: int = 2,
              page_done: Callable[[], None] | None = None) -> dict[int, OcrResult]:
    """OCR (page number, label) pairs of one PDF, in parallel; a failed page has an error, never an exception.

    ``page_done`` is called once per page as its reading is collected (in page order), for progress output."""
    pages = list(pages)
    if not pages:
        return {}
    workers = max(1, min(workers, len(pages)))
    if workers == 1:
        try:
            out = {}
            for n, label in pages:
                out[n] = ocr_page(str(path), n, label, opts)
                if page_done is not None:
                    page_done()
            return out
        finally:
            _close_docs()
    processes = _can_spawn()
    results = _run_pool(str(path), pages, opts, workers, processes, page_done)
    broken = [(n, label) for n, label in pages if (results[n].layout.error or "").startswith("ocr worker failed")]
    for n, label in broken if processes else []:
        # A crashed worker (MuPDF on a broken image) fails every queued page: retry each alone, in its own
        # process, so only the culprit keeps its error and a crash can never take this process down.
        results.update(_run_pool(str(path), [(n, label)], opts, 1, processes=True))
    _close_docs()  # thread pools rendered in this process
    return results


def _close_docs() -> None:
    with _RENDER_LOCK:
        for doc in _DOCS.values():
            doc.close()
        _DOCS.clear()


def page_png(page: "pymupdf.Page", dpi: int = 150, max_pixels: int = 4_000_000) -> bytes:
    """A page as a PNG for a vision model (RGB, modest resolution: models downscale anyway)."""
    rect = page.rect
    pix = page.get_pixmap(dpi=effective_dpi(rect.width, rect.height, dpi, max_pixels), alpha=False)
    return pix.tobytes("png")
