"""Item detection on held-out kinds of filings, built from the development filings by rewriting their HTML.

No unseen filing can be fetched here, so the 30 filings of ``../shared/corpus/edgar`` are rewritten with lxml
(``benchmarks/filing_rewrite.py``, independent of ``parsers/``) into the layouts issue 15 names: no "PART I"
lines, a misplaced "PART II", contents without links or without contents, a GE-style cross-reference index
at the back with captions only in the body, "ITEM 1A RISK FACTORS" without a period, Items in table cells,
combined Items. The Items' text does not change, so each filing's ``expected-items.json`` scores every
variant with the metric of ``benchmarks/filings_html.py`` (``combined_items`` merges the expectations of
the Items it combines). Peers in the same table: edgartools and sec-parser (10-Q only), on the same bytes.

The filings are split into two fixed halves by ticker (alphabetical, a company's 10-K and 10-Q together):
rules are tuned on half A only; half B is reported as held out.

    python benchmarks/filings_variants.py [--variants no_parts,xref_pages] [--only ours] [--filings HD,MCD]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import filing_rewrite as fr  # noqa: E402
from filings_html import filings, run_edgartools, run_sec_parser, score, text_chars  # noqa: E402
from parsers import filing_anatomy as fa  # noqa: E402
from parsers.pipeline import index_document  # noqa: E402

HALF_A = ("ABBV", "ADBE", "F", "GD", "GM", "HD", "MA", "MCD")  # tuning; the other eight tickers are held out
CACHE = HERE / ".work" / "variants"
SECTION = "## Held-out kinds: the development filings rewritten (filings_variants.py)"


def half(ticker: str) -> str:
    return "A" if ticker in HALF_A else "B"


def predictions(index, form: str) -> dict[str, int]:
    """Item id -> section text characters, from the tree; a combined heading ("Items 3 and 4") names each of
    its Items (the first gets the section's length, the others count as found)."""
    own = {r.node_id: r.text for r in index.nodes}
    out: dict[str, int] = {}

    def visit(node, part: str | None) -> None:
        for child in node.nodes:
            p = fa.parse_part(child.title) or part
            ref = fa.parse_item(child.title)
            if ref and child.extra.get("kind") != "page_group" and not (form == fa.FORM_10Q and not part):
                n = sum(text_chars(own.get(x.node_id, "")) for x in child.walk())
                for k, number in enumerate(ref.numbers):
                    out.setdefault(fa.item_id(form, part or "I", number), n if k == 0 else 1)
            visit(child, p)

    visit(index.tree.root, None)
    return out


def run_ours(path: Path, form: str, expected: list[dict], doc_id: str) -> dict:
    t0 = time.perf_counter()
    index = index_document(path, doc_id)
    res = score(expected, predictions(index, form))
    filing = index.decisions["structure"].get("filing", {})
    res.update({"seconds": time.perf_counter() - t0, "mode": filing.get("mode"), "sources": filing.get("item_sources")})
    return res


def _peer(name: str, f: dict, variant: str, path: Path, expected: list[dict], cached_only: bool) -> dict | None:
    """A peer's result on the variant's bytes, cached: the peers do not change between our runs."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]  # of the variant's bytes: a rewrite change re-runs
    key = CACHE / "peers" / variant / f"{f['form']}-{f['ticker']}-{name}-{digest}.json"
    if key.exists():
        return json.loads(key.read_text())
    if cached_only:
        return None
    fn = {"edgartools": run_edgartools, "sec_parser": run_sec_parser}[name]
    try:
        res = fn({**f, "path": path, "items": expected})
    except Exception as exc:  # a filing a peer cannot read scores 0
        res = {"f1": 0.0, "length": 0.0, "seconds": 0.0, "error": f"{type(exc).__name__}: {exc}"[:200]}
    key.parent.mkdir(parents=True, exist_ok=True)
    key.write_text(json.dumps(res))
    return res


def variant_file(f: dict, variant: str, tmp: Path) -> tuple[Path, list[dict], dict]:
    """The variant's HTML (gzipped, as the peers read the corpus), its expectations, what was changed."""
    data = gzip.decompress(f["path"].read_bytes())
    out, info = fr.make_variant(data, f["form"], variant)
    expected = fr.combined_expectations(f["items"], info.get("combined", []), variant == "combined_items") \
        if info.get("combined") else f["items"]
    path = tmp / variant / f"{f['form']}-{f['ticker']}.html.gz"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(gzip.compress(out, compresslevel=1, mtime=0))
    return path, expected, info


def refill_peers(rows: list[dict], corpus_filings: list[dict], tmp: Path) -> None:
    """The peers' cached results for the rows of an earlier run (rows follow the corpus order per variant)."""
    by_variant: dict[str, list[dict]] = {}
    for r in rows:
        by_variant.setdefault(r["variant"], []).append(r)
    for variant, vrows in by_variant.items():
        if not (CACHE / "peers" / variant).is_dir():
            continue
        for r, f in zip(vrows, corpus_filings):
            assert (r["form"], r["ticker"]) == (f["form"], f["ticker"])
            if not list((CACHE / "peers" / variant).glob(f"{f['form']}-{f['ticker']}-*.json")):
                continue
            path, expected, _ = variant_file(f, variant, tmp)
            for name in ("edgartools", "sec_parser"):
                res = _peer(name, f, variant, path, expected, True)
                if res is not None:
                    r[name] = res


def summarise(rows: list[dict], key: str) -> dict | None:
    got = [r[key] for r in rows if r.get(key)]
    if not got:
        return None
    return {"filings": len(got), "f1": statistics.mean(g["f1"] for g in got),
            "perfect": sum(g["f1"] == 1.0 for g in got) / len(got), "length": statistics.mean(g["length"] for g in got)}


def _cell(s: dict | None, n: int | None = None) -> str:
    """F1 / perfect / length; a peer measured on fewer filings than ours says on how many."""
    if not s:
        return "-"
    return f"{s['f1']:.3f} / {s['perfect']:.0%} / {s['length']:.3f}" + (f" (on {s['filings']})" if n and s["filings"] != n else "")


def markdown(report: dict) -> str:
    lines = [SECTION, "", f"{report['date']}; `uptime` load {report['load']}; `{report['command']}`", "",
             "Each development filing rewritten with lxml into a layout we have not seen "
             "(`benchmarks/filing_rewrite.py`, which finds the contents, Item and Part lines with its own "
             "patterns, not with `parsers/`), scored against the same `expected-items.json`. Split by ticker: "
             f"half A (tuning) = {', '.join(HALF_A)}; half B (held out) = the other eight. "
             "Cells: macro F1 / share of filings with F1 = 1.0 / length agreement. sec-parser reads 10-Qs only.", "",
             "| variant | half | filings | pagetree | edgartools | sec-parser (10-Q) |", "|---|---|---|---|---|---|"]
    for variant, halves in report["summary"].items():
        for h in ("A", "B", "all"):
            s = halves[h]
            if s["ours"]:
                n = s["ours"]["filings"]
                q = sum(1 for r in report["rows"] if r["variant"] == variant and r["form"] == "10-Q"
                        and (h == "all" or half(r["ticker"]) == h))
                lines.append(f"| {variant} | {h} | {n} | {_cell(s['ours'])} | {_cell(s['edgartools'], n)} "
                             f"| {_cell(s['sec_parser'], q)} |")
    worst = [r for r in report["rows"] if r["ours"]["f1"] < 1.0 or r["ours"]["length"] < 0.75]
    if worst:
        lines += ["", "Our filings below F1 1.0 or length 0.75, per variant:", ""]
        lines += [f"- {r['variant']} {r['form']} {r['ticker']} ({half(r['ticker'])}): F1 {r['ours']['f1']:.3f}, length "
                  f"{r['ours']['length']:.2f}, missed {r['ours'].get('missed')}, extra {r['ours'].get('extra')}, "
                  f"mode {r['ours'].get('mode')}" + (f", error {r['ours']['error']}" if r["ours"].get("error") else "")
                  for r in worst]
    return "\n".join(lines) + "\n"


def write_section(md_path: Path, section: str) -> None:
    """Replace this benchmark's section of filings_html.md (or append it), keeping every other section."""
    text = md_path.read_text() if md_path.exists() else ""
    at = text.find(SECTION)
    if at >= 0:
        nxt = text.find("\n## ", at + len(SECTION))
        text = text[:at] + section + (text[nxt + 1:] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    md_path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(HERE.parent.parent / "shared" / "corpus" / "edgar"))
    ap.add_argument("--filings", default="", help="comma-separated tickers")
    ap.add_argument("--variants", default=",".join(fr.VARIANTS))
    ap.add_argument("--only", choices=("ours", "all", "peers"), default="all")
    ap.add_argument("--cached-peers", action="store_true",
                    help="report the peers' results of an earlier --only peers run, run no peer now")
    ap.add_argument("--report-from", default="",
                    help="rebuild the report from an earlier run's JSON (ours) and the peers' results cached since")
    ap.add_argument("--out", default=str(HERE / "results" / "filings_variants.json"))
    args = ap.parse_args(argv)
    only = set(args.filings.split(",")) if args.filings else None
    variants = [v for v in args.variants.split(",") if v]
    rows = []
    if args.report_from:
        earlier = json.loads(Path(args.report_from).read_text())
        rows = earlier["rows"]
        with tempfile.TemporaryDirectory(prefix="pagetree-variants-") as tmp:
            refill_peers(rows, filings(Path(args.corpus), only), Path(tmp))
        variants = list(dict.fromkeys(r["variant"] for r in rows))
        argv = (argv if argv is not None else sys.argv[1:]) + ["(ours: " + earlier["command"] + ", " + earlier["date"]
                                                                  + ", load " + earlier["load"] + ")"]
    with tempfile.TemporaryDirectory(prefix="pagetree-variants-") as tmp:
        for variant in variants if not args.report_from else []:
            for f in filings(Path(args.corpus), only):
                path, expected, info = variant_file(f, variant, Path(tmp))
                row = {"variant": variant, "form": f["form"], "ticker": f["ticker"], "changed": info.get("changed"),
                       "located": len(info["located"])}
                if args.only != "peers":
                    plain = path.with_suffix("")  # ours reads the HTML itself
                    plain.write_bytes(gzip.decompress(path.read_bytes()))
                    try:
                        row["ours"] = run_ours(plain, f["form"], expected, f"{f['ticker']}-{f['form']}".lower())
                    except Exception as exc:  # a filing that fails to index scores 0
                        row["ours"] = {"f1": 0.0, "length": 0.0, "error": f"{type(exc).__name__}: {exc}"[:200]}
                else:
                    row["ours"] = {"f1": 0.0, "length": 0.0}
                if args.only != "ours":
                    for name in ("edgartools", "sec_parser"):
                        res = _peer(name, f, variant, path, expected, args.cached_peers)
                        if res is not None:
                            row[name] = res
                o = row["ours"]
                print(f"{variant:<15} {f['form']} {f['ticker']:<5} changed {row['changed']} ours F1 {o['f1']:.3f} len "
                      f"{o['length']:.2f} missed {o.get('missed')} extra {o.get('extra')} {o.get('mode')}"
                      + "".join(f" | {k} F1 {row[k]['f1']:.3f} len {row[k]['length']:.2f}"
                                for k in ("edgartools", "sec_parser") if k in row), flush=True)
                rows.append(row)
    summary = {}
    for variant in variants:
        vrows = [r for r in rows if r["variant"] == variant]
        summary[variant] = {}
        for h, sel in (("A", [r for r in vrows if half(r["ticker"]) == "A"]),
                       ("B", [r for r in vrows if half(r["ticker"]) == "B"]), ("all", vrows)):
            summary[variant][h] = {k: summarise(sel, k) for k in ("ours", "edgartools", "sec_parser")}
    report = {"command": " ".join(["filings_variants.py"] + (argv if argv is not None else sys.argv[1:])),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "load": " ".join(f"{x:.1f}" for x in os.getloadavg()), "cpus": os.cpu_count(),
              "half_a": HALF_A, "summary": summary, "rows": rows}
    if args.only != "peers":
        Path(args.out).write_text(json.dumps(report, indent=1, default=str))
        md = markdown(report)
        Path(args.out).with_suffix(".md").write_text(md)
        if not only:
            write_section(HERE / "results" / "filings_html.md", md)
        print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
