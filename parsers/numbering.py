"""Section numbering and printed page numbers: pure string functions.

``parse_numbering("2.3.1 Foo")`` -> Numbering(label="2.3.1", depth=3, kind="decimal", rest="Foo").
``parse_page_number("xiv")`` -> PageNumber(14, "roman").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from parsers.memo import per_document

_ROMAN_RE = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I)
_ROMAN_VALUES = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def roman_to_int(token: str) -> int | None:
    """Value of a well-formed roman numeral (either case), else None."""
    t = token.strip()
    if not t or not _ROMAN_RE.match(t):
        return None
    total, prev = 0, 0
    for ch in reversed(t.lower()):
        v = _ROMAN_VALUES[ch]
        total = total - v if v < prev else total + v
        prev = max(prev, v)
    return total


def int_to_roman(n: int) -> str:
    """Lower-case roman numeral for 1 <= n < 4000."""
    out = []
    for value, sym in ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
                       (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)


@dataclass(frozen=True)
class PageNumber:
    value: int
    kind: str  # "arabic" | "roman"


_ARABIC_PAGE = re.compile(r"^\d{1,5}$")
# Prefixed page numbers as in "A-3" or "T-1" (appendix / per-chapter numbering) keep only the number.
_PREFIXED_PAGE = re.compile(r"^([A-Z]{1,2})[-\u2013.](\d{1,4})$")


def parse_page_number(token: str) -> PageNumber | None:
    """A printed page number: arabic (1..99999) or roman (lower or upper case), else None."""
    t = token.strip().strip("[]()")
    if _ARABIC_PAGE.match(t):
        v = int(t)
        return PageNumber(v, "arabic") if v > 0 else None
    if len(t) <= 12:
        r = roman_to_int(t)
        if r is not None:
            return PageNumber(r, "roman")
    return None


@dataclass(frozen=True)
class Numbering:
    label: str  # the numbering as printed, e.g. "2.3", "A.1", "IV", "Chapter 3", "Item 7A"
    depth: int  # 1 for "2", "A", "Chapter 3"; 2 for "2.3", "A.1"; ...
    kind: str  # decimal | letter | roman | chapter | part | appendix | section | item
    rest: str  # the title without its numbering


_WORD_KINDS = {
    "part": "part", "chapter": "chapter", "chap.": "chapter", "appendix": "appendix", "annex": "appendix",
    "section": "section", "item": "item", "lesson": "chapter", "unit": "chapter", "book": "part",
    "kapitel": "chapter", "chapitre": "chapter", "teil": "part", "anhang": "appendix", "annexe": "appendix",
    "capítulo": "chapter", "capitulo": "chapter", "parte": "part", "apéndice": "appendix",
}
_WORD_RE = re.compile(
    r"^(?P<word>" + "|".join(re.escape(w) for w in sorted(_WORD_KINDS, key=len, reverse=True)) + r")\s+"
    r"(?P<num>\d{1,3}[A-Za-z]?(?:\.\d{1,3})*|[IVXLCDM]{1,7}|[ivxlcdm]{1,7}|[A-Z])\b[.:)\u2013\u2014-]*\s*(?P<rest>.*)$",
    re.I,
)
_DECIMAL_RE = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3}){0,6})(?P<dot>\.?)(?:\s+|$)(?P<rest>.*)$")
_LETTER_RE = re.compile(r"^(?P<num>[A-Z](?:\.\d{1,3}){1,6})\.?(?:\s+|$)(?P<rest>.*)$")
_LETTER_ONE_RE = re.compile(r"^(?P<num>[A-Z])[.)]\s+(?P<rest>.*)$")
_ROMAN_NUM_RE = re.compile(r"^(?P<num>[IVXLCDM]{1,7})[.)]?\s+(?P<rest>.*)$")


@per_document  # asked of each head line four or five times while a document is read
def parse_numbering(text: str) -> Numbering | None:
    """The leading numbering of a heading or TOC title, or None if it has none."""
    t = " ".join(text.split())
    m = _WORD_RE.match(t)
    if m:
        kind = _WORD_KINDS[m.group("word").lower()]
        num = m.group("num")
        return Numbering(f"{m.group('word')} {num}", 1 + num.count("."), kind, m.group("rest").strip())
    m = _DECIMAL_RE.match(t)
    if m and (m.group("rest") or "." in m.group("num") or m.group("dot")):
        num = m.group("num")
        # "2019 Annual report": a year is not a section number.
        if "." not in num and len(num) >= 3:
            return None
        return Numbering(num, num.count(".") + 1, "decimal", m.group("rest").strip())
    m = _LETTER_RE.match(t)
    if m:
        num = m.group("num")
        return Numbering(num, num.count(".") + 1, "letter", m.group("rest").strip())
    m = _LETTER_ONE_RE.match(t)
    if m and m.group("rest"):
        return Numbering(m.group("num"), 1, "letter", m.group("rest").strip())
    m = _ROMAN_NUM_RE.match(t)
    # Upper-case only, and not the English pronoun "I" without a dot ("I Gnuplot" is LaTeX's Part I, though).
    if m and roman_to_int(m.group("num")) and m.group("rest")[:1].isupper():
        return Numbering(m.group("num"), 1, "roman", m.group("rest").strip())
    return None


def numbering_rank(n: Numbering) -> tuple[int, int]:
    """Sort key for nesting: parts above chapters above sections; deeper decimals below."""
    base = {"part": 0, "roman": 0, "chapter": 1, "appendix": 1, "item": 1, "section": 1, "letter": 1, "decimal": 1}[n.kind]
    return base, n.depth
