"""Where the structure errors come from: every error at levels <= 2 of benchmarks/metric.py, classified.

Runs the pagetree method of benchmarks/structure.py (its ``_ours``) on chosen sets and sorts each error of the
level <= 2 score into one category, so that what unseen manuals get wrong can be counted without reading them:

    .venv/bin/python benchmarks/structure_errors.py --variants B2,NT --extra-groups extra,heldout4 [--show 5]
    .venv/bin/python benchmarks/structure_errors.py --variants '' --extra-groups heldout7 --aggregate-only
        (writes benchmarks/results/structure-errors-heldout7.{json,md}: aggregate tables only)

A false positive is a prediction that ``metric.score``'s level <= 2 precision counts and that is not correct; a false
negative an outline entry at level <= 2 that is not correct. ``metric.score`` ignores a matched prediction's level and
matches a title at any page distance, so a "level error" costs nothing (it is counted, as information) and a title
found far away is a matched pair on the wrong page. Categories (the first that applies):

false positives
  deeper         below a node whose outline entry has no children, or deeper than the whole outline, or the title of
                 an outline entry at level >= 3 (another node took it, or it is read otherwise within a page): the
                 tree is deeper than the author's outline
  page           matched to an outline entry at level <= 2, on another page
  duplicate      the title of an outline entry at level <= 2 that another node took
  misread        a missed outline entry at level <= 2 within a page has a similar title (truncated, merged, garbled)
  made_up        a node the indexer made up (front matter, page group)
  repeated       the same title as an earlier unmatched node (running heads, a heading read twice)
  caption / contents_index / code   junk of that look (see ``_junk_kind``); a numbered heading below the
                 outline's depth is "deeper" whatever its characters
  front_page     before the outline's first entry (title page, front matter)
  numbered       a numbered heading the outline does not have
  other          anything else
false negatives
  page           matched on another page;
  unprinted      the outline's title is not printed on its page nor one page either side (``printed_on``): the answer
                 key names the section otherwise than the document does ("Prover9 Manual: Installation" above a page
                 headed "Installing Prover9"), or has no title; no reader of the text can match it there
  misread        a prediction within a page has a similar title;
  taken          a node has the title, but an outline entry with the same title took it;  absent   none of these

Beside the metric's own precision and recall, each group gets two answer-key facts and what the score is without
them: the share of outline entries whose title is printed, the documents whose key is mostly not printed (over half
of its entries at levels <= 2 unprinted: no text method can score there), and the F1 on the rest with nodes deeper
than the outline and unprinted entries left out. That figure describes the answer key's reach; it never replaces the
metric's F1, which the tables print beside it.

With ``--aggregate-only`` nothing per document is printed or written (groups that are never tuned on require it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, Mapping, Sequence

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.metric import MATCH_THRESHOLD, Triple, match, normalize_title, plain_words, score, titles_match  # noqa: E402

FP_CATS = ("deeper", "page", "duplicate", "misread", "made_up", "repeated", "caption", "contents_index", "code",
           "front_page", "numbered", "other")
FN_CATS = ("page", "unprinted", "misread", "taken", "absent")
# The brief's question: how much precision is lost to a tree deeper than the outline (the metric's artifact)
# against real errors. "misread" and "page"/"duplicate" are real; so is junk.
FP_GROUPS = {"a: deeper than outline": ("deeper",), "c: page / duplicate": ("page", "duplicate"),
             "d: misread title": ("misread",),
             "d: junk": ("made_up", "repeated", "caption", "contents_index", "code", "front_page", "numbered", "other")}
GENERATED = "<!-- tables below are written by benchmarks/structure_errors.py -->"
NEVER_TUNED = ("heldout17",)  # groups whose documents are never looked at one by one
NEAR_RATIO = 60.0  # below the match threshold, above chance for short headings
KEY_MOSTLY_UNPRINTED = 0.5  # a key with more than half of its level <= 2 entries unprinted cannot score a text reader

_CAPTION = re.compile(r"^(?i:figure|fig\.|table|listing|example|plate|exhibit|algorithm)\s*(?:\d|[A-Z](?![a-z]))")
_LEADERS = re.compile(r"\.{3,}|(?:\.\s){3,}|\s\d{1,4}$")
_CONTENTS_WORDS = {"contents", "table of contents", "index", "list of figures", "list of tables", "bibliography"}
_CODE = re.compile(r"[{};=<>\[\]]|::|->|\w\(|\b\w+/\d+\b|^[$#%>] |\w_\w|\\[@A-Za-z]")
_NUMBER = re.compile(r"^((?:\d+|[A-Z])(?:\.\d+)*\.?)\s")
_NUMBERED = re.compile(r"^(?:\d+(?:\.\d+)*\.?\s|[A-Z](?:\.\d+)+\.?\s|(?:chapter|part|appendix|section)\s+\S)", re.I)


def _parents(pred: Sequence[Triple]) -> list[int | None]:
    """Each prediction's parent index, rebuilt from the pre-order levels (as predictions_from_tree lists them)."""
    out: list[int | None] = []
    stack: list[int] = []
    for j, (lv, _, _) in enumerate(pred):
        while stack and pred[stack[-1]][0] >= lv:
            stack.pop()
        out.append(stack[-1] if stack else None)
        stack.append(j)
    return out


def _outline_leaf(truth: Sequence[Triple], i: int) -> bool:
    return i + 1 >= len(truth) or truth[i + 1][0] <= truth[i][0]


def _same_number(a: str, b: str) -> bool:
    """False only when both titles carry section numbers and these differ: "10.5 References" is not "B.24 References"."""
    ma, mb = _NUMBER.match(a.strip()), _NUMBER.match(b.strip())
    return not (ma and mb) or ma.group(1).rstrip(".") == mb.group(1).rstrip(".")


def _near(a: str, b: str) -> bool:
    from rapidfuzz.fuzz import partial_ratio, ratio

    if len(a) < 3 or len(b) < 3:
        return False
    return ratio(a, b) >= NEAR_RATIO or (min(len(a), len(b)) >= 8 and partial_ratio(a, b) >= MATCH_THRESHOLD)


def printed_on(title: str, words: str) -> bool:
    """Whether an outline title is printed in a page's words: contained, wrapped over lines or split by a line break
    (joined here), or within the metric's own threshold of a stretch of the page (``partial_ratio`` >= 85)."""
    from rapidfuzz.fuzz import partial_ratio

    t = normalize_title(title)
    if not t:
        return False  # an untitled entry: nothing on a page can match it
    # partial_ratio slides the shorter string along the longer: a page shorter than the title is compared whole.
    return t in words or (4 <= len(t) <= len(words) and partial_ratio(t, words) >= MATCH_THRESHOLD)


def _junk_kind(title: str, norm: str) -> str | None:
    """Cheap looks of lines that are not headings; None if it looks like none of them."""
    t = " ".join(title.split())
    if _CAPTION.match(t):
        return "caption"
    if _LEADERS.search(t) or norm in _CONTENTS_WORDS:
        return "contents_index"
    if _CODE.search(t):
        return "code"
    return None


def classify(truth: Sequence[Triple], pred: Sequence[Triple], made_up: Sequence[bool] | None = None,
             words: Mapping[int, str] | None = None) -> dict[str, Any]:
    """Every level <= 2 error of ``metric.score(truth, pred)`` in one category; ``examples`` holds the (level, title, page).

    ``made_up[j]`` marks predictions of nodes the indexer invented (``predictions_from_tree``'s synthetic kinds).
    ``words[page]`` is a 1-based page's ``plain_words``; without it no miss is called unprinted.
    The counts add up: sum(fp) = pred - correct and sum(fn) = truth - correct of ``score(...)["l12"]``.
    """
    truth = [(int(lv), str(t), int(p)) for lv, t, p in truth]
    pred = [(int(lv), str(t), int(p)) for lv, t, p in pred]
    made_up = list(made_up) if made_up is not None else [False] * len(pred)
    assigned = match(truth, pred)
    owner: dict[int, int] = {j: i for i, j in enumerate(assigned) if j is not None}
    tn = [normalize_title(t[1]) for t in truth]
    pn = [normalize_title(p[1]) for p in pred]
    correct_t = {i for i, j in enumerate(assigned) if j is not None and truth[i][0] <= 2 and pred[j][2] == truth[i][2]}
    missed_t = [i for i, t in enumerate(truth) if t[0] <= 2 and i not in correct_t]
    unmatched_p = [j for j in range(len(pred)) if j not in owner]
    deep_free = [i for i, t in enumerate(truth) if t[0] > 2 and assigned[i] is None]
    parents = _parents(pred)
    max_level = max((t[0] for t in truth), default=0)
    first_page = min((t[2] for t in truth), default=0)
    # Numbering kept: "2.1 Integers" and "11.1 Integers" are two sections, not one read twice.
    raw = [" ".join(p[1].casefold().split()) for p in pred]
    seen: set[str] = set()
    fp: dict[str, list[Triple]] = {c: [] for c in FP_CATS}
    fn: dict[str, list[Triple]] = {c: [] for c in FN_CATS}
    level_differs: list[Triple] = []

    for i, j in enumerate(assigned):
        if j is None or truth[i][0] > 2:
            continue
        if pred[j][2] != truth[i][2]:
            fp["page"].append(pred[j])
            fn["page"].append(truth[i])
        elif pred[j][0] != truth[i][0]:
            level_differs.append(truth[i])

    def deeper_by_place(j: int) -> bool:
        a = parents[j]
        while a is not None:
            if a in owner:
                return _outline_leaf(truth, owner[a])
            a = parents[a]
        return pred[j][0] > max_level

    for j in unmatched_p:
        _, title, page = pred[j]
        if made_up[j]:
            cat = "made_up"
        elif raw[j] in seen:  # a running head, or a heading read twice: the first one is classified below
            cat = "repeated"
        elif any(abs(truth[i][2] - page) <= 1 and _near(tn[i], pn[j]) for i in missed_t if assigned[i] is None):
            cat = "misread"
        elif any(abs(truth[i][2] - page) <= 1 and _near(tn[i], pn[j]) for i in deep_free):
            cat = "deeper"  # a deeper outline entry, its title read otherwise (truncated, a URL dropped)
        else:
            taken = [i for i in owner.values() if titles_match(tn[i], pn[j]) and _same_number(truth[i][1], title)]
            if taken:
                cat = "duplicate" if any(truth[i][0] <= 2 for i in taken) else "deeper"
            else:
                numbered, deeper = bool(_NUMBERED.match(title.strip())), deeper_by_place(j)
                # A numbered heading below the outline's depth is a heading, whatever characters its title has.
                cat = ("deeper" if deeper and numbered else _junk_kind(title, pn[j]) or (
                    "deeper" if deeper else "front_page" if page < first_page else "numbered" if numbered else "other"))
        seen.add(raw[j])
        fp[cat].append(pred[j])
    for i in missed_t:
        if assigned[i] is not None:
            continue  # on another page: counted above
        page = truth[i][2]
        if words is not None and not any(printed_on(truth[i][1], words.get(q, "")) for q in (page - 1, page, page + 1)):
            fn["unprinted"].append(truth[i])
        elif any(abs(pred[j][2] - truth[i][2]) <= 1 and _near(tn[i], pn[j]) for j in unmatched_p):
            fn["misread"].append(truth[i])
        elif any(titles_match(tn[i], pn[j]) for j in owner):
            fn["taken"].append(truth[i])
        else:
            fn["absent"].append(truth[i])
    s = score(truth, pred)["l12"]
    out = {"truth": s["truth"], "pred": s["pred"], "correct": s["correct"], "precision": s["precision"],
           "recall": s["recall"], "fp": {c: len(v) for c, v in fp.items()}, "fn": {c: len(v) for c, v in fn.items()},
           "level_differs": len(level_differs), "examples": {"fp": fp, "fn": fn, "level_differs": level_differs}}
    assert sum(out["fp"].values()) == s["pred"] - s["correct"], "false positives must add up to the metric's"
    assert sum(out["fn"].values()) == s["truth"] - s["correct"], "false negatives must add up to the metric's"
    return out


# -- aggregation -------------------------------------------------------------------------------


def aggregate(rows: list[dict]) -> dict[str, Any]:
    """Pooled counts and, per category, the precision (recall) points it costs on average: mean over documents of
    count / predictions (outline entries), which add up to 1 - mean precision (recall) of the documents scored."""
    scored = [r for r in rows if not r.get("error")]
    out: dict[str, Any] = {"docs": len(rows), "failed": len(rows) - len(scored),
                           "pred": sum(r["pred"] for r in scored), "truth": sum(r["truth"] for r in scored),
                           "correct": sum(r["correct"] for r in scored), "level_differs": sum(r["level_differs"] for r in scored)}
    n = len(scored) or 1
    out["precision"] = sum(r["precision"] for r in scored) / n
    # Precision if nodes deeper than the author's outline were not counted: what a depth-blind metric would say.
    out["precision_outline_depth"] = sum(_p_without_deeper(r) for r in scored) / n
    out["recall"] = sum(r["recall"] for r in scored) / n
    out["f1"] = sum(_f1(r["precision"], r["recall"]) for r in scored) / n
    # The answer key's reach: entries whose title the document prints, documents it cannot score, the rest's F1.
    out["key_printed"] = 1 - sum(r["fn"]["unprinted"] for r in scored) / (out["truth"] or 1)
    reach = [r for r in scored if r["truth"] and r["fn"]["unprinted"] <= KEY_MOSTLY_UNPRINTED * r["truth"]]
    out["docs_key_unprinted"] = len(scored) - len(reach)
    out["f1_key_reach"] = sum(_f1(_p_without_deeper(r), r["correct"] / (r["truth"] - r["fn"]["unprinted"]))
                              for r in reach) / (len(reach) or 1)
    for side, cats, denom in (("fp", FP_CATS, "pred"), ("fn", FN_CATS, "truth")):
        out[side] = {c: sum(r[side][c] for r in scored) for c in cats}
        out[side + "_points"] = {c: sum(r[side][c] / r[denom] for r in scored if r[denom]) / n for c in cats}
    return out


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def _p_without_deeper(row: dict) -> float:
    n = row["pred"] - row["fp"]["deeper"]
    return row["correct"] / n if n else row["precision"]


def _groups_of(rows: list[dict]) -> dict[tuple[str, str], list[dict]]:
    from benchmarks.structure import KIND_ORDER, kinds_of

    sets = list(dict.fromkeys(r["set"] for r in rows))
    order = {k: i for i, k in enumerate(("all", *KIND_ORDER))}
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        groups.setdefault((r["set"], "all"), []).append(r)
        for kind in kinds_of(r):
            groups.setdefault((r["set"], kind), []).append(r)
        if r.get("source"):  # which method built the tree: a printed contents, headings or page groups
            groups.setdefault((r["set"], f"via {r['source']}"), []).append(r)
    return {k: groups[k] for k in sorted(groups, key=lambda k: (sets.index(k[0]), order.get(k[1], 99)))}


def tables(aggs: dict[tuple[str, str], dict]) -> str:
    """Markdown: the (a)-(d) summary, then false positives and false negatives per category ("n (points)")."""
    lines = ["The answer key's reach at levels <= 2: F1 is the metric's (mean over documents); 'key printed' the share of "
             "outline entries whose title the page prints; 'key not printed' the documents with over half of their "
             "entries unprinted; the last column the F1 of the other documents with nodes deeper than the outline and "
             "unprinted entries left out (a description of the key, never the score):", "",
             "| set | kind | docs | F1 | key printed | key not printed (docs) | F1 within the key's reach |",
             "|---|---|---|---|---|---|---|"]
    for (s, k), a in aggs.items():
        lines.append(f"| {s} | {k} | {a['docs']} | {a['f1']:.3f} | {a['key_printed']:.3f} | {a['docs_key_unprinted']} | "
                     f"{a['f1_key_reach']:.3f} |")
    lines += ["", "Precision lost at levels <= 2 (mean over documents of 1 - P), split by cause (points of precision):", "",
             "| set | kind | docs | P | R | P lost | " + " | ".join(FP_GROUPS) + " | P without (a) |",
             "|---|---|---|---|---|---|" + "---|" * (len(FP_GROUPS) + 1)]
    for (s, k), a in aggs.items():
        parts = [sum(a["fp_points"][c] for c in cats) for cats in FP_GROUPS.values()]
        lines.append(f"| {s} | {k} | {a['docs']} | {a['precision']:.3f} | {a['recall']:.3f} | {1 - a['precision']:.3f} | "
                     + " | ".join(f"{x:.3f}" for x in parts) + f" | {a['precision_outline_depth']:.3f} |")
    for side, cats, what in (("fp", FP_CATS, "False positives (predictions counted at levels <= 2, not correct)"),
                             ("fn", FN_CATS, "False negatives (outline entries at levels <= 2, not correct)")):
        lines += ["", f"{what}: count (points of {'precision' if side == 'fp' else 'recall'} lost):", "",
                  "| set | kind | docs | " + ("pred" if side == "fp" else "truth") + " | errors | " + " | ".join(cats)
                  + (" | level differs (not penalised) |" if side == "fn" else " |"),
                  "|---|---|---|---|---|" + "---|" * (len(cats) + (side == "fn"))]
        for (s, k), a in aggs.items():
            total = sum(a[side].values())
            cells = [f"{a[side][c]} ({a[side + '_points'][c]:.3f})" if a[side][c] else "0" for c in cats]
            lines.append(f"| {s} | {k} | {a['docs']} | {a['pred' if side == 'fp' else 'truth']} | {total} | "
                         + " | ".join(cells) + (f" | {a['level_differs']} |" if side == "fn" else " |"))
    failed = sum(a["failed"] for (s, k), a in aggs.items() if k == "all")
    if failed:
        lines += ["", f"{failed} document(s) failed to index and are left out of the split (they score 0)."]
    return "\n".join(lines)


# -- running -------------------------------------------------------------------------------------


def collect(args: argparse.Namespace) -> list[tuple[str, str, str, Path, Path, list[int]]]:
    """(set, doc, kind, original, variant file, dropped pages) as benchmarks/structure.py builds them (same files)."""
    from benchmarks.metric import make_notoc_variant, make_variant
    from benchmarks.structure import DEV_KINDS, _ensure_corpus, _extra_groups, _extra_kinds, _tsv_toc_pages, extra_notoc

    corpus, work = Path(args.corpus), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    only = {d for d in args.docs.split(",") if d}
    out = []
    variants = [v for v in args.variants.split(",") if v]
    if variants:
        _ensure_corpus(corpus)
    for src in sorted(corpus.glob("*.pdf")) if variants else []:
        if only and src.stem not in only:
            continue
        for v in variants:
            dst, dropped = work / f"{src.stem}.{v}.pdf", []
            if v == "NT":
                if not _tsv_toc_pages(src.stem):
                    continue
                record = work / f"{src.stem}.NT.json"
                if not dst.exists() or not record.exists():
                    record.write_text(json.dumps(make_notoc_variant(src, dst, _tsv_toc_pages(src.stem))))
                dropped = json.loads(record.read_text())
            elif not dst.exists():
                make_variant(src, dst, v)
            out.append((f"manuals-{v}", src.stem, "no-toc" if v == "NT" else DEV_KINDS.get(src.stem, "plain"), src, dst, dropped))
    wanted = {g for g in args.extra_groups.split(",") if g}
    if args.extra and Path(args.extra).is_dir() and wanted:
        kinds, groups = _extra_kinds(), _extra_groups()
        for src in sorted(Path(args.extra).glob("*.pdf")):
            if (only and src.stem not in only) or src.stem not in kinds or groups[src.stem] not in wanted:
                continue
            for v in [v for v in args.extra_variants.split(",") if v]:
                dst, dropped = work / f"extra.{src.stem}.{v}.pdf", []
                if v == "NT":
                    dst, dropped = extra_notoc(src, work)
                    if not dropped:
                        continue  # no printed contents: its B3 row reads it by headings
                elif not dst.exists():
                    make_variant(src, dst, v)
                out.append((f"{groups[src.stem]}-{v}", src.stem, "no-toc" if v == "NT" else kinds[src.stem], src, dst, dropped))
    return out


def _made_up(pred: list, sections: list) -> list[bool]:
    """Which predictions are the indexer's own nodes: those ``pred_sections`` (a subsequence of pred) leaves out."""
    out, k = [], 0
    for p in pred:
        if k < len(sections) and tuple(sections[k]) == tuple(p):
            out.append(False)
            k += 1
        else:
            out.append(True)
    return out


def _words(path: Path) -> dict[int, str]:
    """Every page's ``plain_words`` of the file the indexer read (its pages are the outline's pages)."""
    import pymupdf

    with pymupdf.open(path) as doc:
        return {n: plain_words(page.get_text()) for n, page in enumerate(doc, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", default=str(ROOT / ".corpus"))
    ap.add_argument("--variants", default="B2,NT", help="development manuals' variants ('' for none)")
    ap.add_argument("--extra", default=str(ROOT / "benchmarks" / ".work" / "corpus_extra"))
    ap.add_argument("--extra-variants", default="B2", help="B2, B3, NT (as benchmarks/structure.py builds them)")
    ap.add_argument("--extra-groups", default="extra,heldout,heldout2,heldout3,heldout4,heldout5,heldout6,heldout7,heldout8,heldout9,heldout10,heldout11,heldout12,heldout13,heldout14,heldout15,heldout16",
                    help=f"groups of corpus_extra.tsv; {', '.join(NEVER_TUNED)} only with --aggregate-only")
    ap.add_argument("--docs", default="", help="comma list of doc ids to restrict to")
    ap.add_argument("--aggregate-only", action="store_true", help="print and write per-set and per-kind tables only")
    ap.add_argument("--show", type=int, default=0, help="up to N example titles per category per document")
    ap.add_argument("--max-leaf-pages", type=int, default=10)
    ap.add_argument("--work", default=str(ROOT / "benchmarks" / ".work" / "structure"))
    ap.add_argument("--out", default="", help="results JSON (and .md beside it); default structure-errors.json, or "
                    "structure-errors-<group>.json when a never-tuned group is run, so the tuning groups' file stays")
    args = ap.parse_args(argv)
    never = sorted(set(args.extra_groups.split(",")) & set(NEVER_TUNED))
    if never and not args.aggregate_only:
        ap.error(f"{', '.join(never)} is never looked at per document: add --aggregate-only")
    if not args.out:
        name = "structure-errors" + "".join(f"-{g}" for g in never)
        args.out = str(ROOT / "benchmarks" / "results" / f"{name}.json")

    from benchmarks.metric import excerpt_truth, truth_from_pdf, truth_without_pages
    from benchmarks.structure import _ours

    docs = collect(args)
    rows = []
    for n, (set_name, doc, kind, src, path, dropped) in enumerate(docs, 1):
        truth = truth_from_pdf(src)
        if set_name == "manuals-excerpt":
            truth = excerpt_truth(truth)
        if dropped:
            truth = truth_without_pages(truth, dropped)
        try:
            ours = _ours(path, args.max_leaf_pages)
        except Exception as exc:  # the indexer failed: the document is counted as failed, the run goes on
            row = {"error": f"{type(exc).__name__}: {exc}", "truth": sum(1 for t in truth if t[0] <= 2)}
        else:
            row = {**classify(truth, ours["pred"], _made_up(ours["pred"], ours["pred_sections"]), _words(path)),
                   "source": ours["source"]}
        rows.append({"set": set_name, "doc": doc, "kind": kind, **row})
        label = f"{n}/{len(docs)}" if args.aggregate_only else f"{set_name:14s} {doc:34s}"
        print(f"{label} done", file=sys.stderr)

    aggs = {k: aggregate(v) for k, v in _groups_of(rows).items()}
    if args.aggregate_only:  # a kind or method of one document would be that document's row under another name
        aggs = {k: a for k, a in aggs.items() if k[1] == "all" or a["docs"] >= 2}
    md = tables(aggs)
    print(md)
    if not args.aggregate_only:
        print("\nPer document (false positives | false negatives; nonzero categories):")
        for r in rows:
            if r.get("error"):
                print(f"- {r['set']} {r['doc']}: failed ({r['error']})")
                continue
            fp = ", ".join(f"{c} {r['fp'][c]}" for c in FP_CATS if r["fp"][c])
            fn = ", ".join(f"{c} {r['fn'][c]}" for c in FN_CATS if r["fn"][c])
            print(f"- {r['set']} {r['doc']} ({r['kind']}, {r['source']}): P {r['precision']:.3f} R {r['recall']:.3f} | {fp} | {fn}")
            if args.show:
                for side in ("fp", "fn"):
                    for c, items in r["examples"][side].items():
                        if items:
                            print(f"    {side} {c}: " + " / ".join(f"L{lv} p{pg} {t[:60]!r}" for lv, t, pg in items[: args.show]))
    out: dict[str, Any] = {"command": " ".join([Path(sys.executable).name, *sys.argv]),
                           "aggregates": [{"set": s, "kind": k, **a} for (s, k), a in aggs.items()], "table": md}
    if not args.aggregate_only:
        out["rows"] = [{k: v for k, v in r.items() if k != "examples" or args.show} for r in rows]
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1, default=str))
    md_path = Path(args.out).with_suffix(".md")
    # The findings written by hand above the marker survive a rerun; the tables below it are replaced.
    head = md_path.read_text().split(GENERATED)[0] if md_path.exists() and GENERATED in md_path.read_text() else \
        "# Structure errors by cause\n\n"
    md_path.write_text(f"{head}{GENERATED}\n\n    {out['command']}\n\n{md}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
