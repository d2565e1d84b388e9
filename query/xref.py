"""Cross-references in section text ("see Section 4.2", "Appendix C", "Item 7A", "Note 12") and their targets.

Detected in code, then offered to a navigator as places to go next; resolving
matches the label against node titles ("Item 7A. Quantitative and ..." is the
target of "Item 7A").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_KINDS = {
    "section": r"sections?|sec\.|§",
    "chapter": r"chapters?|chap\.",
    "appendix": r"appendix|appendices|annex|schedule",
    "item": r"items?",
    "part": r"part",
    "note": r"notes?",
    "exhibit": r"exhibits?",
    "table": r"tables?",
    "figure": r"figures?|fig\.",
}
_LABEL = r"(?:\d+(?:\.\d+)*[A-Za-z]?|[A-Z](?:\.\d+)*|[IVXLC]+)"
_REF = re.compile(
    r"\b(?P<kind>" + "|".join(f"(?:{v})" for v in _KINDS.values()) + r")\s+(?P<label>" + _LABEL + r")(?![\w.]*\w)",
    re.IGNORECASE,
)
_KIND_OF = [(k, re.compile(rf"^(?:{v})$", re.IGNORECASE)) for k, v in _KINDS.items()]


@dataclass(frozen=True)
class CrossRef:
    kind: str   # section | chapter | appendix | item | part | note | exhibit | table | figure
    label: str  # "4.2", "C", "7A", "II"
    text: str   # as written: "Section 4.2"

    def to_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "label": self.label, "text": self.text}


def _kind(word: str) -> str:
    for kind, rx in _KIND_OF:
        if rx.match(word):
            return kind
    return word.lower()


def find_refs(text: str, limit: int = 20) -> list[CrossRef]:
    """Distinct cross-references in reading order."""
    seen: dict[tuple[str, str], CrossRef] = {}
    for m in _REF.finditer(text):
        kind, label = _kind(m.group("kind")), m.group("label").rstrip(".")
        if kind in ("appendix", "part") or label[0].isdigit() or kind in ("item", "note", "exhibit"):
            key = (kind, label.upper())
        else:
            continue  # "section A" / "table I" in prose are rarely references; keep the numbered ones
        if key not in seen:
            seen[key] = CrossRef(kind, label, m.group(0))
            if len(seen) >= limit:
                break
    return list(seen.values())


def _title_pattern(ref: CrossRef) -> re.Pattern[str]:
    label = re.escape(ref.label)
    words = _KINDS.get(ref.kind, re.escape(ref.kind))
    # "Item 7A." / "Appendix C -" / "4.2 Scope" / "Note 12:" at the start of a title; the label must end there.
    return re.compile(rf"^\s*(?:(?:{words})\s+)?{label}(?![\w.]*\d)(?:[\s.:\-–—)]|$)", re.IGNORECASE)


def resolve(doc: Any, ref: CrossRef) -> str | None:
    """node_id of the section the reference points at, or None when no title matches."""
    rx = _title_pattern(ref)
    bare = ref.kind in ("section", "chapter")  # "Section 4.2" is titled "4.2 Scope" as often as "Section 4.2"
    for node in doc.nodes():
        if node.level == 0:
            continue
        title = node.title.strip()
        if rx.match(title) and (bare or title.lower().startswith(_lead(ref.kind))):
            return node.node_id
    return None


def _lead(kind: str) -> str:
    return {"appendix": "", "item": "item", "part": "part", "note": "note", "exhibit": "exhibit"}.get(kind, "")


def refs_with_targets(doc: Any, text: str, exclude: str | None = None) -> list[dict[str, Any]]:
    """Cross-references in ``text`` with their resolved node (if any), skipping self-references."""
    out = []
    for ref in find_refs(text):
        target = resolve(doc, ref)
        if target is not None and target == exclude:
            continue
        d: dict[str, Any] = ref.to_dict()
        d["node_id"] = target
        if target is not None:
            node = doc.node(target)
            d.update(title=node.title, start_page=node.start_page, end_page=node.end_page)
        out.append(d)
    return out
