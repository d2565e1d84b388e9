"""Long exhibits of FinanceBench filing PDFs: does each get a subtree of its own, and where do evidence pages land?

The filings: the FinanceBench 10-K/10-Qs whose exhibits (after the signatures) include a document of 5 or more
pages with its own contents page or its own headings (an Exhibit 13 annual report, a bank's statistical
disclosure, plans and agreements with a contents page, a subsidiary's statements), found once by reading the text
with PyMuPDF (2026-12-01) and fixed here, split alphabetically into a tuning half and a held-out half.

Per filing: exhibits found, those with a subtree, statements (income, balance sheet, cash flows, equity: of 4)
and notes with a node of their own inside an exhibit, the auditor's report found, and the share of long-exhibit
pages inside a child node. Per FinanceBench question on any filing: whether each evidence page sits in a node
whose title says what it is (not an "Exhibit N" node, a page group, an Item 15/16 or the root).

    .venv/bin/python benchmarks/filings_pdf.py exhibits [--out-json benchmarks/.work/exhibits.json]
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

from parsers.exhibits import MIN_PAGES, STATEMENTS, heading_kind

FINANCEBENCH = Path("/work/shared/corpus/financebench")
TUNING = ("3M_2018_10K", "3M_2022_10K", "ACTIVISIONBLIZZARD_2019_10K", "AMD_2015_10K", "AMERICANEXPRESS_2022_10K",
          "AMERICANWATERWORKS_2022_10K", "BOEING_2022_10K")
HELDOUT = ("CVSHEALTH_2018_10K", "JOHNSON_JOHNSON_2022_10K", "MGMRESORTS_2018_10K", "MICROSOFT_2016_10K",
           "PEPSICO_2021_10K", "PEPSICO_2022_10K", "WALMART_2018_10K")
_EXHIBIT = re.compile(r"^exhibit\s+\d", re.I)
_VAGUE = re.compile(r"^(?:exhibit\s+\d|items?\s+1[56]\b|signatures?$)", re.I)


def structure(pdf: Path):
    """The tree the pipeline builds (structure only: no summaries), and its decisions."""
    from parsers.pdf import PdfSource
    from parsers.ranges import build_tree
    from parsers.structure import recover_structure

    with PdfSource(str(pdf)) as src:
        result = recover_structure(src)
        return build_tree(result.entries, src.page_count, pdf.stem), result.decisions


def exhibit_row(name: str, root, decisions: dict) -> dict:
    """The per-filing figures over every exhibit node in the tree."""
    exhibits = [n for n in root.walk() if n.level > 0 and _EXHIBIT.match(n.title) and n.extra.get("kind") != "page_group"]
    long = [n for n in exhibits if n.end_page - n.start_page + 1 >= MIN_PAGES]
    kinds: set[str] = set()
    notes = 0
    covered = pages = 0
    for n in long:
        pages += n.end_page - n.start_page + 1
        for c in n.walk():
            if c is n:
                continue
            kind = heading_kind(c.title)
            if kind:
                kinds.add(kind)
            notes += c.level == n.level + 2 and heading_kind(_parent_title(n, c) or "") == "notes"
        inside = set()
        for c in n.nodes:
            if c.extra.get("kind") != "page_group":
                inside.update(range(c.start_page, c.end_page + 1))
        covered += len(inside)
    return {"doc": name, "exhibits": len(exhibits), "long": len(long),
            "with_subtree": sum(1 for n in long if any(c.extra.get("kind") != "page_group" for c in n.nodes)),
            "statements": len(kinds & set(STATEMENTS)), "notes": notes, "auditor": "auditor" in kinds,
            "mdna": "mdna" in kinds, "long_pages": pages, "covered": covered / pages if pages else None,
            "decisions": decisions.get("exhibits", {})}


def _parent_title(top, node) -> str | None:
    for p in top.walk():
        if node in p.nodes:
            return p.title
    return None


def evidence_rows(trees: dict) -> list[dict]:
    rows = []
    for line in (FINANCEBENCH / "questions.jsonl").read_text().splitlines():
        q = json.loads(line)
        root = trees.get(q["doc_name"])
        if root is None:
            continue
        for page in q["evidence_pages"]:
            path = [n for n in root.walk() if n.level > 0 and n.start_page <= page <= n.end_page]
            deepest = path[-1] if path else None
            named = deepest is not None and deepest.extra.get("kind") != "page_group" and not _VAGUE.match(deepest.title)
            rows.append({"id": q["id"], "doc": q["doc_name"], "page": page, "node": deepest.title if deepest else "(root)",
                         "named": named})
    return rows


def run(out_json: Path | None) -> tuple[dict, list[str]]:
    t0 = time.perf_counter()
    trees: dict = {}
    rows = []
    for pdf in sorted((FINANCEBENCH / "pdfs").glob("*.pdf")):
        try:
            root, decisions = structure(pdf)
        except Exception as exc:  # a document that fails counts as having no tree
            print(f"{pdf.stem}: {type(exc).__name__}: {exc}", flush=True)
            continue
        trees[pdf.stem] = root
        if pdf.stem in TUNING + HELDOUT:
            row = exhibit_row(pdf.stem, root, decisions)
            row["half"] = "tuning" if pdf.stem in TUNING else "held-out"
            rows.append(row)
            print(f"{row['half']:8s} {pdf.stem:30s} long {row['long']} subtree {row['with_subtree']} statements "
                  f"{row['statements']}/4 notes {row['notes']} auditor {row['auditor']} covered "
                  f"{row['covered'] if row['covered'] is None else round(row['covered'], 2)}", flush=True)
    evidence = evidence_rows(trees)
    report = {"rows": rows, "evidence": evidence, "seconds": time.perf_counter() - t0}
    if out_json:
        out_json.parent.mkdir(parents=True, exist_ok=True)
        out_json.write_text(json.dumps(report, indent=1, default=str))
    md = ["| half | filing | exhibits | long (>= 5 p) | with subtree | statements /4 | notes | auditor | long pages in a child |",
          "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cov = "-" if r["covered"] is None else f"{r['covered']:.0%}"
        md.append(f"| {r['half']} | {r['doc']} | {r['exhibits']} | {r['long']} | {r['with_subtree']} | {r['statements']} | "
                  f"{r['notes']} | {'yes' if r['auditor'] else 'no'} | {cov} |")
    named = sum(e["named"] for e in evidence)
    md += ["", f"- Evidence pages (all {len(evidence)} of the {len({e['id'] for e in evidence})} questions): {named} in a node "
               f"whose title says what it is; in exhibits: " + ", ".join(
                   f"{e['doc']} p{e['page']} -> {e['node']}" for e in evidence
                   if e["doc"] in TUNING + HELDOUT and _in_exhibit(trees[e["doc"]], e["page"]))]
    return report, md


def _in_exhibit(root, page: int) -> bool:
    return any(_EXHIBIT.match(n.title) and n.start_page <= page <= n.end_page for n in root.walk()
               if n.level > 0 and n.extra.get("kind") != "page_group")
