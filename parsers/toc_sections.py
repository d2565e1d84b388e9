"""A contents that lists only the chapters: their numbered sections come from the body.

Some contents stop at the chapters (Sphinx's LaTeX output with a shallow ``tocdepth``, a "Brief Contents") while
the chapters are numbered ("3 Realm configuration decisions") and their sections are headed "3.1 Realm name",
"3.2 ..." in the body, as the author's own outline lists them. Here the sections are read from the plain text of
each chapter's pages: a line opening with the chapter's number and a section number (or the number alone on its
line with the title below), in sequence (N.1, N.2, ...; N.k.1, N.k.2 under N.k), so a cross-reference, a table
row or a version number ("Release 1.20.1") does not pass. Pure over page texts.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable, Sequence

from parsers.headings import Heading
from parsers.layout import PageLayout
from parsers.numbering import parse_numbering
from parsers.ranges import Entry
from parsers.toc import TocEntry, spell_accents

MIN_CHAPTERS = 3
MAX_TITLE_WORDS = 12
MAX_RUN_IN_WORDS = 3  # a title ending in a full stop ("Definitions.") is short; a longer one is a sentence
_NUMBERED = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3}){1,2})\.?(?:\s+(?P<title>\S.*))?$")


def chapters_only(entries: Sequence[TocEntry]) -> bool:
    """The contents lists numbered chapters and nothing below them: no entry numbered "1.2", all on one level."""
    if any(e.numbering is not None and e.numbering.depth > 1 for e in entries):
        return False
    chapters = [e for e in entries if _chapter_number(e) is not None]
    levels = {e.level for e in entries if not e.extra.get("part")}
    return len(chapters) >= MIN_CHAPTERS and len(levels) == 1


def _chapter_number(e: TocEntry) -> int | None:
    n = e.numbering
    if n is None or n.depth != 1 or n.kind not in ("decimal", "chapter"):
        return None
    digits = n.label.split()[-1]
    return int(digits) if digits.isdigit() else None


def body_sections(entries: Sequence[TocEntry], text: Callable[[int], str], page_count: int) -> list[list[Entry]]:
    """Per contents entry, the numbered sections headed in its pages (an empty list for an unnumbered entry)."""
    out: list[list[Entry]] = []
    for i, e in enumerate(entries):
        number = _chapter_number(e)
        if number is None or not e.physical:
            out.append([])
            continue
        end = next((x.physical for x in entries[i + 1:] if x.physical and x.physical >= e.physical), page_count)
        end = end or page_count
        # The chapter's printed folios: a line ending in one of them is a row of its own listing ("3.1 Realm name 45");
        # a title ending in another number is a title ("4.14 New in Version 4.0 beta 1").
        folios = None
        if e.page is not None and e.page.kind == "arabic":
            folios = range(e.page.value, e.page.value + end - e.physical + 1)
        out.append(_sections(number, e.level, e.physical, end, text, folios))
    return out


def _sections(number: int, level: int, start: int, end: int, text: Callable[[int], str],
              folios: range | None = None) -> list[Entry]:
    found: list[Entry] = []
    last: list[int] = [0, 0]  # the last section number accepted at depth 2 and depth 3
    for page in range(start, end + 1):
        lines = [" ".join(ln.split()) for ln in text(page).splitlines() if ln.strip()]
        for j, ln in enumerate(lines):
            head = _head(ln, lines[j + 1] if j + 1 < len(lines) else "", number, folios)
            if head is None:
                continue
            parts, title = head
            depth = len(parts)
            if depth == 2 and parts[1] == last[0] + 1:
                nxt = [parts[1], 0]
            elif depth == 3 and parts[1] == last[0] and parts[2] == last[1] + 1:
                nxt = [last[0], parts[2]]
            else:
                continue
            if _listing(lines, j, number):
                continue
            last = nxt
            label = ".".join(str(p) for p in parts)
            found.append(Entry(level + depth - 1, spell_accents(f"{label} {title}"), page))
    return found


def _head(line: str, below: str, number: int, folios: range | None = None) -> tuple[tuple[int, ...], str] | None:
    """(section numbers, title) when ``line`` heads a section of chapter ``number``; ``folios``, when known, the
    printed page numbers of the chapter."""
    m = _NUMBERED.match(line)
    if m is None:
        return None
    parts = tuple(int(p) for p in m.group("num").split("."))
    if parts[0] != number:
        return None
    title = m.group("title") or below
    words = title.split()
    if not re.search(r"[^\W\d_]{2}", title) or len(words) > MAX_TITLE_WORDS or title.endswith((",", ";")):
        return None
    if m.group("title") is None and title.endswith(".") and len(words) > MAX_RUN_IN_WORDS:
        return None  # a number alone in a table's cell, then the sentence under the table: no title
    if words[-1].isdigit() and (folios is None or int(words[-1]) in folios):  # "3.1 Realm name 45": a listing line
        return None
    numbered = _NUMBERED.match(title)
    if numbered is not None and (m.group("title") is None or numbered.group("num").split(".")[0] == str(number)):
        return None  # the next row of a listing ("3.1" over "3.2 ..."); "6.2 5.0.0 / 5.0.1 - All systems" is a title
    return parts, title


def _listing(lines: list[str], j: int, number: int) -> bool:
    """Line ``j`` is one row of a listing of sections (a chapter's own short contents): the next line, or the one
    after the title when the number stands alone, heads the next section at the same depth."""
    m = _NUMBERED.match(lines[j])
    step = 1 if m and m.group("title") else 2
    if j + step >= len(lines):
        return False
    here, nxt = _head(lines[j], lines[j + 1] if j + 1 < len(lines) else "", number), _NUMBERED.match(lines[j + step])
    if here is None or nxt is None:
        return False
    parts = tuple(int(p) for p in nxt.group("num").split("."))
    return len(parts) == len(here[0]) and parts[:-1] == here[0][:-1] and parts[-1] == here[0][-1] + 1


# -- the numbered sections of an unnumbered entry the contents lists alone ---------------------------------------

MAX_UNLISTED_PAGES = 30  # an entry longer than this is no front matter; its pages are not laid out
MIN_UNLISTED = 2
MIN_HEAD_STEP = 1.0  # points by which the entry's heading outsizes its pages' body text


def unlisted_sections(entries: Sequence[Entry], layout: Callable[[int], PageLayout], page_count: int) -> list[list[Entry]]:
    """Per entry, the numbered sections headed in the pages of an unnumbered entry the contents lists without children.

    A contents may list a preface by its title alone while the body heads its sections "1 Software feature
    offerings", "2 Feedback from the users" (DocBook's dblatex: numbered sections in an unnumbered preface, which the
    author's outline lists). They are taken when the entry's own heading is found on its first page and two or more
    lines of its pages open with the numbers 1, 2, 3 ... in turn, set at least as large as that heading: a numbered
    list, a table's rows or a cross-reference is set smaller than a chapter's title, which must itself outsize the
    pages' body text; a numbered sentence (more words than a title has) ends the search. A number out of turn at that
    size (a licence's clauses, "0. Definitions." first) leaves the entry alone. A title wrapped to a line or two of
    the same size is joined."""
    out: list[list[Entry]] = []
    for i, e in enumerate(entries):
        nxt = entries[i + 1] if i + 1 < len(entries) else None
        end = (nxt.page - 1 if nxt is not None else page_count)
        if (parse_numbering(e.title) is not None or (nxt is not None and nxt.level > e.level)
                or not 1 <= e.page <= end or end - e.page + 1 > MAX_UNLISTED_PAGES):
            out.append([])
            continue
        size = _heading_size(layout(e.page), e.title)
        found: list[Entry] | None = []
        if size is not None and size >= _body_size([layout(n) for n in range(e.page, end + 1)]) + MIN_HEAD_STEP:
            for page in range(e.page, end + 1):
                if found is None:
                    break
                lines = [ln for ln in layout(page).lines if ln.text.strip()]
                for j, ln in enumerate(lines):
                    num = parse_numbering(ln.text)
                    if (num is None or num.kind != "decimal" or num.depth != 1 or ln.size < size - 0.5
                            or not re.search(r"[^\W\d_]{2}", num.rest)):
                        continue
                    if num.label != str(len(found) + 1):
                        found = None  # out of turn ("0. Definitions." of a licence's clauses): no run of sections
                        break
                    title = " ".join(ln.text.split())
                    for more in lines[j + 1:j + 3]:  # a title wrapped to a line or two of its own size
                        if (abs(more.size - ln.size) > 0.5 or more.font != ln.font or parse_numbering(more.text)
                                or more.y0 - ln.y1 > ln.size):
                            break
                        title, ln = f"{title} {' '.join(more.text.split())}", more
                    if len(title.split()) > MAX_TITLE_WORDS + 1:
                        found = None  # a numbered sentence ("1. Use the command set terminal to ..."): a list
                        break
                    found.append(Entry(e.level + 1, spell_accents(title), page))
        out.append(found if found is not None and len(found) >= MIN_UNLISTED else [])
    return out


def _body_size(layouts: Sequence[PageLayout]) -> float:
    """The size most of the pages' lines are set in."""
    sizes = Counter(round(ln.size, 1) for lay in layouts for ln in lay.lines if ln.text.strip())
    return sizes.most_common(1)[0][0] if sizes else 0.0


def _heading_size(lay: PageLayout, title: str) -> float | None:
    """The size of the line that sets ``title`` on its page, None when no line does."""
    key = _words(title)
    sizes = [ln.size for ln in lay.lines if key and _words(ln.text) == key]
    return max(sizes) if sizes else None


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w]+", " ", text.casefold()).split())


# -- the sections the body heads under the entries of a one-level contents -----------------------------------------

MIN_HEADED_SHARE = 0.8  # of a one-level contents' entries that the body must head, each on its listed page or next to it


def one_level(entries: Sequence[TocEntry]) -> bool:
    """The contents lists its entries on one level and numbers none of them below a chapter ("2.1")."""
    if any(e.numbering is not None and e.numbering.depth > 1 for e in entries):
        return False
    return len({e.level for e in entries}) == 1


def headed_sections(entries: Sequence[Entry], heads: Sequence[Heading]) -> list[list[Entry]]:
    """Per entry of a one-level contents, the sections the body heads under it, one level down.

    A contents may stop at the chapters while the body heads their sections, unnumbered, in a style of their own below
    the chapter's (DocBook's with a one-level ``toc.section.depth``: chapters set 13 pt bold, their sections 12 pt
    bold), and the author's outline lists them. The headings reader's outline (``heads``, in reading order) is trusted
    here only as far as it agrees with the contents: at least MIN_HEADED_SHARE of the entries must be heads of it, each
    on its listed page or one page either side, in the contents' order. An entry's children are then the heads between
    its own head and the next entry's that sit exactly one level below its head; an entry with a head at its own level
    or above in that span (a head the contents does not list) gets none, nor does an entry the body does not head; the
    span of an entry followed by one the body does not head ends at that entry's listed page."""
    if not entries or not heads:
        return [[] for _ in entries]
    keys = [_words(h.title) for h in heads]
    at: list[int | None] = []
    start = 0
    for e in entries:
        key = _words(e.title)
        hit = next((j for j in range(start, len(heads)) if key and keys[j] == key and abs(heads[j].page - e.page) <= 1),
                   None)
        at.append(hit)
        if hit is not None:
            start = hit + 1
    if sum(a is not None for a in at) < MIN_HEADED_SHARE * len(entries):
        return [[] for _ in entries]
    out: list[list[Entry]] = []
    for i, (e, a) in enumerate(zip(entries, at)):
        if a is None:
            out.append([])
            continue
        end = next((b for b in at[i + 1:] if b is not None), len(heads))
        if i + 1 < len(entries) and at[i + 1] is None:
            # The next entry is not headed where it is listed: nothing from its page on is this entry's.
            end = next((j for j in range(a + 1, end) if heads[j].page >= entries[i + 1].page), end)
        span = heads[a + 1:end]
        level = heads[a].level
        if any(h.level <= level for h in span):
            out.append([])
            continue
        out.append([Entry(e.level + 1, spell_accents(h.title), h.page) for h in span if h.level == level + 1])
    return out
