"""Retrieval questions from a manual's own back-of-book index, by rule (the recipe of the manuals corpus README).

    python benchmarks/index_questions.py PDF [PDF ...] [--out FILE.jsonl] [--pages FILE.json] [--cap 40] [--all]

For each PDF: find the index pages (a page whose first lines name an "Index" and most of whose lines end in
page references, and the pages that follow it while they still read as an index), read the entries in
column order (term, sub-entries joined to their parent with ", ", wrapped lines joined), and take each
entry's target pages from the link annotations whose rectangles sit on the entry's line (source
``index-link``); an index without links maps its printed numbers through the document's /PageLabels, or
through the one page offset that the entries themselves confirm (``index-label``; used only when that
offset is clearly the best). A target page must contain the term (``phrase``: its words in order;
``qualified``: the longest of its comma-separated parts in order and every word; ``words``: every word);
pages that do not are dropped, and so are index and contents pages. An entry with no target left, no
searchable word, or a cross-reference ("see ...") is dropped.

Sampling (fixed before any result was looked at): per document, at most ``--cap`` entries (40, the
published set's largest per-document count), evenly spaced over the verified entries in index order
(entry ``floor((i + 0.5) * n / cap)`` for i < cap); duplicates of an earlier term are dropped first. No
randomness, so no seed: the same PDFs give the same set.

Writes one JSON line per question in retrieval.jsonl's shape (doc_id, query, question, target_pages,
source, term_match) and, with --pages, retrieval_pages.json's shape (excluded_pages per document).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUESTION = "Where does the manual explain {term}?"
CAP = 40
# A page reference list at a line's end, after a comma or dot leaders: "term, 12, 14-16" / "term . . . 12".
_NUM = r"(?:\d{1,4}(?:\s*[-\u2013\u2014]\s*\d{1,4})?)"
_REFS = rf"{_NUM}(?:\s*,\s*{_NUM})*"
_ENTRY = re.compile(rf"^(?P<term>.*?\S)\s*(?:,|(?:\s?\.){{2,}})\s*(?P<refs>{_REFS})\s*$")
_LEADERS_ONLY = re.compile(r"^(?P<term>.*?\S)\s*(?:\s?\.){3,}\s*$")  # the number's glyphs lost; the link has it
_ONLY_REFS = re.compile(rf"^,?\s*(?P<refs>{_REFS})\s*,?$")
_SEE = re.compile(r"\bsee(?:\s+also)?\b", re.I)
# "Index", "Concept Index", "Appendix D: Indexes" -- not a file called index.hpp.
_INDEX_WORD = re.compile(r"\bind(?:ex|exes|ices)\b(?![.\w])", re.I)
_SPACED = re.compile(rf"^(?P<term>.*?[^\s\d,.])\s+(?P<refs>{_NUM}(?:\s*,\s*{_NUM})*)\s*\.?$")  # "floor 24, 26"
_CONTENTS_WORD = re.compile(r"\b(?:contents|table of contents)\b", re.I)
_TOC_LINE = re.compile(r"(?:(?:^|\s|\.)(?:\d{1,4}|[ivxlc]{1,6})|(?:\s?\.){3,})\s*$", re.I)


@dataclass
class Line:
    x0: float
    y0: float
    x1: float
    y1: float
    text: str
    column: int = 0
    indent: float = 0.0
    links: list[int] = field(default_factory=list)  # 1-based physical target pages, left to right


@dataclass
class Entry:
    term: str
    refs: list[str]  # printed references as written ("12", "14-16")
    links: list[int]  # 1-based physical pages from the link annotations on the entry's line(s)
    index_page: int


def _words(text: str) -> list[str]:
    """The search tokens (query/text.py: normalised, stop words out, lightly stemmed): a term "contains" in
    the sense every method of the benchmark matches it."""
    from query.text import tokenize

    return tokenize(text)


def _ref_ratio(lines: list[str]) -> float:
    """Share of a page's lines that end in an index reference (or are only references)."""
    lines = [x for x in lines if x.strip()]
    if not lines:
        return 0.0
    return sum(bool(_ENTRY.match(x.strip()) or _ONLY_REFS.match(x.strip())) for x in lines) / len(lines)


def find_index_pages(doc: Any) -> list[int]:
    """0-based index pages: a page in the back half whose first lines name an index and most of whose lines
    are entries, and each following page that still reads as an index."""
    n = len(doc)
    texts = {i: doc[i].get_text().splitlines() for i in range(n // 2, n)}
    out: list[int] = []
    for i in range(n // 2, n):
        lines = [x for x in texts[i] if x.strip()]
        if len(lines) < 3:
            continue
        ratio = _ref_ratio(lines)
        starts = any(_INDEX_WORD.search(x) and len(x.split()) <= 6 for x in lines[:4]) and ratio >= 0.4
        if starts or (out and out[-1] == i - 1 and ratio >= 0.5):
            out.append(i)
    return out


def find_contents_pages(doc: Any) -> list[int]:
    """0-based printed contents pages: in the first tenth, a page whose first lines say "Contents" and many of
    whose lines end in a page number (or are one), or one with dot leaders on most lines, and the pages that
    follow it while they still have leaders."""
    out: list[int] = []
    for i in range(min(len(doc), len(doc) // 10 + 5)):
        lines = [x for x in doc[i].get_text().splitlines() if x.strip()]
        if len(lines) < 3:
            continue
        ratio = sum(bool(_TOC_LINE.search(x)) for x in lines) / len(lines)
        dots = sum(bool(re.search(r"(?:\s?\.){3,}", x)) for x in lines)
        named = any(_CONTENTS_WORD.search(x) for x in lines[:6]) and ratio >= 0.3
        if named or (dots >= 5 and ratio >= 0.5) or (out and out[-1] == i - 1 and dots >= 3 and ratio >= 0.4):
            out.append(i)
    return out


def page_lines(page: Any) -> list[Line]:
    """The page's text lines in reading order (column by column, top to bottom), fragments sharing a baseline
    in one column merged, each with its column's indentation and the links that sit on it."""
    raw = []
    for block in page.get_text("dict")["blocks"]:
        for ln in block.get("lines", []):
            text = "".join(s["text"] for s in ln["spans"]).strip()
            if text:
                x0, y0, x1, y1 = ln["bbox"]
                raw.append(Line(x0, y0, x1, y1, re.sub(r"\s+", " ", text)))
    if not raw:
        return []
    # Two columns when a fair share of the lines start right of the text area's middle (a wrapped fragment
    # alone does not make a column); a column's left edge is the leftmost x where a tenth of its lines start
    # (not a centred page number or letter heading).
    mid = min(ln.x0 for ln in raw) + 0.45 * (max(ln.x1 for ln in raw) - min(ln.x0 for ln in raw))
    two = sum(ln.x0 >= mid for ln in raw) >= max(2, 0.15 * len(raw))
    for ln in raw:
        ln.column = int(two and ln.x0 >= mid)
    for col in {ln.column for ln in raw}:
        mine = [ln for ln in raw if ln.column == col]
        need = max(2, len(mine) // 10) if len(mine) > 2 else 1
        left = next((x for x in sorted(ln.x0 for ln in mine) if sum(abs(o.x0 - x) <= 2 for o in mine) >= need),
                    min(ln.x0 for ln in mine))
        for ln in mine:
            ln.indent = ln.x0 - left
    raw.sort(key=lambda ln: (ln.column, round(ln.y0), ln.x0))
    lines: list[Line] = []
    for ln in raw:
        prev = lines[-1] if lines else None
        if prev and prev.column == ln.column and abs((prev.y0 + prev.y1) - (ln.y0 + ln.y1)) / 2 < 2.5:
            prev.text, prev.x1 = f"{prev.text} {ln.text}", max(prev.x1, ln.x1)
        else:
            lines.append(ln)
    for link in page.get_links():
        target = link.get("page", -1)
        if target is None or target < 0 or "from" not in link:
            continue
        r = link["from"]
        cx, cy = (r.x0 + r.x1) / 2, (r.y0 + r.y1) / 2
        near = [ln for ln in lines if ln.y0 - 1.5 <= cy <= ln.y1 + 1.5 and ln.x0 - 3 <= cx <= ln.x1 + 3]
        if near:
            best = min(near, key=lambda ln: abs((ln.y0 + ln.y1) / 2 - cy))
            best.links.append((r.x0, target + 1))  # type: ignore[arg-type]
    for ln in lines:
        ln.links = [p for _, p in sorted(ln.links)]  # type: ignore[misc]
    return lines


def read_entries(doc: Any, pages: list[int]) -> list[Entry]:
    """Entries of the index pages in reading order. A line without references at a column's left edge opens a
    parent (or a term wrapped onto the next lines); an indented line with references under it is a sub-entry
    ("parent, sub"); a line deeper than a sub-entry continues the text above it; a line of references only
    completes the open term or extends the last entry. Running heads, letter headings and page numbers
    (lines repeated across index pages, a line of one character, a bare number) are skipped."""
    per_page = {p: page_lines(doc[p]) for p in pages}
    seen: dict[str, int] = {}
    for lines in per_page.values():
        for key in {re.sub(r"[\d\s]+", " ", ln.text).strip().casefold() for ln in lines}:
            seen[key] = seen.get(key, 0) + 1
    repeated = {k for k, c in seen.items() if c >= 2 and len(pages) >= 3 and not _ENTRY.match(k)}
    # Dot-leader indexes (Texinfo) write a sub-entry inline ("Pathnames, logical"); their lines start at
    # varying x, so there indentation only marks a wrapped term, never a sub-entry.
    body = [ln.text for lines in per_page.values() for ln in lines if _ENTRY.match(ln.text) or _LEADERS_ONLY.match(ln.text)]
    leaders = sum(bool(re.search(r"(?:\s?\.){3,}", t)) for t in body) > 0.5 * max(1, len(body))
    entries: list[Entry] = []
    parent: str | None = None  # the last top-level term (a sub-entry's parent)
    pending: list[str] = []  # text of a term whose references have not come yet
    pending_indent = 0.0
    for p, lines in per_page.items():
        for ln in lines:
            text = ln.text.strip()
            key = re.sub(r"[\d\s]+", " ", text).strip().casefold()
            if (len(text) <= 1 or re.fullmatch(r"[\divxlc]+", text, re.I) or key in repeated
                    or (_INDEX_WORD.search(text) and not _ENTRY.match(text) and ln.y0 < 0.25 * doc[p].rect.height)):
                continue
            only = _ONLY_REFS.match(text)
            if only:
                refs = _split_refs(only.group("refs"))
                if pending:
                    entries.append(Entry(_clean(" ".join(pending)), refs, ln.links, p + 1))
                    if pending_indent < 4:
                        parent = entries[-1].term
                    pending = []
                elif entries:
                    entries[-1].refs += refs
                    entries[-1].links += ln.links
                continue
            m = _ENTRY.match(text)
            if ((not m or re.search(r"\s\d+$", m.group("term"))) and ln.links and (sm := _SPACED.match(text))
                    and len(_split_refs(sm.group("refs"))) <= len(ln.links)):
                m = sm  # "floor 24, 26": no comma before the numbers, but the links confirm them
            term, refs = (m.group("term"), _split_refs(m.group("refs"))) if m else (text, [])
            done = bool(m) or bool(ln.links and _LEADERS_ONLY.match(text))
            if not m and done:
                term = _LEADERS_ONLY.match(text).group("term")
            if leaders:
                if done:
                    entries.append(Entry(_clean(" ".join([*pending, term])), refs, ln.links, p + 1))
                    pending = []
                else:
                    pending.append(term)
                continue
            if pending and ln.indent > pending_indent + 30:
                pending.append(term)  # the open term wraps onto this line
                if done:
                    entries.append(Entry(_clean(" ".join(pending)), refs, ln.links, p + 1))
                    if pending_indent < 4:
                        parent = entries[-1].term
                    pending = []
                continue
            if ln.indent < 4:  # top level
                if done:
                    entries.append(Entry(_clean(term), refs, ln.links, p + 1))
                    parent, pending = entries[-1].term, []
                else:
                    pending, pending_indent = [term], ln.indent
                    parent = _clean(term)
                continue
            if ln.indent > 30 and entries and not pending:
                continue  # a wrapped line of a finished entry that carries no reference: nothing to add
            # A sub-entry, under the open parent or the last top-level term.
            base = _clean(" ".join(pending)) if pending else parent
            full = f"{base.rstrip(',')}, {_clean(term)}" if base else _clean(term)
            if done:
                entries.append(Entry(full, refs, ln.links, p + 1))
                if pending:
                    parent = _clean(" ".join(pending))
                pending = []
            else:
                if pending:
                    parent = _clean(" ".join(pending))
                pending, pending_indent = [full], ln.indent
    return entries


def _split_refs(refs: str) -> list[str]:
    return [re.sub(r"\s+", "", r) for r in refs.split(",") if r.strip()]


def _clean(term: str) -> str:
    from query.normalize import normalize

    term = normalize(term)  # "ﬁrst" -> "first": a ligature is typesetting, not the authors' word
    term = re.sub(r"(?:\s?\.){2,}\s*$", "", term)
    return re.sub(r"\s+", " ", term).strip().rstrip(",").strip()


def _printed_pages(ref: str) -> list[int]:
    """Printed page numbers of one reference: a range of up to 5 pages expands, a longer one is its start."""
    parts = [int(x) for x in re.split(r"[-\u2013\u2014]", ref) if x]
    if len(parts) == 2 and 0 <= parts[1] - parts[0] < 5:
        return list(range(parts[0], parts[1] + 1))
    return parts[:1]


def term_match(term_words: list[str], parts: list[list[str]], page_words: list[str], page_set: set[str]) -> str:
    """How the term appears on a page: "phrase", "qualified", "words", or "" (it does not)."""
    if not term_words or not set(term_words) <= page_set:
        return ""
    # A book index inverts terms ("recursion, tail"): either order of parent and sub-entry reads as the phrase.
    if _contains(page_words, term_words) or (len(parts) > 1 and _contains(page_words, [w for x in parts[::-1] for w in x])):
        return "phrase"
    longest = max(parts, key=len) if parts else []
    if longest and len(parts) > 1 and _contains(page_words, longest):
        return "qualified"
    return "words"


def _contains(hay: list[str], needle: list[str]) -> bool:
    n = len(needle)
    first = needle[0]
    return any(hay[i:i + n] == needle for i, w in enumerate(hay) if w == first)


def questions_for(pdf: Path, cap: int | None = CAP, doc_id: str | None = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """(questions, facts) for one PDF: facts carry the index and contents pages (1-based), how targets were
    read, how many entries were read, verified and kept."""
    import pymupdf
    from query.text import tokenize

    doc_id = doc_id or pdf.stem
    doc = pymupdf.open(pdf)
    try:
        index_pages = find_index_pages(doc)
        contents = find_contents_pages(doc)
        excluded = {p + 1 for p in index_pages} | {p + 1 for p in contents}
        facts: dict[str, Any] = {"doc_id": doc_id, "pages": len(doc), "index_pages": [p + 1 for p in index_pages],
                                 "contents_pages": [p + 1 for p in contents], "entries": 0, "verified": 0,
                                 "source": "", "kept": 0}
        if not index_pages:
            return [], facts
        entries = [e for e in read_entries(doc, index_pages) if e.refs or e.links]
        facts["entries"] = len(entries)
        words_cache: dict[int, tuple[list[str], set[str]]] = {}

        def page_words(p: int) -> tuple[list[str], set[str]]:
            if p not in words_cache:
                w = _words(doc[p - 1].get_text())
                words_cache[p] = (w, set(w))
            return words_cache[p]

        def verify(term: str, pages: list[int]) -> tuple[list[int], str]:
            tw = _words(term)
            parts = [_words(x) for x in term.split(",") if _words(x)]
            kept, how = [], []
            for p in dict.fromkeys(pages):
                if 1 <= p <= len(doc) and p not in excluded:
                    m = term_match(tw, parts, *page_words(p))
                    if m:
                        kept.append(p)
                        how.append(m)
            order = ("phrase", "qualified", "words")
            return kept, (max(how, key=order.index) if how else "")

        linked = sum(bool(e.links) for e in entries)
        if linked >= max(1, len(entries) // 2):
            facts["source"], resolve = "index-link", (lambda e: e.links)
        else:
            mapping = _label_mapping(doc, entries, verify)
            if mapping is None:
                facts["source"] = "none: no links and no verified printed->physical mapping"
                return [], facts
            facts["source"], facts["mapping"] = "index-label", mapping["how"]
            resolve = mapping["resolve"]
        out, seen_terms = [], set()
        for e in entries:
            term = e.term
            if _SEE.search(term) or term.casefold() in seen_terms or not tokenize(term):
                continue
            seen_terms.add(term.casefold())
            pages, how = verify(term, resolve(e))
            if pages:
                out.append({"doc_id": doc_id, "query": term, "question": QUESTION.format(term=term),
                            "target_pages": sorted(pages), "source": facts["source"], "term_match": how})
        facts["verified"] = len(out)
        if cap is not None and len(out) > cap:
            out = [out[int((i + 0.5) * len(out) / cap)] for i in range(cap)]
        facts["kept"] = len(out)
        return out, facts
    finally:
        doc.close()


def _label_mapping(doc: Any, entries: list[Entry], verify: Any) -> dict[str, Any] | None:
    """Printed -> physical page: the document's /PageLabels when the entries confirm them, else the one offset
    that confirms the most entries (at least half of those tried, and twice the runner-up)."""
    sample = entries[:: max(1, len(entries) // 150)]
    labels: dict[str, list[int]] = {}
    for i in range(len(doc)):
        label = doc[i].get_label()
        if label:
            labels.setdefault(label, []).append(i + 1)

    def rate(resolve: Any) -> float:
        tried = [e for e in sample if resolve(e)]
        return sum(bool(verify(e.term, resolve(e))[0]) for e in tried) / len(tried) if tried else 0.0

    def by_label(e: Entry) -> list[int]:
        out = []
        for ref in e.refs:
            for n in _printed_pages(ref):
                hit = labels.get(str(n)) or []
                if len(hit) == 1:
                    out.append(hit[0])
        return out

    if labels and rate(by_label) >= 0.5:
        return {"how": "page labels", "resolve": by_label}
    scores = []
    for off in range(-5, 61):
        def shifted(e: Entry, off: int = off) -> list[int]:
            return [n + off for ref in e.refs for n in _printed_pages(ref)]
        scores.append((rate(shifted), off, shifted))
    scores.sort(key=lambda s: -s[0])
    best, second = scores[0], scores[1]
    if best[0] >= 0.5 and best[0] >= 2 * second[0]:
        return {"how": f"offset {best[1]} (confirmed by {best[0]:.2f} of sampled entries, next {second[0]:.2f})",
                "resolve": best[2]}
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pdfs", nargs="+", type=Path)
    ap.add_argument("--out", type=Path, help="questions JSONL (default: stdout)")
    ap.add_argument("--pages", type=Path, help="write excluded pages per document here (retrieval_pages.json shape)")
    ap.add_argument("--cap", type=int, default=CAP, help="at most this many questions per document")
    ap.add_argument("--all", action="store_true", help="no cap: every verified entry")
    args = ap.parse_args(argv)
    rows, docs = [], {}
    for pdf in args.pdfs:
        try:
            qs, facts = questions_for(pdf, None if args.all else args.cap)
        except Exception as exc:  # one unreadable PDF is a line in the report, not the end of the run
            print(f"{pdf.name}: failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        rows += qs
        docs[facts["doc_id"]] = {"excluded_pages": sorted(set(facts["index_pages"]) | set(facts["contents_pages"])),
                                 **{k: v for k, v in facts.items() if k != "doc_id"}}
        print(f"{facts['doc_id']}: {facts['pages']} pages, index {_span(facts['index_pages'])}, contents "
              f"{_span(facts['contents_pages'])}, {facts['entries']} entries, {facts['verified']} verified, "
              f"{facts['kept']} kept ({facts['source'] or 'no index'}{'; ' + facts['mapping'] if facts.get('mapping') else ''})",
              file=sys.stderr)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    if args.out:
        args.out.write_text(text)
    else:
        sys.stdout.write(text)
    if args.pages:
        args.pages.write_text(json.dumps({"question_template": QUESTION, "pages_are": "1-based physical page numbers",
                                          "documents": docs}, indent=1))
    return 0


def _span(pages: list[int]) -> str:
    return f"{pages[0]}-{pages[-1]}" if pages else "-"


if __name__ == "__main__":
    sys.exit(main())
