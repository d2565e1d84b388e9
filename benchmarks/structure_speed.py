"""Structure time of this tree against another checkout's, paired: per document, the two trees run alternately in
fresh processes (base, ours, base, ours, ...), each timing plain text extraction (the floor) and the structure step
in CPU time of its own process and in wall-clock time; the minimum of each is kept. The other engineers' load moves
both alike, so the ratio ours / base is the figure to trust, and the trees must come out the same (compared as JSON).
Documents are grouped into the structure benchmark's sets by their file names there (``X.NT.pdf``: manuals-NT,
``extra.X.B2.pdf``: X's group in corpus_extra.tsv), with the median of each set.

    .venv/bin/python benchmarks/structure_speed.py --base /tmp/base-checkout [--rounds 2] PDF...
    .venv/bin/python benchmarks/structure_speed.py --breakdown --out /tmp/breakdown PDF...   # where the time goes
    .venv/bin/python benchmarks/structure_speed.py --base DIR --in-process [--rules-only] PDF...  # both in one process

Writes benchmarks/results/structure-speed.{json,md} (or --out).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _worker(root: str, path: str) -> dict:
    """One timing of one tree on one PDF, as benchmarks/structure.py takes it (texts read, then structure)."""
    sys.path.insert(0, root)
    import pymupdf

    from parsers.pdf import PdfSource
    from parsers.ranges import build_tree, page_groups
    from parsers.structure import recover_structure

    c0, w0 = time.process_time(), time.perf_counter()
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
    floor, floor_wall = time.process_time() - c0, time.perf_counter() - w0
    with PdfSource(path) as pdf:
        for n in range(1, pdf.page_count + 1):
            pdf.text(n)
        c1, w1 = time.process_time(), time.perf_counter()
        result = recover_structure(pdf, llm_hook=lambda _pdf: ([], {"reason": "no model"}), max_leaf_pages=10)
        root_node = (build_tree(result.entries, pdf.page_count, "doc") if result.entries
                     else page_groups(pdf.page_count, "doc"))
        structure, structure_wall = time.process_time() - c1, time.perf_counter() - w1
    return {"floor_cpu": floor, "structure_cpu": structure, "floor_wall": floor_wall, "structure_wall": structure_wall,
            "source": result.source, "tree": json.dumps(root_node.to_dict(), sort_keys=True)}


def _breakdown(path: str) -> dict:
    """Where this tree's structure time goes on one PDF, in CPU seconds of this process: the floor, reading every
    page's text (``PdfSource.text``, before the structure step), the structure step split into laying out pages
    (``PdfSource.layout``, timed by a subclass) and the rest (the rules); then, replayed on the pages laid out with
    fresh TextPages, the layout's own parts: PyMuPDF's "dict" conversion (``TextPage.extractDICT``), freeing it,
    our fragments (``_fragments``) and visual lines (``merge_visual_lines``), compiled when built
    (``pdf.lines_in_use``), and the same fragments read by the compiled walk over MuPDF's structured text
    (``walk``: what extract_layout runs instead of "dict", "free" and "fragments" when it is built). ``gc``: the cycle collections run during the structure step. Min of two floors and two
    replays."""
    sys.path.insert(0, str(ROOT))
    import gc

    import pymupdf

    from parsers import pdf as pdfmod
    from parsers.structure import recover_structure

    clock = time.process_time
    spent = {"layout": 0.0}
    laid: list[int] = []

    class Timed(pdfmod.PdfSource):
        def layout(self, number: int):  # type: ignore[override]
            c = clock()
            try:
                return super().layout(number)
            finally:
                spent["layout"] += clock() - c
                laid.append(number)

    def floor() -> float:
        c = clock()
        with pymupdf.open(path) as doc:
            for page in doc:
                page.get_text()
        return clock() - c

    collecting = {"gc": 0.0, "start": 0.0}

    def timed_collection(phase: str, _info: dict) -> None:
        if phase == "start":
            collecting["start"] = time.perf_counter()
        else:
            collecting["gc"] += time.perf_counter() - collecting["start"]

    out = {"floor": min(floor(), floor())}
    with Timed(path) as pdf:
        c = clock()
        for n in range(1, pdf.page_count + 1):
            pdf.text(n)
        out["text"] = clock() - c
        gc.callbacks.append(timed_collection)
        c = clock()
        result = recover_structure(pdf, llm_hook=lambda _pdf: ([], {"reason": "no model"}), max_leaf_pages=10)
        out["structure"] = clock() - c
        gc.callbacks.remove(timed_collection)
        out["lines_in_use"] = pdfmod.lines_in_use()
        out["gc"] = collecting["gc"]  # wall time of the cycle collections run during the structure step
        out["pages"], out["source"] = pdf.page_count, result.source
    pages = sorted(set(laid))
    out["laid_out"], out["layout"], out["rules"] = len(pages), spent["layout"], out["structure"] - spent["layout"]
    parts = {"textpage": [], "dict": [], "free": [], "fragments": [], "lines": [], "walk": []}
    with pymupdf.open(path) as doc:
        for _ in range(2):
            t = dict.fromkeys(parts, 0.0)
            spans = 0
            gc.disable()  # as extract_layout does
            for n in pages:
                page = doc[n - 1]
                a = clock()
                tp = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
                b = clock()
                data = tp.extractDICT()
                c = clock()
                raw = pdfmod._page_fragments(data)  # what extract_layout runs: compiled when built
                d = clock()
                spans += sum(len(line["spans"]) for block in data["blocks"] for line in block.get("lines", ()))
                e = clock()
                del data
                f = clock()
                pdfmod._visual_lines(raw)
                g = clock()
                walked = pdfmod._walked_fragments(tp)  # the same fragments read from MuPDF's structured text
                h = clock()
                for k, v in zip(parts, (b - a, c - b, f - e, d - c, g - f, h - g if walked is not None else 0.0)):
                    t[k] += v
            gc.enable()
            for k in parts:
                parts[k].append(t[k])
    out.update({k: min(v) for k, v in parts.items()}, spans=spans)
    return out


def _set_of(path: str, groups: dict[str, str]) -> str:
    """The structure benchmark's set a variant file belongs to, from its name (see the module docstring)."""
    name = Path(path).name
    parts = name.split(".")
    if len(parts) == 4 and parts[0] == "extra":
        return f"{groups.get(parts[1], 'extra')}-{parts[2]}"
    if len(parts) == 3:
        return f"manuals-{parts[1]}"
    return "other"


def _extra_groups() -> dict[str, str]:
    sys.path.insert(0, str(ROOT))
    from benchmarks.structure import _extra_groups as groups  # stdlib-only module: the benchmark's own set names

    return groups()


def _fresh(what: str, *worker: str) -> dict:
    """This script's worker mode in a fresh process (cwd /tmp, no PYTHONPATH: each tree imports only itself)."""
    proc = subprocess.run([sys.executable, __file__, *worker], capture_output=True, text=True,
                          cwd="/tmp", env={**os.environ, "PYTHONPATH": ""})
    if proc.returncode != 0:
        raise RuntimeError(f"{what}: {(proc.stderr.strip().splitlines() or ['failed'])[-1]}")
    return json.loads(proc.stdout)


def _run(root: Path, path: str) -> dict:
    return _fresh(f"{root} on {path}", "--worker", str(root), path)


def _load_tree(root: str) -> dict:
    """One checkout's parsers imported under their own names, then forgotten by ``sys.modules`` so that the next
    checkout imports its own: each set of functions keeps its module's globals, so two trees run side by side."""
    import importlib

    for name in [m for m in sys.modules if m.split(".")[0] in ("parsers", "index_store")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        mods = {n: importlib.import_module(f"parsers.{n}") for n in ("pdf", "structure", "ranges")}
    finally:
        sys.path.remove(root)
    if not mods["structure"].__file__.startswith(str(Path(root).resolve())):
        raise RuntimeError(f"{root}: parsers imported from {mods['structure'].__file__}")
    return mods


def _in_process(args: argparse.Namespace) -> int:
    """``--in-process``: both trees in this one process, run alternately on each PDF (base, ours, base, ...), CPU time
    of the structure step, min of ``--rounds``; with ``--rules-only`` every page is laid out first (untimed), so only
    the rules are timed. Alternating in one process puts both under the same load within a second of each other
    (fresh processes meet the other engineers' load at different moments: single runs move 20-40 %)."""
    import pymupdf

    trees = {"base": _load_tree(str(Path(args.base).resolve())), "ours": _load_tree(str(ROOT))}
    load, rows = [os.getloadavg()], []
    for path in [str(Path(p).resolve()) for p in args.pdfs]:
        best = {"base": float("inf"), "ours": float("inf"), "floor": float("inf")}
        shapes: dict[str, set] = {"base": set(), "ours": set()}
        source = ""
        for _ in range(args.rounds):
            c = time.process_time()
            with pymupdf.open(path) as doc:
                for page in doc:
                    page.get_text()
            best["floor"] = min(best["floor"], time.process_time() - c)
            for k, m in trees.items():
                with m["pdf"].PdfSource(path) as pdf:
                    for n in range(1, pdf.page_count + 1):
                        pdf.text(n)
                    if args.rules_only:
                        for n in range(1, pdf.page_count + 1):
                            pdf.layout(n)
                    c = time.process_time()
                    result = m["structure"].recover_structure(pdf, llm_hook=lambda _pdf: ([], {"reason": "no model"}),
                                                              max_leaf_pages=10)
                    best[k] = min(best[k], time.process_time() - c)
                    r = m["ranges"]
                    root = (r.build_tree(result.entries, pdf.page_count, "doc") if result.entries
                            else r.page_groups(pdf.page_count, "doc"))
                    shapes[k].add(json.dumps(root.to_dict(), sort_keys=True))
                    source = result.source
        row = {"doc": path, "source": source, "floor_cpu": best["floor"], "base_cpu": best["base"],
               "ours_cpu": best["ours"], "base_x_floor": best["base"] / best["floor"],
               "ours_x_floor": best["ours"] / best["floor"], "ours_over_base": best["ours"] / best["base"],
               "same_tree": len(shapes["base"] | shapes["ours"]) == 1}
        rows.append(row)
        print(f"| {Path(path).name} | {source} | {best['floor']:.3f} | {row['base_x_floor']:.2f} | "
              f"{row['ours_x_floor']:.2f} | {row['ours_over_base']:.2f} | {'yes' if row['same_tree'] else 'NO'} |",
              flush=True)
    load.append(os.getloadavg())
    summary = {"docs": len(rows), "rules_only": args.rules_only, "loadavg_start_end": load,
               "median_ours_over_base": statistics.median(r["ours_over_base"] for r in rows) if rows else None,
               "all_same_tree": all(r["same_tree"] for r in rows)}
    Path(args.out + ".json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    print(json.dumps(summary))
    return 0


def _breakdown_table(args: argparse.Namespace) -> int:
    load = [os.getloadavg()]
    groups = _extra_groups()
    rows = []
    cols = ("text", "structure", "layout", "textpage", "dict", "free", "fragments", "lines", "walk", "rules", "gc")
    head = ("| document | set | method | pages (laid out) | spans | floor CPU s | "
            + " | ".join(f"{c} x floor" for c in cols) + " |")
    print(head, flush=True)
    for path in [str(Path(p).resolve()) for p in args.pdfs]:
        row = {"doc": path, "set": _set_of(path, groups), **_fresh(path, "--breakdown-worker", path)}
        rows.append(row)
        print(f"| {Path(path).name} | {row['set']} | {row['source']} | {row['pages']} ({row['laid_out']}) | "
              f"{row['spans']} | {row['floor']:.3f} | " + " | ".join(f"{row[c] / row['floor']:.2f}" for c in cols)
              + " |", flush=True)
    load.append(os.getloadavg())
    Path(args.out + ".json").write_text(json.dumps({"loadavg_start_end": load, "rows": rows}, indent=1))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="a checkout of the tree to compare with (e.g. git archive of main)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "structure-speed"))
    ap.add_argument("--breakdown", action="store_true",
                    help="where this tree's structure time goes, per PDF (no --base; one fresh process per PDF)")
    ap.add_argument("--in-process", action="store_true",
                    help="with --base: both trees alternately in this one process (the same load for both)")
    ap.add_argument("--rules-only", action="store_true",
                    help="with --in-process: every page laid out first, untimed; only the rules are timed")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--breakdown-worker", help=argparse.SUPPRESS)
    ap.add_argument("pdfs", nargs="*")
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(*args.worker)))
        return 0
    if args.breakdown_worker:
        print(json.dumps(_breakdown(args.breakdown_worker)))
        return 0
    if args.breakdown:
        return _breakdown_table(args)
    if not args.base:
        ap.error("--base is required")
    if args.in_process:
        return _in_process(args)
    load = [os.getloadavg()]
    rows = []
    groups = _extra_groups()
    for path in [str(Path(p).resolve()) for p in args.pdfs]:  # the workers run in /tmp
        runs: dict[str, list[dict]] = {"base": [], "ours": []}
        for _ in range(args.rounds):
            runs["base"].append(_run(Path(args.base), path))
            runs["ours"].append(_run(ROOT, path))
        best = {k: {"floor": min(r["floor_cpu"] for r in v), "structure": min(r["structure_cpu"] for r in v),
                    "floor_wall": min(r["floor_wall"] for r in v), "wall": min(r["structure_wall"] for r in v)}
                for k, v in runs.items()}
        floor = min(best["base"]["floor"], best["ours"]["floor"])
        floor_wall = min(best["base"]["floor_wall"], best["ours"]["floor_wall"])
        row = {"doc": path, "set": _set_of(path, groups), "source": runs["ours"][0]["source"], "floor_cpu": floor,
               "base_cpu": best["base"]["structure"], "ours_cpu": best["ours"]["structure"],
               "base_x_floor": best["base"]["structure"] / floor, "ours_x_floor": best["ours"]["structure"] / floor,
               "ours_over_base": best["ours"]["structure"] / best["base"]["structure"],
               "floor_wall": floor_wall, "base_x_floor_wall": best["base"]["wall"] / floor_wall,
               "ours_x_floor_wall": best["ours"]["wall"] / floor_wall,
               "same_tree": len({r["tree"] for v in runs.values() for r in v}) == 1}
        rows.append(row)
        print(f"{Path(path).name:44} {row['source']:9} floor {floor:.3f}s  x floor base {row['base_x_floor']:.2f} "
              f"ours {row['ours_x_floor']:.2f}  ours/base {row['ours_over_base']:.2f}  wall base "
              f"{row['base_x_floor_wall']:.2f} ours {row['ours_x_floor_wall']:.2f}  same tree {row['same_tree']}",
              flush=True)
    load.append(os.getloadavg())
    summary = {"docs": len(rows), "median_ours_over_base": statistics.median(r["ours_over_base"] for r in rows),
               "median_base_x_floor": statistics.median(r["base_x_floor"] for r in rows),
               "median_ours_x_floor": statistics.median(r["ours_x_floor"] for r in rows),
               "all_same_tree": all(r["same_tree"] for r in rows), "loadavg_start_end": load,
               "command": " ".join([sys.executable, *sys.argv])}
    sets = {}
    for name in dict.fromkeys(r["set"] for r in rows):
        mine = [r for r in rows if r["set"] == name]
        sets[name] = {"docs": len(mine), **{k: statistics.median(r[k] for r in mine) for k in
                      ("base_x_floor", "ours_x_floor", "base_x_floor_wall", "ours_x_floor_wall", "ours_over_base")},
                      "all_same_tree": all(r["same_tree"] for r in mine)}
    summary["sets"] = sets
    Path(args.out + ".json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    lines = ["| document | method | floor CPU s | x floor before | x floor after | after / before | same tree |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {Path(r['doc']).name} | {r['source']} | {r['floor_cpu']:.3f} | {r['base_x_floor']:.2f} | "
              f"{r['ours_x_floor']:.2f} | {r['ours_over_base']:.2f} | {'yes' if r['same_tree'] else 'NO'} |" for r in rows]
    lines.append(f"| **median** ({len(rows)} docs) | | | {summary['median_base_x_floor']:.2f} | "
                 f"{summary['median_ours_x_floor']:.2f} | {summary['median_ours_over_base']:.2f} | "
                 f"{'all' if summary['all_same_tree'] else 'NOT all'} |")
    lines += ["", "| set | docs | x floor CPU before | after | x floor wall before | after | after / before CPU | "
              "same tree |", "|---|---|---|---|---|---|---|---|"]
    lines += [f"| {name} | {s['docs']} | {s['base_x_floor']:.2f} | {s['ours_x_floor']:.2f} | "
              f"{s['base_x_floor_wall']:.2f} | {s['ours_x_floor_wall']:.2f} | {s['ours_over_base']:.2f} | "
              f"{'all' if s['all_same_tree'] else 'NOT all'} |" for name, s in sets.items()]
    Path(args.out + ".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
