"""Printed table of contents: find its pages, read its entries and their hierarchy.

Works on positioned lines (parsers.layout), so born-digital and OCR pages are
treated alike. Pages are screened cheaply on plain text first; only candidate
pages get a positioned layout. Entries keep the printed page token; mapping it
to a physical page is parsers.offsets' job.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from parsers.layout import Line, PageLayout
from parsers.memo import per_document
from parsers.numbering import Numbering, PageNumber, parse_numbering, parse_page_number, roman_to_int

# "Contents" headings in a few languages and casings (Danish/Norwegian "Indhold"/"Innhold", Swedish "Innehåll",
# Finnish "Sisällys", Czech "Obsah" as well); "Index of Sections" as in the issue.
_HEADING_RE = re.compile(
    r"^\s*(?:table\s+of\s+contents?|contents?|index\s+of\s+sections|short\s+contents|brief\s+contents|"
    r"inhaltsverzeichnis|inhalt|table\s+des\s+mati[eè]res|sommaire|[íi]ndice(?:\s+general)?|contenido|"
    r"indice|sum[aá]rio|sommario|inhoud|inhoudsopgave|indhold(?:sfortegnelse)?|innhold(?:sfortegnelse)?|"
    r"inneh[aå]ll(?:sf[oö]rteckning)?|sis[aä]llys(?:luettelo)?|obsah|spis\s+tre[sś]ci|содержание|оглавление|目次|目录)\s*:?\s*$",
    re.I,
)
# The section number a document may give its contents' own heading ("1 Table of contents", ConTeXt's), where the contents
# then lists itself as its first entry, with a page number ("1 Table of contents 2"), which the heading has not.
_SECTION_NUMBER = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2})*\.?\s+(?=\S)")
# Lists that look like a TOC but are not one.
_NOT_TOC_RE = re.compile(r"^\s*(?:list\s+of\s+(?:figures|tables|illustrations|listings|examples)|index|glossary)\s*$", re.I)
# A running head naming an index or a generated list the page belongs to, with its section number and folio ("4.1
# Class Hierarchy 3", "5 Class Index 9", "File List 12"): a reference manual's index of classes or files, one name
# and page number a line, in page order as often as not, is set like a contents but is not one.
_INDEX_HEAD_RE = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:[^\W\d_][\w-]*\s+){0,2}(?:index|hierarchy|list)"
                            r"(?:\s+(?:\d{1,5}|[ivxlcdm]{1,8}))?\s*$", re.I)


def _under_index_head(lay: PageLayout) -> bool:
    """The page's running head names an index or a generated list: its first line, in the top 9 % of the page, set
    apart from the lines below it by more than they are from each other (a listing's row that opens a page, "Subject
    Index 201", is spaced as the rows are)."""
    lines = [ln for ln in lay.lines if ln.text.strip()]
    if len(lines) < 4:
        return False
    first = lines[0]
    if first.y1 >= lay.height * 0.09 or _HEADING_RE.match(first.text) or not _INDEX_HEAD_RE.match(first.text):
        return False
    gaps = sorted(b.y0 - a.y1 for a, b in zip(lines[1:], lines[2:12]))
    return lines[1].y0 - first.y1 > 1.5 * max(gaps[len(gaps) // 2], 1.0)


def _lists_something_else(lay: PageLayout) -> bool:
    """A page set like a contents that lists something else: headed "List of Figures", "Index", "Glossary" among its
    first lines, or under an index's or a generated list's running head."""
    return any(_NOT_TOC_RE.match(ln.text) for ln in lay.lines[:6]) or _under_index_head(lay)
# Spaces belong to the leader character before them only: "(?:\s*[.]\s*){3,}" let every run of spaces split
# two ways and backtracked exponentially on index lines that end in something other than leaders.
_LEADER_RE = re.compile(r"\s*(?:[.\u00b7\u2024\u2026_\u2022]\s*){3,}$|\s*\u2026+\s*$")
_LEADER_ANY = re.compile(r"(?:[.\u00b7\u2024_]\s?){4,}|\u2026")
#: Four or more full stops, each followed by at most one space: a dot leader inside a line, never a heading's.
DOT_LEADERS = re.compile(r"(?:\.\s?){4,}")
_TRAIL_RE = re.compile(r"^(?P<title>.*?\S)[\s.\u00b7\u2024\u2026_]*?\s+(?P<page>\d{1,5}|[ivxlcdmIVXLCDM]{1,12})\s*$")
_TRAIL_DOTTED_RE = re.compile(r"^(?P<title>.*?\S)\s*(?:[.\u00b7\u2024_]\s?){2,}\s*(?P<page>\d{1,5}|[ivxlcdmIVXLCDM]{1,12})\s*$")
# A page number after a section's letter ("F-1", "A\u2013iii": a filing's financial pages, a book's appendix numbered
# apart), printed after leaders or a space.
_TRAIL_PREFIXED_RE = re.compile(r"^(?P<title>.*?\S)(?:\s*(?:[.\u00b7\u2024_]\s?){2,}\s*|\s+)"
                                r"(?P<prefix>[A-Z]{1,2})[-\u2013]\s?(?P<page>\d{1,4}|[ivxlcdm]{1,8})\s*$")


def _without_lettered_page(text: str) -> str:
    """``text`` without a page number after a section's letter at its end ("Bibliography A\u2013vii", "Financial
    Statements . . . F-1"); ``text`` itself when there is none, or when the letter and number name a thing ("Exhibit
    A-1", "Form S-1"). The number is no page the offsets can map (the folios they read as pages are arabic or roman):
    the entry stays one without a page number, placed by its link or its title, but its title is the title alone."""
    m = _TRAIL_PREFIXED_RE.match(text)
    if m is None:
        return text
    between = text[m.end("title"):m.start("prefix")]
    if m.group("page").isdigit() and "." not in between and m.group("title").split()[-1].lower().rstrip(".:") in _LABEL_WORDS:
        return text
    return m.group("title")


_NUMBERED_WORDS = {"part", "appendix", "chapter", "item", "section", "book", "volume", "annex", "teil", "kapitel"}
# Words a letter-dash-number names a thing after ("Exhibit A-1", "Form S-1", "Schedule B-2"), not a page.
_LABEL_WORDS = _NUMBERED_WORDS | {"exhibit", "schedule", "form", "table", "figure", "note", "anhang", "annexe"}


@dataclass(frozen=True)
class TocLine:
    """A TOC line split into title and printed page (``page`` None when the line has no number)."""

    title: str
    page: PageNumber | None
    leader: bool


# A section number glued to a title that opens with a letter or a command character ("24.104\\addindex": the
# number overflowed the box a generated contents sets it in), also with the dot that ends a number in some languages'
# typesetting ("3.8.16.2.Results": babel's Spanish numbers sections "3.14." and the number's box overflows the same way).
_GLUED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+\.?)(?=[^\W\d_]|[\\@#<\[{])")
# A Part's roman number glued the same way ("VII.Anhang": LaTeX's part line), its dot before a capitalised word; two
# letters or more ("X.Org" is a name).
_GLUED_ROMAN = re.compile(r"^([IVX]{2,6}\.)(?=[A-Z][a-z])")


def _unglued(text: str) -> str:
    """``text`` on one line of single spaces, a section number glued to its title set apart from it."""
    return _GLUED_ROMAN.sub(r"\1 ", _GLUED_NUMBER.sub(r"\1 ", " ".join(text.split())))


# A release's section is often titled by its version and date alone ("2.7 (2022-12-03)"): a title without letters
# that is still no table row.
_DATED = re.compile(r"(?:\d{1,3}(?:\.\d{1,3})*\.?\s+)?[(\[]?(?:19|20)\d\d-[01]\d-[0-3]\d[)\]]?")


# Pure and asked of the same lines again (a contents page is read when it is found and again with the listing's
# running heads known): its answers are frozen values, so one per text serves every caller while one document is read
# (parsers.memo); nothing is kept from one document into the next.
@per_document
def parse_toc_line(text: str) -> TocLine | None:
    """Split "1.2 Foo . . . . 17" / "Foo 17" / "Foo ... xiv" into title and page number.

    Returns None for text with no letters in the title part (numeric table rows, bare numbers).
    """
    # "18.10tie": a rewritten PDF (Ghostscript) can lose the space after a section number.
    t = _unglued(text)
    if not t:
        return None
    dotted = _TRAIL_DOTTED_RE.match(t)
    m = dotted or _TRAIL_RE.match(t)
    page: PageNumber | None = None
    title = t
    leader = False
    if not m:
        title = _without_lettered_page(t)
    if m:
        cand = parse_page_number(m.group("page"))
        head = m.group("title")
        if cand is not None and not (cand.kind == "roman" and head.split()[-1].lower() in _NUMBERED_WORDS):
            page = cand
            # Two or more dots right before the number are a (short) leader: ". . 201" after a long title.
            leader = dotted is not None or bool(_LEADER_ANY.search(t[: m.start("page")] + " "))
            title = head
    title = _LEADER_RE.sub("", title)
    if not leader and page is None:
        # The "Page" column header run into the line, which then has no number of its own; leaders after it, or its
        # own number, make "Page" the title's last word ("2.5 The Zsh Web Page . . . 2", Doxygen's "1 Main Page 1").
        title = _PAGE_SUFFIX.sub("", title)
    title = title.strip(" .\u00b7\u2024\u2026_\t")
    if not re.search(r"[^\W\d_]", title) and not _DATED.fullmatch(title):
        return None
    return TocLine(title, page, leader)


@dataclass
class TocEntry:
    title: str
    page: PageNumber | None
    level: int
    numbering: Numbering | None
    toc_page: int  # physical page the entry was printed on
    x0: float = 0.0
    size: float = 0.0
    bold: bool = False
    link: int | None = None  # target of a link annotation on the entry's line, if any
    physical: int | None = None  # filled by parsers.offsets
    status: str = ""  # verified | corrected | linked | unverifiable (parsers.offsets)
    extra: dict = field(default_factory=dict)


# TeX's old 7-bit fonts draw an accent as a glyph of its own before the letter ("D\u00b4efinitions", "Mises `a jour",
# "c\u00b8" for a cedilla): the text layer keeps the spacing accent, the author's outline has "Définitions".
_SPACING_ACCENT = {"\u00b4": "\u0301", "`": "\u0300", "\u02c6": "\u0302", "\u00a8": "\u0308", "\u02dc": "\u0303"}
_ACCENT_BEFORE = re.compile(r"(?<![^\W\d_])([\u00b4`\u02c6\u00a8\u02dc])\s?([aeiouyAEIOUYnN\u0131])|"
                            r"(?<=[^\W\d_])([\u00b4\u02c6\u00a8\u02dc])\s?([aeiouyAEIOUYnN\u0131])")
_CEDILLA = re.compile(r"([cC])\s?\u00b8|\u00b8\s?([cC])")


def spell_accents(title: str) -> str:
    """A title with TeX's separately drawn accents put on their letters ("D\u00b4efinitions" -> "Définitions"). A
    backquote counts only where it cannot be code: no other backquote, no closing quote, not in a path."""
    if not any(ch in title for ch in "\u00b4`\u02c6\u00a8\u02dc\u00b8"):
        return title
    code = title.count("`") > 1 or "'" in title or "/" in title

    def put(m: re.Match) -> str:
        accent, letter = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if code and accent == "`":
            return m.group(0)
        return unicodedata.normalize("NFC", letter.replace("\u0131", "i") + _SPACING_ACCENT[accent])

    out = _ACCENT_BEFORE.sub(put, title)
    return _CEDILLA.sub(lambda m: unicodedata.normalize("NFC", (m.group(1) or m.group(2)) + "\u0327"), out)


# -- page screening ------------------------------------------------------------------

_NUMBER_LINE = re.compile(r"^\s*(?:\d{1,4}|[ivxlcdm]{1,7})\s*$", re.I)


_TRAILING_NUMBER = re.compile(r"^(?P<title>.*[^\W\d_].*?)\s+(?P<num>\d{1,4})$")


def listing_like(text: str, page_count: int) -> bool:
    """Cheap test for a contents listing printed without a heading or leaders.

    Six or more titles each followed by a page number (on the same line or the next), page numbers
    that never go backwards and stay within the document, and such pairs making up most of the page.
    """
    lines = [" ".join(ln.split()) for ln in text.splitlines() if ln.strip()]
    numbers: list[int] = []
    paired = 0
    for i, ln in enumerate(lines):
        # The pattern backtracks over the whole line (quadratic): only a line ending in a digit can match.
        m = _TRAILING_NUMBER.match(ln) if ln[-1:].isdigit() else None
        if m:
            numbers.append(int(m.group("num")))
            paired += 1
        elif ln.isdigit() and i > 0 and re.search(r"[^\W\d_]{2}", lines[i - 1]) and not lines[i - 1][-1:].isdigit():
            numbers.append(int(ln))
            paired += 2
    if len(numbers) < 6 or paired < 0.6 * len(lines) or max(numbers) > page_count + 50:
        return False
    forward = sum(1 for a, b in zip(numbers, numbers[1:]) if b >= a)
    return forward >= 0.9 * (len(numbers) - 1)


def running_contents_head(text: str) -> bool:
    """A contents page's running head: the contents heading with the page's folio before or after it."""
    words = text.split()
    if len(words) < 2:
        return False
    if parse_page_number(words[0]) is not None:
        return bool(_HEADING_RE.match(" ".join(words[1:])))
    return parse_page_number(words[-1]) is not None and bool(_HEADING_RE.match(" ".join(words[:-1])))


def _numbered_heading(text: str) -> bool:
    """A contents heading, with or without a section number before it ("1 Table of contents")."""
    return bool(_HEADING_RE.match(text) or _HEADING_RE.match(_SECTION_NUMBER.sub("", text, count=1)))


def is_heading(text: str) -> bool:
    return bool(_HEADING_RE.match(text))


def screen_page(text: str) -> tuple[bool, int]:
    """Cheap test on plain text: (has a contents heading near the top, number of leader runs)."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    heading = any(_HEADING_RE.match(ln) for ln in lines[:8])
    leaders = len(_LEADER_ANY.findall(text))
    return heading, leaders


# -- reading entries from a page's lines ------------------------------------------------


def _split_columns(line: Line) -> list[Line]:
    """Split a merged visual line at a wide gap that follows a page number (multi-column TOCs)."""
    words = line.words
    if len(words) < 4:
        return [line]
    cuts = []
    for i in range(1, len(words) - 1):
        if words[i].x0 - words[i - 1].x1 <= 36 or parse_page_number(words[i - 1].text) is None:
            continue
        # The words since the last cut are joined only at a candidate cut: joining them for every word was quadratic
        # in a line's words (a third of a long two-column contents' structure time).
        left = " ".join(w.text for w in words[(cuts[-1] if cuts else 0):i])
        if re.search(r"[^\W\d_]{2}", left):
            cuts.append(i)
    if not cuts:
        return [line]
    out = []
    bounds = [0] + cuts + [len(words)]
    for a, b in zip(bounds, bounds[1:]):
        ws = words[a:b]
        out.append(Line(" ".join(w.text for w in ws), ws[0].x0, line.y0, ws[-1].x1, line.y1, line.size, line.bold, line.font, list(ws)))
    return out


def _part(line: Line, words: list) -> Line:
    """One column's words of a merged line, with their own weight where the words carry it (a wrapped title's second
    line in one column shares its baseline with a bold chapter entry in the other, and the merged line is bold)."""
    letters = [(sum(map(str.isalpha, w.text)), w.bold) for w in words if w.bold is not None]
    bold = line.bold if not letters else sum(n for n, b in letters if b) > sum(n for n, b in letters if not b)
    return replace(line, text=" ".join(w.text for w in words), x0=words[0].x0, x1=words[-1].x1, words=list(words),
                   max_gap=0.0, bold=bold)


def _reading_lines(page: PageLayout) -> list[Line]:
    """A page's non-empty lines in reading order: a two-column contents column by column."""
    lines = [ln for ln in page.lines if ln.text.strip()]
    return _two_columns(lines, page.width) or lines


def _spans(line: Line) -> list[tuple[float, float]]:
    """The stretches of a line that a column gutter cannot cross: its words, with gaps under 8 pt closed."""
    ws = line.words
    if not ws:
        return []
    out = []
    start, end = ws[0].x0, ws[0].x1
    for w in ws[1:]:
        x0, x1 = w.x0, w.x1
        if x0 - end >= 8:
            out.append((start, end))
            start = x0
        if x1 > end:  # max(end, x1) without a call per word: a dense contents page has thousands (leader dots)
            end = x1
    out.append((start, end))
    return out


def _two_columns(lines: list[Line], width: float) -> list[Line] | None:
    """A contents set in two columns (LaTeX's \\twocolumn contents): lines read column by column, or None.

    The text layer merges the two columns' entries that share a baseline into one line, so wrapped titles
    and entries of the two columns interleave. Two columns are a vertical gutter in the middle of the page
    that the lines of the listing do not cross (full-width text above or below it may), with entries on both
    sides: titles with letters and page numbers ending many parts on each side. A one-column listing whose
    page numbers sit far right has numbers only on the right, so it is never split."""
    if len(lines) < 8:
        return None
    lo, hi = int(width * 0.35), int(width * 0.65)
    spans = [_spans(ln) for ln in lines]
    # How many lines a cut at each position (every 2 pt across the middle) would go through.
    blocked = [0] * ((hi - lo) // 2 + 1)
    for segs in spans:
        for a, b in segs:
            for k in range(max(0, math.floor((a - lo) / 2) + 1), min(len(blocked), math.ceil((b - lo) / 2))):
                blocked[k] += 1
    k = min(range(len(blocked)), key=lambda k: (blocked[k], abs(lo + 2 * k - width / 2)))
    if blocked[k] > len(lines) // 4:
        return None
    cut = lo + 2 * k

    def clear(i: int) -> bool:  # a line without word boxes stays whole, where it is
        return bool(spans[i]) and not any(a < cut < b for a, b in spans[i])

    out: list[Line] = []
    lefts: list[Line] = []
    rights: list[Line] = []
    pairs = 0
    for i, ln in enumerate(lines + [None]):
        if ln is None or not clear(i):
            out += lefts + rights  # a run of two-column lines ends: its left column, then its right one
            lefts, rights = [], []
            if ln is not None:
                out.append(ln)
            continue
        left = [w for w in ln.words if w.x1 <= cut]
        right = [w for w in ln.words if w.x0 >= cut]
        if left:
            lefts.append(_part(ln, left))
        if right:
            rights.append(_part(ln, right))
        pairs += bool(left and right)

    def entries(side: str) -> int:
        return sum(1 for p in out if (p.x0 >= cut if side == "r" else p.x1 <= cut)
                   and re.search(r"[^\W\d_]{2}", p.text) and bool(p.words) and parse_page_number(p.words[-1].text))

    if pairs < 4 or entries("l") < 3 or entries("r") < 3:
        return None
    return out


def _header_footer_keys(pages: Sequence[PageLayout]) -> set[str]:
    """Normalized first/last lines that repeat across pages (running headers and footers)."""
    counts: Counter[str] = Counter()
    for page in pages:
        edge = page.lines[:2] + page.lines[-2:]
        for line in {id(x): x for x in edge}.values():
            counts[_edge_key(line.text)] += 1
    return {k for k, c in counts.items() if c >= 2 and k}


RUNNING_BAND = 0.15  # share of the page's height at its top and bottom a running head or foot may sit in


def _edge_line(i: int, lines: list[Line], page: PageLayout) -> bool:
    """The page's first or last line, in the top or bottom 15 % of the page: where a running head or foot is set
    even under a deep top margin ("Surface Evolver Manual 3" whose box ends at 11 % of the page, below the 9 % band
    the other margin tests use). Only a line of ``_running_keys`` is dropped as one."""
    if i not in (0, len(lines) - 1):
        return False
    ln = lines[i]
    return ln.y1 < page.height * RUNNING_BAND or ln.y0 > page.height * (1 - RUNNING_BAND)


def _running_keys(layouts: Sequence[PageLayout], readings: Sequence[list[Line]]) -> set[str]:
    """Normalized first or last lines of the contents pages (and of the pages either side) that are running heads or
    feet: the same words on two pages or more, with a number that is the page's own folio, as it goes up one a page ("Surface Evolver Manual 3"
    on the third page, "... 4" on the fourth; "SUN/211.30 —Contents iv"), never above the page's place in the
    file. A listing's rows that happen to open or close two pages ("3.3.1 Memory management 85" and "4.2.1 Memory
    management 218"; "Examples 46" closing one page and "Examples 47" opening the next) list pages of the body, past
    the contents."""
    shifts: dict[str, set[int]] = {}  # folio minus physical page, per key
    pages: dict[str, set[int]] = {}
    for lay, lines in zip(layouts, readings):
        for ln in {id(x): x for x in lines[:1] + lines[-1:]}.values():
            words = ln.text.split()
            folio = next((n for n in map(parse_page_number, words[-1:] + words[:1]) if n is not None), None)
            if folio is not None and folio.value <= lay.number:  # a page's folio never runs ahead of the file's count
                key = _edge_key(ln.text)
                shifts.setdefault(key, set()).add(folio.value - lay.number)
                pages.setdefault(key, set()).add(lay.number)
    return {k for k, got in shifts.items() if len(got) == 1 and len(pages[k]) >= 2}


def _edge_key(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlcdm]+\b", "#", text.lower()).strip()


@dataclass
class _Raw:
    line: Line
    parsed: TocLine
    page: int
    shared: bool = False  # one of several entries run into one line: the line's link is not its own


def read_page_entries(page: PageLayout, skip_keys: set[str] | None = None, first: bool = False,
                      lines: list[Line] | None = None, running: set[str] | None = None) -> list[_Raw]:
    """Candidate TOC lines of one page, multi-line titles joined; running headers/footers dropped.

    A trailing number counts as a page number only on a dotted line or when it sits on the
    common right edge of the page's numbers; otherwise (a year ending a wrapped title) the
    line is text and may join the next one.
    """
    lines = _reading_lines(page) if lines is None else lines  # the caller may have them already
    start = 0
    if first:
        # The last "Contents" line among the first ones: a running "Table of Contents" link may come first.
        for i, ln in enumerate(lines[:10]):
            if _numbered_heading(ln.text):
                start = i + 1
    body: list[Line] = []
    sizes = Counter(round(ln.size) for ln in lines)
    common = sizes.most_common(1)[0][0] if sizes else 0
    for i, ln in enumerate(lines[start:], start):
        margin = ln.y1 < page.height * 0.09 or ln.y0 > page.height * 0.92
        # A running head set smaller than the entries ("GAP — A Tutorial 4" in 8 pt over 11 pt entries) may
        # reach a little below the 9 % band.
        margin = margin or (i == 0 and ln.y1 < page.height * 0.12 and 0 < ln.size <= common - 1.5)
        if skip_keys and margin and _edge_key(ln.text) in skip_keys:
            continue
        if running and _edge_line(i, lines, page) and _edge_key(ln.text) in running:
            continue
        if _NUMBER_LINE.match(ln.text) and margin:
            continue  # folio
        if i - start <= 1 and ln.y1 < page.height * 0.15 and running_contents_head(ln.text):
            continue  # "4 CONTENTS" / "CONTENTS 5": a running head below a deep top margin, not an entry
        if _PAGE_COLUMN.match(ln.text):
            continue  # the "Page" column header
        if (i == 0 or i == len(lines) - 1) and margin and not _LEADER_ANY.search(ln.text) and first is False and _looks_like_running(ln, page) \
                and not _listed_like_others(ln, lines):
            continue
        body.extend(_split_columns(ln))
    parsed_all = [parse_toc_line(ln.text) for ln in body]
    numbered = [(ln, p) for ln, p in zip(body, parsed_all) if p is not None and p.page is not None]
    edges = _edges([ln.x1 for ln, _ in numbered])
    ragged = _ragged(numbered, edges)
    out: list[_Raw] = []
    pending: Line | None = None

    def flush() -> None:
        if pending is not None:
            out.append(_Raw(pending, _untitled(pending.text), page.number))

    for ln, parsed in zip(body, parsed_all):
        if parsed is None:
            flush()
            pending = None
            continue
        if parsed.page is not None and not parsed.leader and not ragged and not _aligned(ln.x1, edges):
            parsed = _untitled(ln.text)  # a number that is not in the page-number column
        if parsed.page is None:
            if pending is not None and _continues(pending, ln) and _joinable(pending, ln):
                pending = _join(pending, ln)
            else:
                flush()
                pending = ln
            continue
        if pending is not None:
            if _continues(pending, ln) and _joinable(pending, ln):
                ln = _join(pending, ln)
                parsed = parse_toc_line(ln.text) or parsed
            else:
                flush()
            pending = None
        out.append(_Raw(ln, parsed, page.number))
    flush()
    return out


_PAGE_COLUMN = re.compile(r"^\s*(?:item(?:\s+no\.?)?\s*)?(?:page|pages|page\s+no\.?|page\s+number|seite|p\.)?\s*$|^\s*item\s+no\.?\s*$", re.I)
# The "Page" column header run into a title; lower-case "page" ends real titles ("new page", "set page").
_PAGE_SUFFIX = re.compile(r"\s+(?:Page|PAGE|Page\s+No\.?|PAGE\s+NO\.?)\s*$")


def _untitled(text: str) -> TocLine:
    """A line read as a title with no page number."""
    title = _without_lettered_page(_unglued(text))
    title = _PAGE_SUFFIX.sub("", _LEADER_RE.sub("", title)).strip(" .\u00b7\u2024\u2026_")
    return TocLine(title, None, False)


def _joinable(prev: Line, nxt: Line) -> bool:
    """A wrapped title continues in the same weight, without a numbering of its own; or in another weight where
    the words say so: it opens a parenthesis no title opens with, or closes one the first line left open (a
    contents whose first lines are set in a demibold face its wrapped tails are not: "... mod n" over
    "(word-size n)")."""
    if parse_numbering(nxt.text) is not None or prev.text.rstrip().endswith((":", ".")):
        return False
    return prev.bold == nxt.bold or nxt.text.lstrip().startswith("(") or prev.text.count("(") > prev.text.count(")")


def _looks_like_running(line: Line, page: PageLayout) -> bool:
    words = line.text.split()
    return bool(words) and (parse_page_number(words[0]) is not None or parse_page_number(words[-1]) is not None) and len(words) <= 12


def _listed_like_others(line: Line, lines: list[Line]) -> bool:
    """A line in a page's margin that is one of the listing's rows: it opens with a section number of the depth that
    three or more other numbered lines of the page have, in their face and size ("4.4 Editing Polymer Sequences 46"
    atop a contents page that goes on with "4.5 ...", "4.6 ..." set alike). A running head is set apart from the
    rows it runs over, or carries no section number."""
    num = parse_numbering(line.text)
    if num is None or num.kind != "decimal":
        return False
    alike = 0
    for other in lines:
        if other is line or other.font != line.font or round(other.size) != round(line.size):
            continue
        n = parse_numbering(other.text)
        if n is not None and n.kind == "decimal" and n.depth == num.depth:
            alike += 1
            if alike >= 3:
                return True
    return False


def _continues(prev: Line, nxt: Line) -> bool:
    """Whether ``nxt`` is the wrapped second line of ``prev``'s title."""
    gap = nxt.y0 - prev.y1
    # A line is at least its font size high: some fonts' lines come with a box of their x-height only (a 10-pt
    # title 4.6 pt high), which made the usual gap to a wrapped title's second line look like a paragraph break.
    height = max(prev.y1 - prev.y0, prev.size or 0, 1.0)
    return gap < 0.8 * height and nxt.x0 >= prev.x0 - 2 and abs((nxt.size or 0) - (prev.size or 0)) < 1.5


def _join(a: Line, b: Line) -> Line:
    return Line(f"{a.text} {b.text}", min(a.x0, b.x0), a.y0, max(a.x1, b.x1), b.y1, a.size, a.bold, a.font, a.words + b.words)


def _edges(x1s: list[float]) -> list[float]:
    """Right edges of page-number columns: x1 positions shared by several numbered lines (one per TOC column)."""
    xs = Counter(round(x / 3) for x in x1s)
    if not xs:
        return []
    floor = max(2, 0.2 * len(x1s))
    edges = [k * 3.0 for k, c in xs.items() if c >= floor]
    return edges or [xs.most_common(1)[0][0] * 3.0]


def _ragged(numbered: list[tuple[Line, TocLine]], edges: list[float]) -> bool:
    """A contents set ragged right, each page number a space after its title (no leaders, no number column): six or
    more lines end in a number, most of them off any shared right edge, and the numbers run forward."""
    if len(numbered) < MIN_RAGGED or any(p.leader for _, p in numbered):
        return False
    if sum(_aligned(ln.x1, edges) for ln, _ in numbered) >= 0.5 * len(numbered):
        return False
    values = [p.page.value for _, p in numbered if p.page is not None and p.page.kind == "arabic"]
    back = sum(b < a for a, b in zip(values, values[1:]))
    return len(values) >= MIN_RAGGED and back <= MAX_RAGGED_BACK * (len(values) - 1)


MIN_RAGGED = 6
# A page number, then a bullet and the next run-in title: "Proteins 5 • Nucleic Acids 7".
_RUN_IN_ROW = re.compile(r"\d\s+[\u2022\u00b7\u25aa]\s+\S")
MAX_RAGGED_BACK = 0.1  # share of steps where a ragged contents' page numbers may go back


def _aligned(x1: float, edges: list[float]) -> bool:
    # 8 points: a bold chapter line's number ends a few points short of the dotted lines' (LaTeX's \bfseries
    # entries); a wrapped title ends at the title margin, two or more digit widths before the number column.
    return any(abs(x1 - e) <= 8 for e in edges)


def credible_entries(raws: list[_Raw]) -> list[_Raw]:
    """Keep numbered lines that are dotted or right-aligned with the others; unnumbered ones only if they look like entries."""
    if not raws:
        return []
    edges = _edges([r.line.x1 for r in raws if r.parsed.page is not None])
    ragged = _ragged([(r.line, r.parsed) for r in raws if r.parsed.page is not None], edges)
    paged_x0 = {r.line.x0 for r in raws if r.parsed.page is not None}
    body = body_after_listing(raws)
    keep: list[_Raw] = []
    run_in: list[_Raw] = []
    for r in raws:
        p = r.parsed
        if _RUN_IN_ROW.search(p.title) or run_in and _wraps_run_in(run_in, r.line) and parse_numbering(p.title) is None:
            run_in.append(r)  # a paragraph of run-in subsections, with the lines it wraps onto
            continue
        keep.extend(_run_in_entries(run_in))
        run_in = []
        if p.page is not None:
            if p.leader or ragged or _aligned(r.line.x1, edges):
                keep.append(r)
        elif id(r) in body:
            continue  # the body's first heading under the listing, not an entry without a page number
        elif parse_numbering(p.title) is not None or (r.line.bold and any(abs(r.line.x0 - x) <= 3 for x in paged_x0)):
            keep.append(r)  # "Part II", or a bold heading in the entries' column, placed later from the body
    keep.extend(_run_in_entries(run_in))
    return keep


def _wraps_run_in(rows: list[_Raw], nxt: Line) -> bool:
    """``nxt`` goes on with a paragraph of run-in subsections: it follows the paragraph's last line as a wrapped line
    does, measured from the paragraph's left edge (a line that opens with a page number may sit a few points right of
    it: "29 • The cleavage specifications 31 • The fragmentation" over "specifications 34")."""
    last = rows[-1].line
    left = min(r.line.x0 for r in rows)
    return _continues(replace(last, x0=min(last.x0, left)), nxt)


def _run_in_entries(rows: list[_Raw]) -> list[_Raw]:
    """The subsections a contents runs into one paragraph under their section ("Proteins 5 • Nucleic Acids 7 •
    Saccharides 9", wrapped over lines as prose is), one entry each, in the paragraph's indent."""
    if not rows:
        return []
    text = ""
    for r in rows:
        text = f"{text} {r.line.text.strip()}"
    text = re.sub(r"(?<=[^\W\d_])- (?=[^\W\d_])", "-", text)  # "The cross-" over "linkers 29": one word
    out = []
    for piece in re.split(r"\s[\u2022\u00b7\u25aa]\s", text):
        parsed = parse_toc_line(piece)
        if parsed is not None and parsed.page is not None:
            out.append(_Raw(replace(rows[0].line, text=piece), parsed, rows[0].page, shared=True))
    return out


def body_after_listing(raws: list[_Raw]) -> set[int]:
    """ids of a page's lines below its listing when the body begins there: a chapter opening on the contents' last
    page ("1 Introduction" and its text, as article-like classes set it). They lie below every line with a page
    number and have prose among them (an unnumbered line of 60 characters or more); a "Part III" closing a contents
    page whose chapters go on overleaf has none."""
    paged = [r.line.y1 for r in raws if r.parsed.page is not None]
    if not paged:
        return set()
    below = [r for r in raws if r.parsed.page is None and r.line.y0 > max(paged)]
    return {id(r) for r in below} if any(_prose(r) for r in below) else set()


PROSE_CHARS = 60  # an unnumbered line this long is a sentence of the body, no listing's row


def _prose(r: _Raw) -> bool:
    return len(r.parsed.title) >= PROSE_CHARS and parse_numbering(r.parsed.title) is None


def _prose_before_listing(raws: list[_Raw]) -> bool:
    """A page whose rows with page numbers come below prose (an unnumbered line of 60 characters or more): the end
    of a preface, then a list of its own ("Examples", "1. First Example 29 6. Evaluation Toggle 33"). Set after the
    contents under the same running head, it is no part of the contents when its page numbers start over."""
    paged = [r.line.y0 for r in raws if r.parsed.page is not None]
    if not paged:
        return False
    return any(r.parsed.page is None and r.line.y1 < min(paged) and _prose(r) for r in raws)


def page_is_toc(raws: list[_Raw], line_count: int) -> bool:
    """Enough of the page is TOC entries with page numbers to trust it, listed in page order."""
    numbered = sum(1 for r in raws if r.parsed.page is not None)
    return numbered >= 3 and numbered >= 0.35 * max(line_count, 1) and in_page_order(raws)


OUT_OF_ORDER = 0.1  # share of steps between listed page numbers that may go back in a contents (at least one)


def in_page_order(raws: list[_Raw]) -> bool:
    """The page numbers of a page's entries run forward, as a contents lists its sections: a back-of-book index (its
    terms in alphabetical order, pointing anywhere) or a change history within the first pages of a short document
    is set like a contents but is not one. Roman front matter comes before the body's arabic pages; numbering that
    starts again (appendices, Parts) goes back once or a few times. Two columns whose lines were split where they met
    read left column first."""
    paged = [r for r in raws if r.parsed.page is not None]
    if len(paged) < 2:
        return True
    mid = (min(r.line.x0 for r in paged) + max(r.line.x1 for r in paged)) / 2

    def back(rows: list[_Raw]) -> int:
        keys = [(r.parsed.page.kind == "arabic", r.parsed.page.value) for r in rows]  # type: ignore[union-attr]
        return sum(1 for a, b in zip(keys, keys[1:]) if b < a)

    by_column = [r for r in paged if r.line.x0 < mid] + [r for r in paged if r.line.x0 >= mid]
    return min(back(paged), back(by_column)) <= max(1, OUT_OF_ORDER * (len(paged) - 1))


# -- the whole TOC -------------------------------------------------------------------------


@dataclass
class TocResult:
    entries: list[TocEntry]
    pages: list[int]
    reason: str | None = None  # why no TOC was found
    heading: str = ""  # the contents heading as printed ("Table of Contents"), if one was seen
    # The body begins on the last contents page, under the listing (article-like classes): its first section may be
    # listed with that page's number.
    body_on_last_page: bool = False


TITLE_PAGES = 3  # a contents may start under the title block and abstract of one of the document's first pages
TITLE_BLOCK_LINES = 8  # lines a page's title block may take before a contents heading below it counts as "late"


def find_toc(
    page_count: int,
    text: Callable[[int], str],
    layout: Callable[[int], PageLayout],
    scan_pages: int = 40,
) -> TocResult:
    """Locate the printed TOC among the first pages and read its entries.

    ``text(n)`` is cheap plain text; ``layout(n)`` is only called for candidate pages.
    """
    limit = min(page_count, scan_pages)
    start, late = None, 0
    # Each contents page's reading order is worked out when the page is found and again when the listing is read:
    # once per layout object (kept alive here, so its id is not reused), the same lines both times.
    orders: dict[int, tuple[PageLayout, list[Line]]] = {}

    def reading_of(lay: PageLayout) -> list[Line]:
        got = orders.get(id(lay))
        if got is None or got[0] is not lay:
            got = orders[id(lay)] = (lay, _reading_lines(lay))
        return got[1]

    for n in range(1, limit + 1):
        heading, leaders = screen_page(text(n))
        low = not heading and n <= TITLE_PAGES and any(
            _HEADING_RE.match(ln) for ln in text(n).splitlines()[TITLE_BLOCK_LINES:])
        if heading or low or leaders >= 6 or listing_like(text(n), page_count):
            lay = layout(n)
            late = late_contents_heading(reading_of(lay)) if low else 0
            if late:
                # The contents begins under a title block and an abstract (an article-like class's first page):
                # only the lines below its heading are the listing's.
                below = reading_of(lay)[late - 1:]
                if page_is_toc(credible_entries(read_page_entries(lay, first=True, lines=below)), len(below) - 1):
                    start = n
                    break
                late = 0
            if _lists_something_else(lay) and not heading:
                continue
            raws = credible_entries(read_page_entries(lay, first=heading, lines=reading_of(lay)))
            if page_is_toc(raws, len(lay.lines)):
                start = n
                break
    if start is None:
        return TocResult([], [], "no printed table of contents among the first pages")
    pages = [start]
    n = start + 1
    while n <= page_count:
        if _toc_page(layout(n), reading_of):
            pages.append(n)
            n += 1
            continue
        # A short contents listing may be followed, after a blank page or two, by the full one.
        again = next((m for m in range(n + 1, min(page_count, n + 3) + 1)
                      if screen_page(text(m))[0] and _toc_page(layout(m), reading_of)), None)
        if again is None:
            if n <= page_count and (_listing_tail(layout(n), layout(pages[-1]), reading_of)
                                    or _last_rows(layout(n), layout(pages[-1]), reading_of, page_count)):
                pages.append(n)  # the listing ends atop the page the body begins on, or on a page of its own
            break
        pages.append(again)
        n = again + 1
    layouts = [layout(p) for p in pages]
    keys = _header_footer_keys(layouts) if len(layouts) > 1 else set()
    reading = [reading_of(lay) for lay in layouts]
    # The pages on either side of the listing carry the same running head or foot: a one-page contents' own is told
    # by them ("9/9/2013 DB TCL Page iii" over the listing's last row, "... Page iv" on the next page).
    around = [layout(n) for n in (pages[0] - 1, pages[-1] + 1) if 1 <= n <= page_count and n not in pages]
    running = _running_keys(layouts + around, reading + [reading_of(lay) for lay in around])
    if late:
        reading[0] = reading[0][late - 1:]
    blocks: list[list[_Raw]] = []
    body_on_last_page = False
    after_prose = None  # the index in ``pages`` of the page whose list, below prose, started the last block
    for k, (lay, lines) in enumerate(zip(layouts, reading)):
        heading = any(_numbered_heading(ln.text) for ln in lines[:8])
        read = read_page_entries(lay, keys, first=heading, lines=lines, running=running)
        body_on_last_page = bool(body_after_listing(read))
        page_raws = credible_entries(read)
        if blocks and blocks[-1] and (heading or _prose_before_listing(read)) and _restarts(blocks[-1], page_raws):
            # A new contents listing starts (e.g. "Short Contents" then "Table of Contents"):
            # keep the longer one, since the full listing repeats the short one. A "Contents" running
            # header over a listing that goes on where the last page stopped is the same listing.
            blocks.append([])
            after_prose = None if heading else k
        elif not blocks:
            blocks.append([])
        blocks[-1].extend(page_raws)
    kept = max(blocks, key=lambda b: sum(1 for r in b if r.parsed.page is not None))
    if after_prose is not None and kept is not blocks[-1]:
        # The list below prose and the pages after it are the body's (a preface's end), not the contents'.
        pages, layouts = pages[:after_prose], layouts[:after_prose]
        body_on_last_page = False
    raws = _without_continued_heads(kept)
    entries = unglue_chapter_numbers([to_entry(r, layouts) for r in raws])
    _mark_anchors_at_foot(entries, page_count, text, layout)
    _align_page_indents(entries, raws)
    assign_levels(entries)
    heading = next((" ".join(ln.text.split()) for ln in reading[0][:10] if _HEADING_RE.match(ln.text)), "")
    return TocResult(entries, pages, None if entries else "contents pages found but no entries read", heading,
                     body_on_last_page)


FOOT_ZONE = 0.9  # a line starting below this share of the page's height is its running foot (a folio)


def _compact(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _heads_title(title: str, page_text: str) -> bool:
    """Whether the page sets the title as a line of its own, with or without its number: a heading, not a running
    head that names the chapter beside its number ("CHAPTER 19. FOURIER AND LAPLACE" for "19 Fourier and Laplace")."""
    num = parse_numbering(title)
    keys = {_compact(title)} | ({_compact(num.rest)} if num is not None and num.rest else set())
    return any(_compact(ln) in keys for ln in page_text.splitlines() if ln.strip())


def _mark_anchors_at_foot(entries: list[TocEntry], page_count: int, text: Callable[[int], str],
                          layout: Callable[[int], PageLayout]) -> None:
    """Mark ``link_at_foot`` on an entry whose link's destination lies at the foot of its page, below every line of its
    body, when that page does not print the title, or names it only in passing (in prose, not as a line of its own)
    while the next page sets it as a line of its own, and the next page does (``parsers.offsets`` then takes the next).

    A generator that sets a section's anchor where its space before begins leaves it at the foot of the page before
    the heading when the heading moved on (DocBook's FOP). A destination with text after it on its page is where the
    section starts; one in the upper half, in the foot zone or at the page's very edge (entries a generator piled
    there) tells nothing. Only the pages such a link goes to are laid out."""
    for e in entries:
        y = e.extra.get("link_y")
        if y is None or e.link is None or not 1 <= e.link < page_count:
            continue
        key = _compact(e.title)
        if len(key) < 3 or key not in _compact(text(e.link + 1)):
            continue
        mentioned = key in _compact(text(e.link))
        if mentioned and (_heads_title(e.title, text(e.link)) or not _heads_title(e.title, text(e.link + 1))):
            continue  # the page names the title: only in passing when it heads it nowhere and the next page does
        lay = layout(e.link)
        height = lay.height or 1.0
        body = [ln for ln in lay.lines if ln.y0 < height * FOOT_ZONE]
        if (not mentioned and len(body) >= 3 and 1 <= y < min(ln.y0 for ln in lay.lines) - 1
                and _heads_title(e.title, text(e.link + 1))):
            # Above every line of its page, its running head too: an anchor set before a page break that the heading
            # followed onto the next page (dblatex's reference entries, each on a new page: the contents prints the next
            # page's number and the outline goes there), as at the foot of the page before it. Not the page's very
            # edge (y 0: a link that names the page only, as hyperref's to an anchor set before a page break), nor a
            # page without text of its own (the blank page before a chapter that opens on a right-hand page, Sphinx's:
            # the contents prints that page's number, and the author's anchor is there).
            e.extra["link_at_foot"] = True
            continue
        if not lay.lines:
            continue
        # An anchor in the foot zone still counts when it lies above the page's lowest line there (its folio) and
        # below every other line: the body ran low, and the anchor sits between its last line and the folio.
        lowest = max(lay.lines, key=lambda ln: ln.y0)
        folio = lowest if lowest.y0 >= height * FOOT_ZONE else None
        top = max(height * FOOT_ZONE, folio.y0 - 1 if folio is not None else 0.0)
        if not height / 2 <= y < top:
            continue
        deep = y >= height * FOOT_ZONE
        if not any(ln.y1 > y + 1 and (ln.y0 < height * FOOT_ZONE or deep and ln is not folio) for ln in lay.lines):
            e.extra["link_at_foot"] = True
            if mentioned:
                e.extra["link_in_passing"] = True  # the page names the title in its prose, which the offsets allow


def _without_continued_heads(raws: list[_Raw]) -> list[_Raw]:
    """The listing without the chapter titles reprinted atop its continuation pages.

    A contents that runs over pages may repeat, first on each new page and without its page number, the title of the
    chapter whose entries go on there (HTMLDOC's "4 - Designing a Simple Text Editor" over that chapter's last
    sections): the chapter was listed already, with its number, and the repeat is no entry of its own.
    """
    seen: set[str] = set()
    out: list[_Raw] = []
    prev_page = None
    for r in raws:
        key = " ".join(r.parsed.title.casefold().split())
        first_on_page = r.page != prev_page and prev_page is not None
        prev_page = r.page
        if first_on_page and r.parsed.page is None and key in seen:
            continue
        if r.parsed.page is not None:
            seen.add(key)
        out.append(r)
    return out


def _align_page_indents(entries: list[TocEntry], raws: list[_Raw]) -> None:
    """Indents measured from one text block on every contents page.

    A contents printed two-sided may set even pages' text block further left than odd pages' (a binding margin:
    HTMLDOC's chapters at 72 pt on odd pages and 36 pt on even ones, their sections at 108 and 72): read as they are,
    a section on an even page has a chapter's indent. Each page's text block is placed by its page-number column (its
    right edge, where most of the page's numbers end), and a page whose column sits elsewhere than most pages' has its
    entries' indents moved by the difference.
    """
    edge_of: dict[int, float] = {}
    for page in {r.page for r in raws}:
        ends = Counter(round(r.line.x1) for r in raws if r.page == page and r.parsed.page is not None)
        if ends and ends.most_common(1)[0][1] >= 3:
            edge_of[page] = ends.most_common(1)[0][0]
    if len(set(edge_of.values())) < 2:
        return
    votes = Counter()
    for r in raws:
        if r.page in edge_of:
            votes[edge_of[r.page]] += 1
    ref = votes.most_common(1)[0][0]
    for e in entries:
        shift = ref - edge_of.get(e.toc_page, ref)
        if abs(shift) >= 4:
            e.x0 += shift


def _listing_tail(lay: PageLayout, before: PageLayout, reading_lines: Callable[[PageLayout], list[Line]]) -> bool:
    """Whether the page opens with the last rows of the listing on the page before, the body beginning under them.

    A contents set without a page break after it (a LaTeX article, the SELinux CIL guide's) ends atop the page its
    first chapter opens on: three or more rows with page numbers, first on the page, in page order and going on from
    the previous page's last number, with prose below them. Such a page holds too few rows to read as a contents page
    of its own."""
    raws = read_page_entries(lay, lines=reading_lines(lay))
    body = body_after_listing(raws)
    if not body:
        return False
    listing = [r for r in raws if id(r) not in body]
    numbered = [r for r in credible_entries(listing) if r.parsed.page is not None]
    if len(numbered) < 3 or not in_page_order(numbered) or any(r.parsed.page is None for r in listing[:1]):
        return False
    if sum(1 for r in listing if r.parsed.page is None and id(r) not in body) > len(numbered) // 2:
        return False
    last = next((r.parsed.page for r in reversed(credible_entries(read_page_entries(before, lines=reading_lines(before))))
                 if r.parsed.page is not None), None)
    first = numbered[0].parsed.page
    return last is not None and first.kind == last.kind and first.value >= last.value


def _last_rows(lay: PageLayout, before: PageLayout, reading_lines: Callable[[PageLayout], list[Line]],
               page_count: int) -> bool:
    """Whether the page holds only the listing's last row or two, alone on a page of their own.

    A contents whose last rows spill over (Sphinx's LaTeX: "A GNU Free Documentation License 41" and "Index 47"
    over aunit-cb's otherwise empty fourth page) leaves too few rows to read as a contents page: every line of the
    page, margins aside, is a row ending in a page number in the previous page's number column, going on from that
    page's last number and within the document."""
    raws = read_page_entries(lay, lines=reading_lines(lay))
    if not raws or len(raws) > 2 or any(r.parsed.page is None or r.parsed.page.kind != "arabic" for r in raws):
        return False
    prev = [r for r in credible_entries(read_page_entries(before, lines=reading_lines(before))) if r.parsed.page is not None]
    if len(prev) < 3 or prev[-1].parsed.page.kind != "arabic":  # type: ignore[union-attr]
        return False
    edges = _edges([r.line.x1 for r in prev])
    values = [prev[-1].parsed.page.value] + [r.parsed.page.value for r in raws]  # type: ignore[union-attr]
    return (all(_aligned(r.line.x1, edges) or r.parsed.leader for r in raws) and values == sorted(values)
            and values[-1] <= page_count)


def late_contents_heading(lines: list[Line]) -> int:
    """1 + the index of a contents heading set below a page's first lines (under a title block), 0 if none."""
    return next((i + 1 for i, ln in enumerate(lines) if i >= TITLE_BLOCK_LINES and _HEADING_RE.match(ln.text)), 0)


def _restarts(block: list[_Raw], page_raws: list[_Raw]) -> bool:
    """A page's listing starts over: its first page number is below the last one the listing so far reached."""
    last = next((r.parsed.page for r in reversed(block) if r.parsed.page is not None), None)
    first = next((r.parsed.page for r in page_raws if r.parsed.page is not None), None)
    if last is None or first is None:
        return True
    order = lambda n: (n.kind == "arabic", n.value)  # front matter's roman pages come before the body's
    return order(first) < order(last)


def _toc_page(lay: PageLayout, reading_lines: Callable[[PageLayout], list[Line]] | None = None) -> bool:
    if _lists_something_else(lay):
        return False
    lines = (reading_lines or _reading_lines)(lay)
    heading = any(_HEADING_RE.match(ln.text) for ln in lines[:8])
    return page_is_toc(credible_entries(read_page_entries(lay, first=heading, lines=lines)), len(lay.lines))


# A chapter number glued to a capitalised title ("11Index": the number's box overflowed into the title's).
_GLUED_CHAPTER = re.compile(r"^(\d{1,3})\.?(?=[^\W\d_][^\W\d_])")


def unglue_chapter_numbers(entries: list[TocEntry]) -> list[TocEntry]:
    """Entries whose title opens with a chapter number glued to it get the number split off, when that number is the
    next of the listing's chapters ("10 Glossary" before "11Index"): a word after a number ("3Com") stays whole."""
    last = None
    for i, e in enumerate(entries):
        m = _GLUED_CHAPTER.match(e.title) if e.numbering is None else None
        if m and last is not None and int(m.group(1)) == last + 1:
            title = f"{m.group(1)} {e.title[m.end():]}"
            e = entries[i] = replace(e, title=title, numbering=parse_numbering(title))
        if e.numbering is not None and e.numbering.kind == "decimal" and e.numbering.depth == 1:
            last = int(re.match(r"\d+", e.numbering.label).group())  # type: ignore[union-attr]
    return entries


def to_entry(r: _Raw, layouts: list[PageLayout]) -> TocEntry:
    """A read TOC line as an entry (level 1 until ``assign_levels``), with the link on its line if any."""
    title = r.parsed.title
    link = None
    extra: dict = {}
    for lay in layouts:
        if lay.number == r.page and not r.shared:
            mid = (r.line.y0 + r.line.y1) / 2
            for y0, y1, anchor_y, target in lay.page_links():
                if y0 - 1 <= mid <= y1 + 1:
                    link = target
                    if anchor_y >= 0:
                        extra["link_y"] = anchor_y  # where on its page the link's destination lies
                    break
    return TocEntry(title=title, page=r.parsed.page, level=1, numbering=parse_numbering(title), toc_page=r.page,
                    x0=r.line.x0, size=r.line.size, bold=r.line.bold, link=link, extra=extra)


def entry_from_line(line: Line, title: str, page: int, layouts: list[PageLayout]) -> TocEntry:
    """A contents line read some other way (a bulleted title without a page number) as an entry, with its link."""
    return to_entry(_Raw(line, TocLine(title, None, False), page), layouts)


def assign_levels(entries: list[TocEntry]) -> None:
    """Levels from numbering depth where present, else from the entry's style (indent, size, weight).

    Styles are ranked by indent, then larger size, then bold; numbered entries teach which
    style corresponds to which level so unnumbered siblings ("Index", "Preface") land right.
    """
    if not entries:
        return
    xs = sorted({round(e.x0) for e in entries})
    clusters: list[float] = []
    for x in xs:
        if not clusters or x - clusters[-1] > 4:
            clusters.append(x)

    def indent(e: TocEntry) -> int:
        return min(range(len(clusters)), key=lambda i: abs(clusters[i] - e.x0))

    styles = sorted({(indent(e), -round(e.size), not e.bold) for e in entries})
    rank = {s: i + 1 for i, s in enumerate(styles)}
    parts = part_entries(entries, lambda e: (indent(e), -round(e.size), not e.bold))
    has_part = bool(parts)
    part_styles = {(indent(e), -round(e.size), not e.bold) for e in entries if id(e) in parts}
    for e in entries:
        if id(e) in parts:
            e.extra["part"] = True
    # A title that only reads as a roman number ("X Resources" among bulleted titles, outside a run I, II, III of
    # Parts) is no numbering: its level comes from its style, and it teaches its style nothing.
    numbered = {id(e) for e in entries if e.numbering is not None and (e.numbering.kind != "roman" or id(e) in parts)}
    learned: dict[tuple, Counter] = {}
    for e in entries:
        s = (indent(e), -round(e.size), not e.bold)
        if id(e) in numbered and id(e) not in parts:
            learned.setdefault(s, Counter())[e.numbering.depth + (1 if has_part else 0)] += 1
    for e in entries:
        s = (indent(e), -round(e.size), not e.bold)
        if id(e) in parts:
            e.level = 1
        elif id(e) in numbered:
            e.level = e.numbering.depth + (1 if has_part else 0)
        elif s in part_styles:
            e.level = 1  # unnumbered, in the Parts' own style ("Appendices" after "III Developers Manual")
        elif s in learned:
            e.level = learned[s].most_common(1)[0][0]
        else:
            e.level = rank[s] + (1 if has_part and rank[s] == 1 else 0)


def part_entries(entries: Sequence, style: Callable) -> set[int]:
    """ids of the entries that are Parts: a level of their own above the chapters.

    Evidence, not position: "Part II" / "Book 1" by name; roman numbers only as a sequence from I ("I Gnuplot",
    "II Plotting styles": one "X Window System" or "C Library" is a title, not Part X or Part C); unnumbered
    entries ("User", "Articles") when set in a style larger or less indented than every numbered chapter and
    used at least twice. One misread entry then costs that entry, not the level of every entry below it.
    """
    named = {id(e) for e in entries if e.numbering is not None and e.numbering.kind == "part"}
    named |= _roman_parts(entries, style)
    chapters = [style(e) for e in entries if e.numbering is not None and e.numbering.depth == 1
                and e.numbering.kind in ("decimal", "chapter")]
    if len(chapters) < 2:
        return named
    top = Counter(chapters).most_common(1)[0][0]  # (indent, -size, not bold) of the chapters
    bigger = Counter(style(e) for e in entries if e.numbering is None and style(e)[1] < top[1] and style(e)[0] <= top[0])
    return named | {id(e) for e in entries if e.numbering is None and style(e) in bigger and bigger[style(e)] >= 2}


def _roman_parts(entries: Sequence, style: Callable) -> set[int]:
    """ids of the entries numbered I, II, III ... in one style, in order: the Parts.

    Other single letters that read as roman numbers and sit among them ("C Diagrams Example", "D Define
    Example": appendices lettered A, B, C, D) are not Parts and do not break the sequence.
    """
    romans = [e for e in entries if e.numbering is not None and e.numbering.kind == "roman"]
    run: list = []
    for e in romans:
        if roman_to_int(e.numbering.label) == len(run) + 1 and (not run or style(e) == style(run[0])):
            run.append(e)
    return {id(e) for e in run} if len(run) >= 2 else set()
