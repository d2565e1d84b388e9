"""Where an HTML filing's indexing time goes: each stage's CPU time over lxml's own parse of the same bytes.

On the 5 largest and 5 median filings of ``../shared/corpus/edgar`` (by size), each stage of
``parsers.markup_pipeline.index_markup`` is run on its own, in order, ``--repeat`` times interleaved with lxml's
parse, and each figure is its minimum CPU time (process_time: the other engineers' load on this machine only
adds time) divided by lxml's: the reader (decode, parse, walk into blocks), pages (split, numbering, labels,
page texts), structure (Parts/Items and sub-headings, the tree), cover (dei facts and describe), summaries
(offline extractive), facts (the facts table rows) and publishing (tree.json, Parquet tables and manifest to a
local store). ``tree`` = reader + pages + structure + cover: what the tree-only figure of filings_html.py times.

    python benchmarks/filings_html_profile.py [--corpus ../shared/corpus/edgar] [--repeat 3] [--root DIR]

``--root DIR`` imports the pipeline from another checkout (e.g. ``git worktree add /tmp/base 1197041``) to
compare revisions stage by stage, each in its own run.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
STAGES = ("reader", "pages", "structure", "cover", "summaries", "facts", "publish")


def pick(corpus: Path) -> list[Path]:
    """The 5 largest and the 5 around the median size."""
    files = sorted(corpus.glob("*/*/*/primary-document.html.gz"), key=lambda p: p.stat().st_size)
    mid = len(files) // 2
    chosen = files[-5:][::-1] + files[max(0, mid - 2):mid + 3]
    return list(dict.fromkeys(chosen))


def stages_once(path: Path, work: Path) -> dict[str, float]:
    from index_store.publish import publish_document
    from index_store.store import Store
    from parsers.blocks import assign_pages, page_labels, page_texts, split_long
    from parsers.describe import describe
    from parsers.markup_pipeline import build_block_tree, html_structure, read_document
    from parsers.pipeline import PipelineSettings, index_document
    from parsers.summarize import summarize_document
    from parsers.xbrl import dei_cover, fact_rows

    settings = PipelineSettings()
    clock = time.process_time
    out: dict[str, float] = {}
    t = clock()
    blocks_raw, title, _, doc = read_document(path, "html", settings.max_bytes)
    out["reader"] = clock() - t
    t = clock()
    blocks = []
    for b in blocks_raw:
        blocks.extend(split_long([b], 2 * settings.virtual_page_chars))
    page_count, kind = assign_pages(blocks, settings.virtual_page_chars)
    page_labels(blocks, page_count, kind)
    texts = page_texts(blocks, page_count)
    out["pages"] = clock() - t
    t = clock()
    heads, _, _ = html_structure(blocks, page_count)
    heads = sorted({(h.block, h.level): h for h in heads}.values(), key=lambda h: (h.block, h.level))
    root, own = build_block_tree(heads, blocks, page_count, title)
    out["structure"] = clock() - t
    t = clock()
    cover = dei_cover(doc.facts, doc.header) if doc.facts or doc.header is not None else None
    describe(texts, [], root, metadata_title=title, fallback_title=title, cover=cover)
    out["cover"] = clock() - t
    t = clock()
    summarize_document(root, own, None, doc_title=title, page_count=page_count)
    out["summaries"] = clock() - t
    t = clock()
    nodes = list(root.walk())[1:]
    fact_rows(doc.facts, doc.header, [b.page for b in blocks], [h.block for h in heads], [n.node_id for n in nodes],
              root.node_id)
    out["facts"] = clock() - t
    # Publishing times the real thing: the index exactly as `pagetree index` builds it.
    index = index_document(path, "x", settings)
    t = clock()
    publish_document(Store(str(work / f"store-{time.monotonic_ns()}")), tree=index.tree, nodes=index.nodes,
                     pages=index.pages, source={"uri": path.as_uri(), "sha256": index.sha256, "bytes": index.size},
                     pipeline={"fingerprint": settings.fingerprint()}, stats=index.stats, decisions=index.decisions,
                     facts=index.facts)
    out["publish"] = clock() - t
    return out


def lxml_cpu(data: bytes) -> float:
    from lxml import etree, html

    t = time.process_time()
    try:
        etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
    except etree.XMLSyntaxError:
        html.document_fromstring(data, parser=html.HTMLParser(no_network=True, huge_tree=True))
    return time.process_time() - t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(HERE.parent.parent / "shared" / "corpus" / "edgar"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--root", default=str(HERE.parent), help="checkout whose pipeline is imported")
    ap.add_argument("--out", default=str(HERE / "results" / "filings_html_profile.json"))
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(args.root).resolve()))
    from parsers import html_doc

    # Revisions before the compiled walk have only the Python one.
    walk = html_doc.walk_in_use() if hasattr(html_doc, "walk_in_use") else "python walk (no compiled walk in this revision)"
    print(f"html reader: {walk}", flush=True)
    load_before = os.getloadavg()
    rows = []
    with tempfile.TemporaryDirectory(prefix="pagetree-prof-") as tmp:
        for gz in pick(Path(args.corpus)):
            name = f"{gz.parent.parent.parent.name} {gz.parent.parent.name}"
            data = gzip.decompress(gz.read_bytes())
            path = Path(tmp) / "filing.htm"
            path.write_bytes(data)
            best: dict[str, float] = {}
            parse = float("inf")
            for _ in range(args.repeat):
                parse = min(parse, lxml_cpu(data))
                for k, v in stages_once(path, Path(tmp)).items():
                    best[k] = min(best.get(k, v), v)
            ratios = {k: best[k] / parse for k in STAGES}
            ratios["tree"] = sum(ratios[k] for k in ("reader", "pages", "structure", "cover"))
            ratios["total"] = sum(ratios[k] for k in STAGES)
            rows.append({"filing": name, "bytes": len(data), "lxml_cpu_seconds": parse, "ratios": ratios})
            print(f"{name:10} {len(data) / 1e6:5.2f} MB lxml {parse * 1000:5.1f} ms  "
                  + "  ".join(f"{k} {ratios[k]:.2f}" for k in (*STAGES, "tree", "total")), flush=True)
    medians = {k: statistics.median(r["ratios"][k] for r in rows) for k in (*STAGES, "tree", "total")}
    report = {"command": " ".join(["filings_html_profile.py"] + (argv if argv is not None else sys.argv[1:])),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "python": platform.python_version(),
                          "load_before": load_before, "load_after": os.getloadavg()},
              "reader_walk": walk, "medians": medians, "filings": rows}
    out = Path(args.out)
    out.write_text(json.dumps(report, indent=1))
    head = "| filing | MB | lxml ms | " + " | ".join((*STAGES, "tree", "total")) + " |"
    md = [f"# filings_html_profile ({report['date']}; load {load_before[0]:.1f} before, {os.getloadavg()[0]:.1f} "
          f"after, on {os.cpu_count()} cpus)", "", f"`{report['command']}`", "", f"html reader: {walk}", "",
          "CPU time of each stage over lxml's parse of the same bytes (minimum of the repeats).", "", head,
          "|" + "---|" * (len(STAGES) + 5)]
    for r in rows:
        md.append(f"| {r['filing']} | {r['bytes'] / 1e6:.2f} | {r['lxml_cpu_seconds'] * 1000:.1f} | "
                  + " | ".join(f"{r['ratios'][k]:.2f}" for k in (*STAGES, "tree", "total")) + " |")
    md.append("| **median** | | | " + " | ".join(f"**{medians[k]:.2f}**" for k in (*STAGES, "tree", "total")) + " |")
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
