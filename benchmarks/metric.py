"""The structure metric of /work/shared/corpus/manuals/README.md, and the PDF variants it is run on.

``score(truth, pred)`` is a pure function over (level, title, 1-based page)
triples. Matching is one-to-one and greedy in document order: each outline
entry first takes the best-matching unused prediction on its own page, then
each still-unmatched entry takes the matching unused prediction nearest in
page. Titles match when rapidfuzz ``ratio`` of their normalized forms >= 85.

Variants: A original; B1 outline removed; B2 + page labels removed; B3 + link
annotations and named destinations removed; excerpt: the first 60 pages as B2,
scored against the outline entries on those pages (``make_variant``, ``excerpt_truth``); NT ("no
contents"): B3 with the printed contents pages deleted, so the tree must come from headings, scored
against the outline with its pages shifted (``make_notoc_variant``, ``truth_without_pages``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterable, Sequence

from rapidfuzz.fuzz import ratio

Triple = tuple[int, str, int]

MATCH_THRESHOLD = 85.0
VARIANTS = ("A", "B1", "B2", "B3", "excerpt")  # and "NT", made by make_notoc_variant
EXCERPT_PAGES = 60  # issue 4's scanned excerpts: the first 60 pages, outline and labels removed (README variant C)

_ROMAN = r"(?=[ivxlcdm]+\b)m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
# "Chapter 2", "Appendix A", "Part IV", "Section 3.1", "Item 7A" (filings) — the word and its number.
_WORD_NUM = re.compile(
    rf"^(?:chapter|chap\.|part|appendix|annex|section|sect\.|item|lesson|unit|book)\s+"
    rf"(?:\d+[a-z]?(?:\.\d+)*|{_ROMAN}|[a-z])\b[.:)\-\u2013\u2014]*\s*",
    re.I,
)
# "2", "2.3", "2.3.", "A.1", "A.", "IV.", "iv)", "B.2.1"
_NUMBERING = re.compile(
    rf"^(?:\d+(?:\.\d+)*\.?(?=\s|$)|[a-z](?:\.\d+)+\.?(?=\s|$)|[a-z][.)](?=\s)|{_ROMAN}[.)](?=\s|$))\s*",
    re.I,
)
_PUNCT = re.compile(r"[^\w\s]|_", re.UNICODE)


def plain_words(text: str) -> str:
    """Casefolded words, punctuation and underscores to spaces, spaces collapsed: how titles are compared."""
    return " ".join(_PUNCT.sub(" ", text.casefold()).split())


def normalize_title(title: str) -> str:
    """Casefold, drop leading numbering, punctuation to spaces, collapse spaces.

    If stripping the numbering leaves nothing ("Part II"), the un-stripped
    form is kept so that such titles still compare by their numbers.
    """
    t = " ".join(title.casefold().split())
    stripped = t
    for _ in range(3):  # "Part I. Chapter 2. 2.1 Foo" is rare, but cheap to handle
        before = stripped
        stripped = _WORD_NUM.sub("", stripped)
        stripped = _NUMBERING.sub("", stripped)
        if stripped == before:
            break
    return plain_words(stripped) or plain_words(t)  # casefold again is a no-op: t is casefolded


def titles_match(a: str, b: str) -> bool:
    """Whether two titles count as the same section (on already-normalized titles)."""
    return ratio(a, b) >= MATCH_THRESHOLD


def match(truth: Sequence[Triple], pred: Sequence[Triple]) -> list[int | None]:
    """For each truth entry, the index of its matched prediction (or None)."""
    tn = [normalize_title(t[1]) for t in truth]
    pn = [normalize_title(p[1]) for p in pred]
    by_page: dict[int, list[int]] = {}
    for j, p in enumerate(pred):
        by_page.setdefault(int(p[2]), []).append(j)
    used = [False] * len(pred)
    assigned: list[int | None] = [None] * len(truth)
    sims: dict[tuple[int, int], float] = {}

    def sim(i: int, j: int) -> float:
        key = (i, j)
        if key not in sims:
            sims[key] = ratio(tn[i], pn[j])
        return sims[key]

    # Pass 1: same page, best ratio (first in order on ties).
    for i, (_, _, page) in enumerate(truth):
        best, best_s = None, MATCH_THRESHOLD - 1e-9
        for j in by_page.get(int(page), []):
            if not used[j]:
                s = sim(i, j)
                if s > best_s:
                    best, best_s = j, s
        if best is not None:
            used[best] = True
            assigned[i] = best
    # Pass 2: nearest page among matching titles (higher ratio, then earlier, on ties).
    for i, (_, _, page) in enumerate(truth):
        if assigned[i] is not None:
            continue
        best, best_key = None, None
        for j, p in enumerate(pred):
            if used[j]:
                continue
            s = ratio(tn[i], pn[j])
            if s < MATCH_THRESHOLD:
                continue
            key = (abs(int(p[2]) - int(page)), -s, j)
            if best_key is None or key < best_key:
                best, best_key = j, key
        if best is not None:
            used[best] = True
            assigned[i] = best
    return assigned


def _prf(correct: int, n_truth: int, n_pred: int) -> tuple[float, float, float]:
    recall = correct / n_truth if n_truth else (1.0 if n_pred == 0 else 0.0)
    precision = correct / n_pred if n_pred else (1.0 if n_truth == 0 else 0.0)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def score(truth: Sequence[Triple], pred: Sequence[Triple]) -> dict[str, Any]:
    """Precision/recall/F1 (level <= 2 and all levels), title recall and page accuracy for one document."""
    truth = [(int(lv), str(t), int(p)) for lv, t, p in truth]
    pred = [(int(lv), str(t), int(p)) for lv, t, p in pred]
    assigned = match(truth, pred)
    out: dict[str, Any] = {"truth": len(truth), "pred": len(pred)}
    for name, keep in (("l12", lambda lv: lv <= 2), ("all", lambda lv: True)):
        idx = [i for i, t in enumerate(truth) if keep(t[0])]
        matched = [i for i in idx if assigned[i] is not None]
        correct = sum(1 for i in matched if pred[assigned[i]][2] == truth[i][2])  # type: ignore[index]
        # Predictions matching deeper outline entries are left out of the level<=2 precision.
        excluded = sum(1 for i, j in enumerate(assigned) if j is not None and not keep(truth[i][0]))
        n_pred = len(pred) - excluded
        p, r, f = _prf(correct, len(idx), n_pred)
        out[name] = {
            "precision": p,
            "recall": r,
            "f1": f,
            "title_recall": len(matched) / len(idx) if idx else 1.0,
            "page_accuracy": correct / len(matched) if matched else (1.0 if not idx else 0.0),
            "truth": len(idx),
            "pred": n_pred,
            "correct": correct,
        }
    return out


def failed_score(truth: Sequence[Triple]) -> dict[str, Any]:
    """The score of a document the indexer failed on: zero everywhere."""
    zero = {"precision": 0.0, "recall": 0.0, "f1": 0.0, "title_recall": 0.0, "page_accuracy": 0.0, "pred": 0, "correct": 0}
    return {
        "truth": len(truth),
        "pred": 0,
        "l12": {**zero, "truth": sum(1 for t in truth if t[0] <= 2)},
        "all": {**zero, "truth": len(truth)},
    }


def mean_scores(scores: Iterable[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Average of per-document scores (each document counts equally)."""
    scores = list(scores)
    keys = ("precision", "recall", "f1", "title_recall", "page_accuracy")
    out: dict[str, dict[str, float]] = {}
    for level in ("l12", "all"):
        out[level] = {k: (sum(s[level][k] for s in scores) / len(scores) if scores else 0.0) for k in keys}
    return out


# -- ground truth and predictions ------------------------------------------------


def truth_from_pdf(path: str | Path) -> list[Triple]:
    """The answer key: PyMuPDF's outline, entries pointing at no page dropped."""
    import pymupdf

    with pymupdf.open(path) as doc:
        return [(int(lv), str(t), int(p)) for lv, t, p in doc.get_toc(simple=True) if 1 <= int(p) <= doc.page_count]


def excerpt_truth(truth: Sequence[Triple], pages: int = EXCERPT_PAGES) -> list[Triple]:
    """The answer key of an excerpt: the outline entries that start on its pages."""
    return [t for t in truth if t[2] <= pages]


SYNTHETIC_KINDS = ("front_matter", "page_group")  # node["kind"] of nodes the indexer made up (parsers.ranges)


def predictions_from_tree(tree: Any, synthetic: bool = True) -> list[Triple]:
    """Every node below the root as (level, title, start_page), in pre-order.

    Accepts an ``index_store.model.Tree``, a tree.json dict, or a path to tree.json.
    ``synthetic=False`` leaves out nodes whose ``kind`` marks them as made up by the
    indexer (front matter, page-group splits): the README metric counts them (the default).
    """
    if isinstance(tree, (str, Path)):
        tree = json.loads(Path(tree).read_text())
    root = tree["root"] if isinstance(tree, dict) else tree.root
    out: list[Triple] = []

    def get(node: Any, key: str) -> Any:
        return node[key] if isinstance(node, dict) else getattr(node, key)

    stack = list(reversed(get(root, "nodes")))
    while stack:
        node = stack.pop()
        kind = node.get("kind") if isinstance(node, dict) else getattr(node, "extra", {}).get("kind")
        if synthetic or kind not in SYNTHETIC_KINDS:
            out.append((int(get(node, "level")), str(get(node, "title")), int(get(node, "start_page"))))
        stack.extend(reversed(get(node, "nodes")))
    return out


# -- variants ----------------------------------------------------------------------


def make_variant(src: str | Path, dst: str | Path, variant: str) -> Path:
    """Write variant ``A``/``B1``/``B2``/``B3``/``excerpt`` of ``src`` to ``dst`` (A is a plain copy)."""
    import pymupdf

    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {VARIANTS}")
    dst = Path(dst)
    with pymupdf.open(src) as doc:
        if variant == "excerpt" and doc.page_count > EXCERPT_PAGES:
            doc.select(list(range(EXCERPT_PAGES)))
        if variant != "A":
            doc.set_toc([])
        if variant in ("B2", "B3", "excerpt"):
            remove_page_labels(doc)
        if variant == "B3":
            remove_links(doc)
        doc.save(dst, garbage=3 if variant == "B3" else 0)
    return dst


def remove_page_labels(doc: Any) -> None:
    """Drop /PageLabels from the catalog."""
    cat = doc.pdf_catalog()
    doc.xref_set_key(cat, "PageLabels", "null")


def remove_links(doc: Any) -> None:
    """Drop every link annotation and the named destinations (catalog /Dests and /Names /Dests)."""
    for page in doc:
        for link in page.get_links():
            page.delete_link(link)
        # Any remaining /Link annotations (e.g. URI or broken ones) go too.
        for annot in list(page.annots(types=[pymupdf_link_type()]) or []):
            page.delete_annot(annot)
    cat = doc.pdf_catalog()
    doc.xref_set_key(cat, "Dests", "null")
    kind, names = doc.xref_get_key(cat, "Names")
    if kind == "xref":
        doc.xref_set_key(int(names.split()[0]), "Dests", "null")
    elif kind == "dict":
        doc.xref_set_key(cat, "Names/Dests", "null")
    doc.xref_set_key(cat, "OpenAction", "null")


def pymupdf_link_type() -> int:
    import pymupdf

    return pymupdf.PDF_ANNOT_LINK


# -- the no-contents variant ------------------------------------------------------------


def make_notoc_variant(src: str | Path, dst: str | Path, extra_pages: Iterable[int] = (), rounds: int = 3) -> list[int]:
    """Write B3 of ``src`` without its printed contents pages to ``dst``; return the deleted 1-based pages.

    The pages deleted are ``extra_pages`` (e.g. the corpus table's ``printed_toc_pages``) and whatever
    ``parsers.toc.find_toc`` still reads as contents, repeated until it finds none (a long contents split
    over several listings). Development aid for the headings fallback: real manuals without a contents.
    """
    import pymupdf

    from parsers.pdf import PdfSource
    from parsers.toc import find_toc

    dst = Path(dst)
    make_variant(src, dst, "B3")
    dropped: list[int] = []  # pages of the original
    pending = sorted(set(int(p) for p in extra_pages))
    for _ in range(rounds + 1):
        if pending:
            with pymupdf.open(dst) as doc:
                keep = [i for i in range(doc.page_count) if i + 1 not in pending]
                doc.select(keep)
                doc.save(str(dst) + ".tmp")
            Path(str(dst) + ".tmp").replace(dst)
            # Map the current file's page numbers back to the original's before recording them.
            remaining = [p for p in range(1, 100_000) if p not in dropped]
            dropped = sorted(dropped + [remaining[p - 1] for p in pending if p - 1 < len(remaining)])
        with PdfSource(dst) as pdf:
            pending = find_toc(pdf.page_count, pdf.text, pdf.layout).pages
        if not pending:
            break
    return dropped


def truth_without_pages(truth: Sequence[Triple], dropped: Sequence[int]) -> list[Triple]:
    """The answer key after deleting ``dropped`` pages: entries on them go, later pages shift down."""
    gone = sorted(set(dropped))
    out: list[Triple] = []
    for lv, title, page in truth:
        if page in gone:
            continue
        out.append((lv, title, page - sum(1 for g in gone if g < page)))
    return out
