"""EDGAR filings printed to PDF: Item detection and length agreement through the PDF chain.

Filing PDFs mostly come from a browser printing the filer's HTML: page breaks kept, the contents' links become
link annotations, no outline. This prints the 30 filings of ``../shared/corpus/edgar`` that way with headless
Chromium (``make``: into the git-ignored ``benchmarks/.work/edgar-pdf/``, skipped when already there) and scores
the PDF chain's Items with the metric of that corpus' README, through ``benchmarks/filings_html.py``'s scorer,
beside the same filings through the HTML path (same run) and beside the FinanceBench filings with bookmarks
(bookmarks removed; ``benchmarks/structure.py``'s scoring, F1 at levels <= 2, plus Item F1 against the Items
their bookmarks name): real filing PDFs, not printed by us, the check that nothing regressed there.

    .venv/bin/python benchmarks/filings_pdf.py make
    .venv/bin/python benchmarks/filings_pdf.py [--filings T1,T2] [--no-html] [--no-financebench]
    .venv/bin/python benchmarks/filings_pdf.py exhibits      # long exhibits of FinanceBench filings (benchmarks/exhibits.py)
    .venv/bin/python benchmarks/filings_pdf.py labels        # share of filing pages with a printed label, per filing
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks import filings_html as fh  # noqa: E402
from parsers import filing_anatomy as fa  # noqa: E402

WORK = HERE / ".work"
SETS = {"dev": (HERE.parent.parent / "shared" / "corpus" / "edgar", WORK / "edgar-pdf")}
CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer"]
NOTES = {
    "dev": "The 30 development filings of ../shared/corpus/edgar printed to PDF: the PDF chain's filing rules were "
           "written and checked against them, so they are not a measure on unseen filings.",
    "financebench": "FinanceBench 10-K/10-Qs with bookmarks, outline removed: the no-regression check (the filing rules "
                    "were written on the printed development set; three of these, ADOBE_2015, JPMORGAN_2022Q2 and NIKE_2023, "
                    "were read to find why a rule regressed them). Item F1: the Items named by the bookmarks against ours.",
}


def pdf_path(f: dict, out_dir: Path) -> Path:
    return out_dir / f"{f['form']}-{f['ticker']}-{f['path'].parent.name}.pdf"


def make_pdfs(corpus: Path, out_dir: Path, only: set[str] | None) -> None:
    """Print each filing's primary document with headless Chromium (about 2-4 s a filing)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pagetree-print-") as tmp:
        for f in fh.filings(corpus, only):
            dst = pdf_path(f, out_dir)
            if dst.exists():
                continue
            html = Path(tmp) / f"{f['form']}-{f['ticker']}.html"
            html.write_bytes(gzip.decompress(f["path"].read_bytes()))
            subprocess.run(CHROMIUM + [f"--print-to-pdf={dst}", html.as_uri()], check=True, timeout=300,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(f"printed {dst.name}", flush=True)


def run_pdf(f: dict, pdf: Path) -> dict:
    from parsers.pipeline import PipelineSettings, index_document

    t0 = time.perf_counter()
    index = index_document(pdf, f"{f['ticker']}-{f['form']}".lower(), PipelineSettings())
    total = time.perf_counter() - t0
    res = fh.score(f["items"], fh.ours_predictions(index, f["form"]))
    seconds = index.stats["seconds"]
    res.update({"seconds": total, "seconds_text": seconds["text"], "seconds_structure": seconds["structure"],
                "pages": index.stats["pages"], "nodes": index.stats["nodes"],
                "model_calls": (index.stats.get("model") or {}).get("calls", 0),
                "source": index.decisions["structure"].get("source")})
    return res


def financebench_rows(folder: Path) -> list[dict]:
    """The FinanceBench 10-K/10-Qs with bookmarks, outline removed, scored as benchmarks/structure.py does."""
    from benchmarks.metric import make_variant, score, truth_from_pdf
    from benchmarks.structure import _ours

    work = WORK / "structure"
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    for src in sorted(folder.glob("*.pdf")):
        truth = truth_from_pdf(src)
        if not truth or "EARNINGS" in src.stem.upper():
            continue
        dst = work / f"{src.stem}.B1.pdf"
        if not dst.exists():
            make_variant(src, dst, "B1")
        ours = _ours(dst, 10)
        s = score(truth, ours["pred"])
        form = fa.FORM_10Q if "10Q" in src.stem.upper() else fa.FORM_10K
        expected, got = item_ids(truth, form), item_ids(ours["pred"], form)
        tp = len(expected & got)
        item_f1 = 2 * tp / (len(expected) + len(got)) if expected or got else 1.0
        rows.append({"doc": src.stem, "f1_l12": s["l12"]["f1"], "f1_all": s["all"]["f1"], "source": ours["source"],
                     "item_f1": item_f1, "items_missed": sorted(expected - got), "items_extra": sorted(got - expected),
                     "ratio_to_text": ours["structure_seconds"] / ours["text_seconds"] if ours["text_seconds"] else None,
                     "model_calls": ours["model_calls"]})
        print(f"financebench {src.stem:40s} F1(l<=2) {s['l12']['f1']:.3f} Items {item_f1:.3f} ({ours['source']}) "
              f"missed {sorted(expected - got)} extra {sorted(got - expected)}", flush=True)
    return rows


def item_ids(triples: list, form: str) -> set[str]:
    """Item ids (``item1a``, ``part2item1``) of an outline's (level, title, page) triples, in order."""
    out, part = set(), None
    for _, title, _ in triples:
        part = fa.parse_part(title) or part
        ref = fa.parse_item(title)
        if ref and (form == fa.FORM_10K or part):
            out.add(fa.item_id(form, part or "I", ref.numbers[0]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", nargs="?", choices=("score", "make", "exhibits", "labels"), default="score")
    ap.add_argument("--filings", default="", help="comma-separated tickers")
    ap.add_argument("--no-html", action="store_true", help="skip the HTML path's figures")
    ap.add_argument("--no-financebench", action="store_true", help="skip the FinanceBench filings")
    ap.add_argument("--financebench", default="/work/shared/corpus/financebench/pdfs")
    ap.add_argument("--out", default="")
    args = ap.parse_args(argv)
    if args.action == "exhibits":
        return exhibits_section(argv)
    if args.action == "labels":
        return labels_section(argv, Path(args.financebench))
    corpus, pdf_dir = SETS["dev"]
    only = set(args.filings.split(",")) if args.filings else None
    make_pdfs(corpus, pdf_dir, only)
    if args.action == "make":
        return 0
    rows = []
    with tempfile.TemporaryDirectory(prefix="pagetree-edgar-") as tmp:
        for f in fh.filings(corpus, only):
            row = {"form": f["form"], "ticker": f["ticker"]}
            try:
                row["pdf"] = run_pdf(f, pdf_path(f, pdf_dir))
            except Exception as exc:  # a filing that fails to index scores 0
                row["pdf"] = {"f1": 0.0, "length": 0.0, "seconds": 0.0, "error": f"{type(exc).__name__}: {exc}"}
            if not args.no_html:
                try:
                    row["html"] = fh.run_ours(f, Path(tmp))
                except Exception as exc:
                    row["html"] = {"f1": 0.0, "length": 0.0, "seconds": 0.0, "error": f"{type(exc).__name__}: {exc}"}
            o = row["pdf"]
            print(f"{f['form']} {f['ticker']:<5} pdf F1 {o['f1']:.3f} len {o['length']:.2f} {o['seconds']:.1f}s "
                  f"missed {o.get('missed')} extra {o.get('extra')}"
                  + (f" | html F1 {row['html']['f1']:.3f} len {row['html']['length']:.2f}" if "html" in row else ""),
                  flush=True)
            rows.append(row)
    fb = [] if args.no_financebench or not Path(args.financebench).is_dir() else financebench_rows(Path(args.financebench))
    pdfs = [r["pdf"] for r in rows]
    ratios = [o["seconds_structure"] / o["seconds_text"] for o in pdfs if o.get("seconds_text")]
    summary = {"pdf": fh.summarise(rows, "pdf"), "html": fh.summarise(rows, "html"),
               "pdf_10k": fh.summarise([r for r in rows if r["form"] == "10-K"], "pdf"),
               "pdf_10q": fh.summarise([r for r in rows if r["form"] == "10-Q"], "pdf"),
               "structure_over_text_median": statistics.median(ratios) if ratios else None,
               "model_calls": sum(o.get("model_calls", 0) for o in pdfs)}
    if fb:
        summary["financebench"] = {"filings": len(fb), "f1_l12": statistics.mean(r["f1_l12"] for r in fb),
                                   "item_f1": statistics.mean(r["item_f1"] for r in fb),
                                   "item_perfect": sum(r["item_f1"] == 1.0 for r in fb) / len(fb),
                                   "f1_all": statistics.mean(r["f1_all"] for r in fb),
                                   "model_calls": sum(r["model_calls"] for r in fb)}
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    command = " ".join([Path(sys.argv[0]).name] + (argv if argv is not None else sys.argv[1:]))
    worst = sorted(rows, key=lambda r: (r["pdf"]["f1"], r["pdf"]["length"]))[:8]
    report = {"command": command, "date": date,
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
                          "load": load},
              "summary": summary, "filings": rows, "financebench": fb}
    name = "filings_pdf"
    out = Path(args.out) if args.out else HERE / "results" / f"{name}.json"
    out.write_text(json.dumps(report, indent=1, default=str))
    md = [f"# {name} ({date}; load {load[0]:.1f} on {os.cpu_count()} cpus)", "", f"`{command}`", "", NOTES["dev"], "",
          "| path | filings | macro F1 | F1 = 1.0 | length agreement | s/filing |", "|---|---|---|---|---|---|"]
    for label, key in (("PDF (printed)", "pdf"), ("PDF 10-K", "pdf_10k"), ("PDF 10-Q", "pdf_10q"), ("HTML path", "html")):
        s = summary.get(key)
        if s:
            md.append(f"| {label} | {s['filings']} | {s['f1']:.3f} | {s['perfect']:.0%} | {s['length']:.3f} | {s['seconds']:.2f} |")
    if summary["structure_over_text_median"] is not None:
        md += ["", f"- PDF structure time / text extraction (median per filing, same run): "
                   f"{summary['structure_over_text_median']:.2f}x; model calls: {summary['model_calls']}"]
    if fb:
        s = summary["financebench"]
        md.append(f"- {NOTES['financebench']} {s['filings']} filings: F1 levels <= 2 {s['f1_l12']:.3f}, all levels "
                  f"{s['f1_all']:.3f}; Item F1 {s['item_f1']:.3f}, {s['item_perfect']:.0%} perfect; model calls {s['model_calls']}")
        md += [f"  - {r['doc']}: F1 levels <= 2 {r['f1_l12']:.3f}, Items {r['item_f1']:.3f} ({r['source']}), missed "
               f"{r['items_missed']}, extra {r['items_extra']}" for r in fb]
    md += ["", "Worst (PDF):", ""]
    md += [f"- {r['form']} {r['ticker']}: F1 {r['pdf']['f1']:.3f}, length {r['pdf']['length']:.2f}, missed "
           f"{r['pdf'].get('missed')}, extra {r['pdf'].get('extra')}" + (f", error {r['pdf']['error']}" if r['pdf'].get('error') else "")
           for r in worst]
    _write_section(out.with_suffix(".md"), md)
    print("\n".join(md))
    return 0


def _write_section(path: Path, md: list[str]) -> None:
    """The new section first, the older ones kept below it."""
    old = path.read_text() if path.exists() else ""
    path.write_text("\n".join(md) + "\n" + ("\n" + old if old else ""))


def exhibits_section(argv: list[str] | None) -> int:
    from benchmarks import exhibits

    out = WORK / "exhibits.json"
    report, table = exhibits.run(out)
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    command = " ".join([Path(sys.argv[0]).name] + (argv if argv is not None else sys.argv[1:]))
    md = [f"# filings_pdf exhibits ({date}; load {load[0]:.1f} on {os.cpu_count()} cpus)", "", f"`{command}`", "",
          exhibits.__doc__.split("\n\n")[1].replace("\n", " "), "", f"Tuning half: {', '.join(exhibits.TUNING)}. "
          f"Held-out half (only run to report): {', '.join(exhibits.HELDOUT)}.", ""] + table + \
         ["", f"- {report['seconds']:.0f} s for the structure of all {len({e['doc'] for e in report['evidence']})} "
              f"FinanceBench PDFs with questions and the 14 filings; per-page rows in benchmarks/.work/exhibits.json."]
    _write_section(HERE / "results" / "filings_pdf.md", md)
    print("\n".join(md))
    return 0


def labels_section(argv: list[str] | None, folder: Path) -> int:
    """Per FinanceBench 10-K/10-Q without /PageLabels: the share of pages whose ``label`` is a printed folio, and
    the pages left without one whose first or last lines still end in a number (folios present but not read)."""
    import re

    from parsers.offsets import printed_labels
    from parsers.pdf import PdfSource

    rows = []
    for pdf in sorted(folder.glob("*.pdf")):
        if not re.search(r"10K|10Q", pdf.stem, re.I):
            continue
        with PdfSource(str(pdf)) as src:
            labels = src.labels()
            texts = [src.text(n) for n in range(1, src.page_count + 1)]
        if any(labels):
            continue  # /PageLabels: the PDF's own labels are used as they are
        got = printed_labels(labels, texts)
        unread = sum(1 for t, lab in zip(texts, got) if lab is None and _numbered_edge(t))
        rows.append({"doc": pdf.stem, "pages": len(texts), "labelled": sum(1 for x in got if x), "unread": unread})
    date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()
    command = " ".join([Path(sys.argv[0]).name] + (argv if argv is not None else sys.argv[1:]))
    pages, labelled = sum(r["pages"] for r in rows), sum(r["labelled"] for r in rows)
    md = [f"# filings_pdf labels ({date}; load {load[0]:.1f} on {os.cpu_count()} cpus)", "", f"`{command}`", "",
          f"FinanceBench 10-K/10-Qs without /PageLabels ({len(rows)} filings, {pages} pages): pages whose `label` is "
          f"the folio printed on them {labelled} ({labelled / pages:.1%}). 'Unread': pages without a label whose first "
          "or last two lines carry a short line with a number (a folio not read, or an exhibit's label, a date).", "",
          "| filing | pages | labelled | unread |", "|---|---|---|---|"]
    md += [f"| {r['doc']} | {r['pages']} | {r['labelled'] / r['pages']:.0%} | {r['unread']} |" for r in rows]
    _write_section(HERE / "results" / "filings_pdf.md", md)
    print("\n".join(md))
    return 0


def _numbered_edge(text: str) -> bool:
    import re

    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return any(len(ln) <= 40 and re.search(r"(?:^|\s|-)(?:\d{1,3}|[A-Z]-\d{1,3})(?:\s|$)", ln) for ln in lines[:2] + lines[-2:])


if __name__ == "__main__":
    sys.exit(main())
