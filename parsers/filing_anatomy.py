"""The anatomy of SEC periodic reports: forms, Parts, Items and their canonical titles (Regulation S-K).

One vocabulary for every reader of filings: the HTML path (``html_filing``) and the PDF chain (``filing_pdf``,
``filings``) both read Items with it and choose them with the same ordered chain (``best_chain``). Nothing here is fitted to particular filings: it is the forms' own table of Items (Form 10-K General
Instructions, Form 10-Q Parts I and II), the ways filers number them ("Item 1A.", "ITEM 7A:", "Items 10, 11,
12, 13 and 14") and the rank of each Item in its form's order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

FORM_10K, FORM_10Q = "10-K", "10-Q"

# Form 10-K: Part, Item number, canonical title. 1C (2023), 9C (2022) and 16 (2016) are newer Items.
ITEMS_10K: tuple[tuple[str, str, str], ...] = (
    ("I", "1", "Business"), ("I", "1A", "Risk Factors"), ("I", "1B", "Unresolved Staff Comments"),
    ("I", "1C", "Cybersecurity"), ("I", "2", "Properties"), ("I", "3", "Legal Proceedings"),
    ("I", "4", "Mine Safety Disclosures"),
    ("II", "5", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of Equity Securities"),
    ("II", "6", "[Reserved]"),
    ("II", "7", "Management's Discussion and Analysis of Financial Condition and Results of Operations"),
    ("II", "7A", "Quantitative and Qualitative Disclosures About Market Risk"),
    ("II", "8", "Financial Statements and Supplementary Data"),
    ("II", "9", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure"),
    ("II", "9A", "Controls and Procedures"), ("II", "9B", "Other Information"),
    ("II", "9C", "Disclosure Regarding Foreign Jurisdictions that Prevent Inspections"),
    ("III", "10", "Directors, Executive Officers and Corporate Governance"), ("III", "11", "Executive Compensation"),
    ("III", "12", "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder Matters"),
    ("III", "13", "Certain Relationships and Related Transactions, and Director Independence"),
    ("III", "14", "Principal Accountant Fees and Services"),
    ("IV", "15", "Exhibits and Financial Statement Schedules"), ("IV", "16", "Form 10-K Summary"),
)
# Form 10-Q: Part I "Financial Information", Part II "Other Information".
ITEMS_10Q: tuple[tuple[str, str, str], ...] = (
    ("I", "1", "Financial Statements"),
    ("I", "2", "Management's Discussion and Analysis of Financial Condition and Results of Operations"),
    ("I", "3", "Quantitative and Qualitative Disclosures About Market Risk"), ("I", "4", "Controls and Procedures"),
    ("II", "1", "Legal Proceedings"), ("II", "1A", "Risk Factors"),
    ("II", "2", "Unregistered Sales of Equity Securities and Use of Proceeds"),
    ("II", "3", "Defaults Upon Senior Securities"), ("II", "4", "Mine Safety Disclosures"),
    ("II", "5", "Other Information"), ("II", "6", "Exhibits"),
)
PART_TITLES = {FORM_10Q: {"I": "Financial Information", "II": "Other Information"}}
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4}


def items(form: str) -> tuple[tuple[str, str, str], ...]:
    return ITEMS_10Q if form == FORM_10Q else ITEMS_10K


def item_rank(form: str, part: str, number: str) -> int | None:
    """Position of (part, number) in the form's order, or None when the form has no such Item. A 10-K's
    Items are numbered through the form, so its part is implied by the number."""
    for i, (p, n, _) in enumerate(items(form)):
        if n == number and (form != FORM_10Q or p == part):
            return i
    return None


def parts_of(form: str, number: str) -> list[str]:
    """The Parts of ``form`` that have an Item ``number`` (a 10-Q's Item 1 is in both)."""
    return [p for p, n, _ in items(form) if n == number]


def canonical_title(form: str, part: str, number: str) -> str:
    for p, n, title in items(form):
        if n == number and (form != FORM_10Q or p == part):
            return title
    return ""


def item_id(form: str, part: str, number: str) -> str:
    """The Item's id as the EDGAR datasets spell it: ``item1a`` (10-K), ``part2item1a`` (10-Q)."""
    number = number.lower()
    return f"part{ROMAN[part]}item{number}" if form == FORM_10Q else f"item{number}"


# "Item 1A.", "ITEM 7A:", "Item 9C —", "Item 1 and 2.", "Items 10, 11, 12, 13 and 14"; numbers 1-16, letter A-D.
_NUM = r"(?:1[0-6]|[1-9])(?:\s?[A-Da-d])?(?![\w])"
ITEM_HEAD = re.compile(
    rf"^\s*items?\s*(?P<nums>{_NUM}(?:\s*(?:,|and|&|through|to|-|\u2013)\s*{_NUM})*)\s*(?:[.:\u2013\u2014-]\s*|(?=\s|\||$))"
    r"(?P<rest>.*)$", re.I | re.S)
PART_HEAD = re.compile(r"^\s*part\s+(?P<part>IV|I{1,3})\b\s*(?:[.:\u2013\u2014-]\s*)?(?P<rest>.*)$", re.I | re.S)
SIGNATURES = re.compile(r"^\s*signatures?\s*[.:]?\s*$", re.I)
EXHIBIT_INDEX = re.compile(r"^\s*(?:exhibit\s+index|index\s+to\s+exhibits)\s*[.:]?\s*$", re.I)
FORM_TYPE = re.compile(r"\bform\s+(10-K|10-Q)(?:/A)?\b", re.I)
EXHIBIT_LABEL = re.compile(r"^\s*exhibit\s+\d{1,3}(?:\.\d{1,3})*(?:\s?\([a-z0-9]{1,3}\)|[a-z])?\s*[.:]?\s*$", re.I)


def closes_items(title: str) -> bool:
    """Whether a heading after the last Item is back matter (the signatures, the exhibit index, an exhibit's
    label), which follows the Items rather than belonging to the last of them. Letter-spaced heads read as one
    word ("SIGNATURE S": a PDF's glyph spacing, not the filer's)."""
    return bool(SIGNATURES.match(title) or SIGNATURES.match(re.sub(r"\s+", "", title))
                or EXHIBIT_INDEX.match(title) or EXHIBIT_LABEL.match(title))


@dataclass(frozen=True)
class ItemRef:
    numbers: tuple[str, ...]  # "1A", or several for a combined heading ("10", "11", ... "14")
    rest: str  # what follows the number: the title, or nothing when the title sits in the next cell


_ITEM_START = re.compile(r"\s*item", re.I)  # what ITEM_HEAD needs first, before the text is normalised
_PART_START = re.compile(r"\s*part", re.I)


def parse_item(text: str) -> ItemRef | None:
    """An Item label at the start of ``text`` ("Item 1A. Risk Factors", "Items 10, 11 and 12"), or None."""
    if not _ITEM_START.match(text):  # most blocks: normalising each of a filing's blocks costs more than this
        return None
    text = " ".join(text.replace("|", " | ").split())
    m = ITEM_HEAD.match(text)
    if not m:
        return None
    raw = re.findall(r"1[0-6](?:\s?[A-Da-d])?(?!\w)|[1-9](?:\s?[A-Da-d])?(?!\w)", m.group("nums"))
    nums = [n.replace(" ", "").upper() for n in raw]
    if re.search(r"through|to|-|\u2013", m.group("nums")) and len(nums) == 2 and nums[0].isdigit() and nums[1].isdigit():
        nums = [str(n) for n in range(int(nums[0]), int(nums[1]) + 1)]
    rest = m.group("rest").strip(" |.:\u2013\u2014-")
    return ItemRef(tuple(dict.fromkeys(nums)), rest)


def parse_part(text: str) -> str | None:
    """"I".."IV" when ``text`` is a Part heading ("PART II", "Part II — Other Information"), else None."""
    if not _PART_START.match(text):
        return None
    text = " ".join(text.replace("|", " ").split())
    m = PART_HEAD.match(text)
    if not m or len(text) > 80:
        return None
    rest = m.group("rest").strip()
    # "Part II of this report contains ..." is a sentence, not a heading.
    if rest and rest[0].islower():
        return None
    return m.group("part").upper()


def detect_form(texts: list[str]) -> str | None:
    """10-K or 10-Q from the cover page's "FORM 10-Q" line, else from the first mention, else None. The line
    wins: a 10-Q's cover may cite "our Annual Report on Form 10-K" before naming its own form."""
    for text in texts:
        m = FORM_TYPE.search(text)
        if m and len(text) <= 40:
            return m.group(1).upper()
    for text in texts:
        m = FORM_TYPE.search(text)
        if m:
            return m.group(1).upper()
    return None


def title_case(rest: str, share: float = 0.6) -> bool:
    """Heading case: capitals or title case (a heading), not a sentence that merely cites an Item; ``share`` of
    the words longer than three letters start with a capital."""
    words = [w for w in re.findall(r"[A-Za-z][\w'\u2019-]*", rest) if len(w) > 3]
    if not words:
        return True
    caps = sum(w[0].isupper() for w in words)
    return caps >= share * len(words)


@dataclass
class Candidate:
    """One reading of an Item label at a position (a block, a line) of the document."""

    block: int
    numbers: tuple[str, ...]
    part: str  # the Part this reading assigns ("I".."IV")
    lo: int  # rank of the first number in the form's order
    hi: int  # rank of the last one
    weight: float
    title: str
    source: str  # where the reader found it ("toc_link", "styled", "text", "index_row", ...)


def readings(form: str, ref: ItemRef) -> list[tuple[str, int, int]]:
    """(part, lo, hi) for each Part the Item label can belong to (a 10-Q's Item 1 is in both Parts)."""
    out = []
    for part in (parts_of(form, ref.numbers[0]) if form == FORM_10Q else ["*"]):
        ranks = sorted({r for r in (item_rank(form, part, n) for n in ref.numbers) if r is not None})
        if ranks:
            # "Items 10, 11, 12, 13 and 14" spans its run of the form's order; "Items 1 and 2. Business and
            # Properties" skips 1A-1C, which the filer then sets after it: such a heading holds only its first
            # run, so the Items it skipped may still follow.
            hi = ranks[0]
            while hi + 1 in ranks:
                hi += 1
            out.append((part if part != "*" else items(form)[ranks[0]][0], ranks[0], hi))
    return out


def best_chain(cands: list[Candidate]) -> list[Candidate]:
    """The heaviest chain increasing in position and in form order (one candidate per position): a contents
    row, a running header or a sentence citing an Item cannot put one out of order (a weighted longest
    increasing subsequence; among equal chains the earliest candidates)."""
    cands = sorted(cands, key=lambda c: (c.block, c.lo, -c.weight))
    n = len(cands)
    score = [c.weight for c in cands]
    prev = [-1] * n
    for j in range(n):
        for i in range(j):
            a, b = cands[i], cands[j]
            if a.block < b.block and a.hi < b.lo and score[i] + b.weight > score[j]:
                score[j], prev[j] = score[i] + b.weight, i
    if not n:
        return []
    j = max(range(n), key=lambda k: (score[k], -k))
    chain = []
    while j >= 0:
        chain.append(cands[j])
        j = prev[j]
    return chain[::-1]
