"""Structure time of this tree against another checkout's, paired: per document, the two trees run alternately in
fresh processes (base, ours, base, ours, ...), each timing plain text extraction (the floor) and the structure step
in CPU time of its own process; the minimum of each is kept. The other engineers' load moves both alike, so the
ratio ours / base is the figure to trust, and the trees must come out the same (compared as JSON).

    .venv/bin/python benchmarks/structure_speed.py --base /tmp/base-checkout [--rounds 2] PDF...

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

    c0 = time.process_time()
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
    floor = time.process_time() - c0
    with PdfSource(path) as pdf:
        for n in range(1, pdf.page_count + 1):
            pdf.text(n)
        c1 = time.process_time()
        result = recover_structure(pdf, llm_hook=lambda _pdf: ([], {"reason": "no model"}), max_leaf_pages=10)
        root_node = (build_tree(result.entries, pdf.page_count, "doc") if result.entries
                     else page_groups(pdf.page_count, "doc"))
        structure = time.process_time() - c1
    return {"floor_cpu": floor, "structure_cpu": structure, "source": result.source,
            "tree": json.dumps(root_node.to_dict(), sort_keys=True)}


def _run(root: Path, path: str) -> dict:
    proc = subprocess.run([sys.executable, __file__, "--worker", str(root), path], capture_output=True, text=True,
                          cwd="/tmp", env={**os.environ, "PYTHONPATH": ""})
    if proc.returncode != 0:
        raise RuntimeError(f"{root} on {path}: {(proc.stderr.strip().splitlines() or ['failed'])[-1]}")
    return json.loads(proc.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", help="a checkout of the tree to compare with (e.g. git archive of main)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "structure-speed"))
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("pdfs", nargs="*")
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(*args.worker)))
        return 0
    if not args.base:
        ap.error("--base is required")
    load = [os.getloadavg()]
    rows = []
    for path in args.pdfs:
        runs: dict[str, list[dict]] = {"base": [], "ours": []}
        for _ in range(args.rounds):
            runs["base"].append(_run(Path(args.base), path))
            runs["ours"].append(_run(ROOT, path))
        best = {k: {"floor": min(r["floor_cpu"] for r in v), "structure": min(r["structure_cpu"] for r in v)}
                for k, v in runs.items()}
        floor = min(best["base"]["floor"], best["ours"]["floor"])
        row = {"doc": path, "source": runs["ours"][0]["source"], "floor_cpu": floor,
               "base_cpu": best["base"]["structure"], "ours_cpu": best["ours"]["structure"],
               "base_x_floor": best["base"]["structure"] / floor, "ours_x_floor": best["ours"]["structure"] / floor,
               "ours_over_base": best["ours"]["structure"] / best["base"]["structure"],
               "same_tree": len({r["tree"] for v in runs.values() for r in v}) == 1}
        rows.append(row)
        print(f"{Path(path).name:44} {row['source']:9} floor {floor:.3f}s  x floor base {row['base_x_floor']:.2f} "
              f"ours {row['ours_x_floor']:.2f}  ours/base {row['ours_over_base']:.2f}  same tree {row['same_tree']}",
              flush=True)
    load.append(os.getloadavg())
    summary = {"docs": len(rows), "median_ours_over_base": statistics.median(r["ours_over_base"] for r in rows),
               "median_base_x_floor": statistics.median(r["base_x_floor"] for r in rows),
               "median_ours_x_floor": statistics.median(r["ours_x_floor"] for r in rows),
               "all_same_tree": all(r["same_tree"] for r in rows), "loadavg_start_end": load,
               "command": " ".join([sys.executable, *sys.argv])}
    Path(args.out + ".json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    lines = ["| document | method | floor CPU s | x floor before | x floor after | after / before | same tree |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {Path(r['doc']).name} | {r['source']} | {r['floor_cpu']:.3f} | {r['base_x_floor']:.2f} | "
              f"{r['ours_x_floor']:.2f} | {r['ours_over_base']:.2f} | {'yes' if r['same_tree'] else 'NO'} |" for r in rows]
    lines.append(f"| **median** ({len(rows)} docs) | | | {summary['median_base_x_floor']:.2f} | "
                 f"{summary['median_ours_x_floor']:.2f} | {summary['median_ours_over_base']:.2f} | "
                 f"{'all' if summary['all_same_tree'] else 'NOT all'} |")
    Path(args.out + ".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
