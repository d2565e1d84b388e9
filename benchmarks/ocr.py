"""OCR benchmark: scanned variants of the manuals corpus through the real pipeline.

For each manual: the first N pages (default 60) are rasterised at 200 dpi grayscale
into an image-only PDF (no text layer, outline and page labels removed). We index it
with ``parsers.pipeline.index_document`` and report:

- CER of each OCR'd page vs the original text layer (median, p90), after a light
  normalisation (NFKC, quotes/dashes folded, whitespace collapsed);
- structure F1 at level <= 2 (benchmarks/metric.py) against the original outline
  entries on those pages;
- OCR pages per minute (OCR stage wall time, this machine);
- OCR calls on the born-digital originals (whole documents; must be 0);
- for one document: our end-to-end indexing time vs tesseract's own time on the same
  page images (the tesseract CLI, sequential, default threads; rendering not counted).

    python benchmarks/ocr.py [--corpus DIR] [--pages 60] [--docs a,b] [--speed-doc debian-policy] [--reuse-ocr]

``--reuse-ocr`` keeps every tesseract hOCR answer under benchmarks/.work/ocr/hocr/, keyed by
the page image's bytes, language, psm and tesseract config, so re-running structure or
layout changes does not re-OCR. tesseract is deterministic, so CER and F1 are the same as
without it; the ``--speed-doc`` document is always OCR'd for real (the cache is switched off
for it, its workers included), and the OCR stage times of cached documents are not speeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import pymupdf
from rapidfuzz.distance import Levenshtein

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.metric import mean_scores, predictions_from_tree, score, truth_from_pdf  # noqa: E402
import parsers.ocr  # noqa: E402
from parsers.pipeline import PipelineSettings, index_document  # noqa: E402

FETCH = "/work/shared/corpus/manuals/fetch.sh"
_FOLD = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-",
                       "\u2212": "-", "\u00ad": None, "\u2022": "*", "\u00b7": "*"})


def ensure_corpus(folder: Path) -> list[Path]:
    if not folder.is_dir() or not list(folder.glob("*.pdf")):
        print(f"corpus missing at {folder}: fetching with {FETCH}", file=sys.stderr)
        subprocess.run(["bash", FETCH, str(folder)], check=True)
    return sorted(folder.glob("*.pdf"))


def make_scanned(src: Path, dst: Path, pages: int, dpi: int) -> int:
    """Image-only copy of the first ``pages`` pages (grayscale, ``dpi``); no outline, labels or metadata."""
    with pymupdf.open(src) as doc, pymupdf.open() as out:
        n = min(pages, doc.page_count)
        for i in range(n):
            page = doc[i]
            pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
            new = out.new_page(width=page.rect.width, height=page.rect.height)
            new.insert_image(new.rect, stream=pix.tobytes("png"))
        out.save(dst, garbage=3, deflate=True)
    return n


_HOCR_CACHE_ENV = "PAGETREE_BENCH_HOCR_CACHE"  # set by --reuse-ocr; spawned OCR workers inherit it


def _cached_hocr(uncached):
    """Wrap parsers.ocr._hocr with a disk cache keyed by what tesseract sees (image bytes, lang, psm, config)."""
    def hocr(image: str, opts: "parsers.ocr.OcrOptions", psm: int = 3, digits: bool = False) -> bytes:
        if not os.environ.get(_HOCR_CACHE_ENV):  # switched off around the timed document
            return uncached(image, opts, psm, digits)
        folder = Path(os.environ[_HOCR_CACHE_ENV])
        key = hashlib.sha256(Path(image).read_bytes())
        key.update(f"|{opts.lang}|{psm}|{parsers.ocr.tesseract_config(psm, digits)}".encode())
        path = folder / f"{key.hexdigest()}.hocr"
        if path.exists():
            return path.read_bytes()
        out = uncached(image, opts, psm, digits)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(out)
        tmp.replace(path)
        return out
    return hocr


def _install_hocr_cache() -> None:
    if not getattr(parsers.ocr._hocr, "cached", False):
        parsers.ocr._hocr = _cached_hocr(parsers.ocr._hocr)
        parsers.ocr._hocr.cached = True


if os.environ.get(_HOCR_CACHE_ENV):  # module level: spawned workers re-import this file as __mp_main__
    _install_hocr_cache()


_LEADER = re.compile(r"(?:\.\s*){3,}")  # TOC dot leaders: typography, not content (". . . ." vs "......")


def normalise(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_FOLD)
    text = _LEADER.sub(" ... ", text)
    return " ".join(text.split())


def cer(reference: str, hypothesis: str) -> float:
    ref, hyp = normalise(reference), normalise(hypothesis)
    return Levenshtein.distance(ref, hyp) / max(1, len(ref))


def reading_order_text(page: "pymupdf.Page") -> str:
    """The text layer in visual order (blocks top-to-bottom, left-to-right), as OCR reads a page."""
    return page.get_text(sort=True)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def tesseract_time(scanned: Path, dpi: int, lang: str) -> tuple[float, int]:
    """Seconds the tesseract CLI alone takes on the page images our pipeline OCRs (rendering not timed)."""
    with tempfile.TemporaryDirectory(prefix="ocr-bench-") as tmp, pymupdf.open(scanned) as doc:
        images = []
        for i, page in enumerate(doc):
            path = Path(tmp) / f"p{i + 1:04d}.pgm"
            page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False).save(path)
            images.append(path)
        best = float("inf")
        # tesseract's default (OpenMP threads) and single-threaded; the faster one is its "own time".
        for env in (dict(os.environ), {**os.environ, "OMP_THREAD_LIMIT": "1"}):
            t0 = time.perf_counter()
            for path in images:
                subprocess.run(["tesseract", str(path), "-", "-l", lang, "hocr"], check=True, capture_output=True, env=env)
            best = min(best, time.perf_counter() - t0)
        return best, len(images)  # min over the two configurations


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(HERE.parent / ".corpus"))
    ap.add_argument("--pages", type=int, default=60)
    ap.add_argument("--scan-dpi", type=int, default=200)
    ap.add_argument("--ocr-dpi", type=int, default=PipelineSettings().ocr_dpi)
    ap.add_argument("--docs", default="", help="comma-separated doc ids (file stems); default all")
    ap.add_argument("--speed-doc", default="debian-policy", help="document for the end-to-end vs tesseract timing ('' to skip)")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--work", default=str(HERE / ".work" / "ocr"), help="where scanned variants are cached (git-ignored)")
    ap.add_argument("--out", default=str(HERE / "results" / "ocr.json"))
    ap.add_argument("--no-born", action="store_true", help="skip the born-digital originals (0-OCR-calls check) while iterating")
    ap.add_argument("--reuse-ocr", action="store_true", help="cache tesseract answers under WORK/hocr (not for speed figures)")
    ap.add_argument("--dump", default="", help="folder to write per-page reference/OCR texts and CERs for diagnosis")
    args = ap.parse_args(argv)
    if args.reuse_ocr:
        cache = Path(args.work) / "hocr"
        cache.mkdir(parents=True, exist_ok=True)
        os.environ[_HOCR_CACHE_ENV] = str(cache.resolve())
        _install_hocr_cache()

    corpus = ensure_corpus(Path(args.corpus))
    wanted = {d for d in args.docs.split(",") if d}
    docs = [p for p in corpus if not wanted or p.stem in wanted]
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    settings = PipelineSettings(ocr_dpi=args.ocr_dpi)

    per_doc, all_cer, all_cer_visual, scores = [], [], [], []
    speed = None
    ocr_pages = 0
    ocr_seconds = 0.0
    for src in docs:
        scanned = work / f"{src.stem}.scan{args.scan_dpi}.p{args.pages}.pdf"
        if not scanned.exists():
            make_scanned(src, scanned, args.pages, args.scan_dpi)
        timed = src.stem == args.speed_doc
        cache = os.environ.pop(_HOCR_CACHE_ENV, None) if timed else None  # the speed figure never reads the cache
        t0 = time.perf_counter()
        index = index_document(scanned, src.stem, settings, ocr_workers=args.workers)
        wall = time.perf_counter() - t0
        if cache:
            os.environ[_HOCR_CACHE_ENV] = cache
        with pymupdf.open(src) as orig:
            n = min(args.pages, orig.page_count)
            originals = [orig[i].get_text() for i in range(n)]
            visual = [reading_order_text(orig[i]) for i in range(n)]
        scored = [i for i, ref in enumerate(originals) if normalise(ref)]
        cers = [cer(originals[i], index.pages[i].text) for i in scored]
        cers_visual = [cer(visual[i], index.pages[i].text) for i in scored]
        all_cer_visual.extend(cers_visual)
        if args.dump:
            dump = Path(args.dump)
            dump.mkdir(parents=True, exist_ok=True)
            with open(dump / f"{src.stem}.jsonl", "w") as fh:
                for i, c, cv in zip(scored, cers, cers_visual):
                    fh.write(json.dumps({"doc": src.stem, "page": i + 1, "cer": c, "cer_visual": cv, "ref": originals[i],
                                         "ref_visual": visual[i], "ocr": index.pages[i].text}) + "\n")
        truth = [t for t in truth_from_pdf(src) if t[2] <= n]
        s = score(truth, predictions_from_tree(index.tree))
        scores.append(s)
        all_cer.extend(cers)
        ocr_pages += index.stats.get("ocr_pages", 0)
        ocr_seconds += index.stats["seconds"]["ocr"]
        row = {
            "doc": src.stem, "pages": n, "ocr_pages": index.stats.get("ocr_pages", 0), "ocr_calls": index.stats.get("ocr_calls", 0),
            "cer_median": statistics.median(cers) if cers else None, "cer_p90": percentile(cers, 0.9),
            "cer_visual_median": statistics.median(cers_visual) if cers_visual else None,
            "cer_visual_p90": percentile(cers_visual, 0.9),
            "structure_source": index.tree.structure_source, "f1_l12": s["l12"]["f1"], "truth_l12": s["l12"]["truth"],
            "pred": s["l12"]["pred"], "ocr_seconds": index.stats["seconds"]["ocr"], "total_seconds": round(wall, 2),
            "mean_confidence": statistics.fmean(p.ocr_confidence for p in index.pages if p.ocr_confidence is not None)
            if index.stats.get("ocr_pages") else None,
            "errors": index.decisions.get("ocr", {}).get("ocr", {}).get("errors", {}),
        }
        per_doc.append(row)
        if timed:
            # Right after our run, so both see the same machine load.
            tess, pages = tesseract_time(scanned, args.ocr_dpi, settings.ocr_lang)
            speed = {"doc": src.stem, "pages": pages, "ours_seconds": round(wall, 2), "tesseract_seconds": round(tess, 2),
                     "ratio": round(wall / tess, 3), "ocr_stage_seconds": index.stats["seconds"]["ocr"],
                     "ocr_pages_per_minute": round(index.stats.get("ocr_pages", 0) / index.stats["seconds"]["ocr"] * 60, 1)}
        print(f"{src.stem}: cer median {row['cer_median']:.4f} p90 {row['cer_p90']:.4f} "
              f"(visual order {row['cer_visual_median']:.4f} / {row['cer_visual_p90']:.4f}) f1 {row['f1_l12']:.3f} "
              f"({row['structure_source']}) {row['ocr_pages']} pages in {row['ocr_seconds']:.1f}s", file=sys.stderr)

    # Born-digital originals: whole documents, OCR must never run.
    born_calls = {}
    for src in [] if args.no_born else docs:
        index = index_document(src, src.stem, settings, ocr_workers=args.workers)
        born_calls[src.stem] = index.stats.get("ocr_calls", 0)

    mean = mean_scores(scores)
    summary = {
        "cer_median": statistics.median(all_cer) if all_cer else None,
        "cer_p90": percentile(all_cer, 0.9),
        "cer_visual_median": statistics.median(all_cer_visual) if all_cer_visual else None,
        "cer_visual_p90": percentile(all_cer_visual, 0.9),
        "pages_scored": len(all_cer),
        "f1_l12_mean": mean["l12"]["f1"],
        # With --reuse-ocr only the timed document was really OCR'd: its rate is the only honest one.
        "ocr_pages_per_minute": (speed or {}).get("ocr_pages_per_minute") if args.reuse_ocr
        else (round(ocr_pages / ocr_seconds * 60, 1) if ocr_seconds else None),
        "reuse_ocr": args.reuse_ocr,
        "ocr_calls_on_originals": sum(born_calls.values()),
        "speed": speed,
    }
    result = {
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
                    "tesseract": subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
                    "pymupdf": pymupdf.VersionBind},
        "params": {"pages": args.pages, "scan_dpi": args.scan_dpi, "ocr_dpi": args.ocr_dpi, "workers": args.workers,
                   "lang": settings.ocr_lang},
        "summary": summary, "documents": per_doc, "ocr_calls_on_originals": born_calls,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n")

    print("| document | OCR pages | CER median | CER p90 | CER median (visual order) | CER p90 (visual order) "
          "| F1 (l<=2) | structure | OCR s |")
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|")
    for r in per_doc:
        print(f"| {r['doc']} | {r['ocr_pages']} | {r['cer_median']:.2%} | {r['cer_p90']:.2%} | {r['cer_visual_median']:.2%} "
              f"| {r['cer_visual_p90']:.2%} | {r['f1_l12']:.3f} | {r['structure_source']} | {r['ocr_seconds']:.1f} |")
    print(f"| **all** | {ocr_pages} | **{summary['cer_median']:.2%}** | **{summary['cer_p90']:.2%}** "
          f"| **{summary['cer_visual_median']:.2%}** | **{summary['cer_visual_p90']:.2%}** "
          f"| **{summary['f1_l12_mean']:.3f}** | | {ocr_seconds:.1f} |")
    print()
    print(f"- OCR pages per minute: {summary['ocr_pages_per_minute']}")
    print(f"- OCR calls on born-digital originals: {summary['ocr_calls_on_originals']}")
    if speed:
        print(f"- {speed['doc']} ({speed['pages']} pages): ours {speed['ours_seconds']}s vs tesseract alone "
              f"{speed['tesseract_seconds']}s = {speed['ratio']}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
