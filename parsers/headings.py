"""Headings from font statistics, for documents without a usable TOC and for splitting long leaves.

A heading is a short line set larger than the body text, or bold at body size
and standing alone; lines in the top/bottom margins (running headers, folios),
monospace lines (code) and sentences are excluded. Levels come from numbering
depth where present, else from the rank of the heading's style (size, weight).
Pure over PageLayouts.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from functools import lru_cache
from typing import Callable, Sequence

from parsers.layout import Line, PageLayout
from parsers.memo import per_document_object
from parsers.numbering import Numbering, parse_numbering, parse_page_number
from parsers.offsets import title_key
from parsers.toc import DOT_LEADERS, is_heading, part_entries

_LETTERS = re.compile(r"[^\W\d_]{2,}")
# A dotted section number run into a capitalised word ("3.1.3Sample", "2.1Introduction"): a tab or a kern, no space.
_GLUED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){1,3})(?=[A-Z][a-z])")
# A release's head in a change log: its version and its date, no word ("2.7 (2022-12-03)", "1.4.2 - 2019-06-30").
# The version is no section number: the head is placed by its style.
_RELEASE = re.compile(r"^v?\d{1,3}(?:\.\d{1,4}){1,3}[a-z]?\s*(?:\(\s*|\[\s*|[\u2013\u2014-]\s*)?"
                      r"(?:\d{4}-\d{2}-\d{2}|\d{4}/\d{2}/\d{2}|\d{1,2}\.\d{1,2}\.\d{4})\s*[)\]]?$")
# Fixed-pitch families by name, for fonts embedded without the fixed-pitch flag: URW's Courier clone "NimbusMonL"
# (what LaTeX's times/helvet packages set \texttt in: Sphinx and Doxygen manuals), "Cousine", "Anonymous Pro".
_MONO = re.compile(r"mono|courier|consol|typewriter|\btt|cmtt|t1xtt|menlo|inconsolata|nimbusmon|cousine|anonymouspro",
                   re.I)
_UNITS = r"one|two|three|four|five|six|seven|eight|nine"
_LABEL_ONLY = re.compile(
    r"^(?:chapter|part|appendix|section|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|"
    rf"nineteen|(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[- ]?(?:{_UNITS})?)|{_UNITS}|\d+|[ivxlcdm]+)$",
    re.I,
)
# List items and cross-reference lines set in bold: "• item", "6.5 & 6.6", "10.4; perl-policy".
_BULLET = re.compile(r"^[\u2022\u2023\u25aa\u25cf\u25e6\u2043\u2219\u00b7*\u2013\u2014-]\s")
# "Note 7. Income taxes" / "NOTE 7 — INCOME TAXES": the notes to financial statements are numbered sections.
_NOTE = re.compile(r"^note\s+\d{1,3}[A-Za-z]?\b\s*[.:\u2013\u2014-]?\s*\S", re.I)
MARGIN = 0.075  # share of page height treated as header/footer band
MAX_HEAD_WORDS = 12  # a longer line is a sentence, not a head
SENTENCE = re.compile(r"[a-z]\. [A-Z]")  # a sentence ending inside the line (or two columns merged into one)


@dataclass
class Heading:
    page: int
    title: str
    size: float
    bold: bool
    y0: float
    level: int = 1
    numbering: Numbering | None = None
    run_in: bool = False  # a numbered head opening its paragraph ("4.1. Degrees. To disable ..."), see _run_in
    lead_in: bool = False  # a run-in head set bold before roman text ("2. Program global context. Let's ..."): _bold_run_in
    unit: bool = False  # a document of its own inside the file (a manual page), above every head in it: _unit_title
    chunk: bool = False  # a literate program's named code chunk where it is defined ("<Emit encoded character 20> ="): _chunk_name
    after: str = ""  # the first line of text under the head
    recurs: bool = False  # a section recurring under every entry of a series ("Name", "Synopsis"): _drop_repeats
    styled: bool = False  # a head only by its style ("Viewing the data.", "w1retap dependencies"): _styled_head
    labelled: bool = False  # set right under a chapter's label ("CHAPTER" / "ONE" over "START HERE:"): a chapter's title
    opens_page: bool = False  # the first line of its page's text, at most a running head above it: _page_opening_styles


def body_size(layouts: Sequence[PageLayout]) -> float:
    """The font size most characters of running text are set in."""
    counts: Counter[float] = Counter()
    code: Counter[float] = Counter()
    for lay in layouts:
        text, listings = _page_sizes(lay)  # counted once a page: a document's body is asked for over many ranges
        counts.update(text)
        code.update(listings)
    # Code listings are not the body: a package manual whose 8-pt examples outweigh its 12-pt prose would make
    # every prose line "larger than the body". A document set (nearly) all in monospace keeps its code.
    if sum(counts.values()) < CODE_ONLY * sum(code.values()):
        counts += code
    if not counts:
        return 0.0
    # One font size is often reported with jitter (9.9, 10.0, 10.1 for a 10-pt text): the characters within
    # SIZE_JITTER of a size count for it, so a body split over three such bins is not outvoted by a smaller
    # size set uniformly (an abstract, footnotes), which would make every body line "larger than the body".
    def mass(size: float) -> int:
        return sum(c for s, c in counts.items() if abs(s - size) <= SIZE_JITTER)

    best = max(counts, key=lambda s: (mass(s), counts[s]))
    near = {s: c for s, c in counts.items() if abs(s - best) <= SIZE_JITTER}
    return round(sum(s * c for s, c in near.items()) / sum(near.values()), 1)


SIZE_JITTER = 0.25
LARGER = 0.9  # points above the body size that make a line larger than the text


@per_document_object
def _page_sizes(lay: PageLayout) -> tuple[Counter[float], Counter[float]]:
    """Characters of a page by font size (to 0.1 pt), of proportional text and of monospace (code); read only."""
    counts: Counter[float] = Counter()
    code: Counter[float] = Counter()
    for ln in lay.lines:
        (code if _monospace(ln) else counts)[round(ln.size, 1)] += len(ln.text)
    return counts, code


def _monospace(ln: Line) -> bool:
    """Set in a fixed-pitch font: by the font's flag, or by a name that says so (OCR'd and older layouts)."""
    return ln.mono or _mono_name(ln.font or "")


@lru_cache(maxsize=1024)
def _mono_name(font: str) -> bool:
    return bool(_MONO.search(font))  # asked for every line, of a few fonts (a fifth of detect_headings' time)


# TeX's bold faces by name (Computer Modern's cmbx/cmb/cmssbx, the EC and cm-super fonts' ecbx/sfbx/sfsx ...): dvips
# and old pdfTeX embed them without a descriptor that says bold, so MuPDF does not flag them, and a document's
# body-size bold heads ("3.1.1 Example of a Circle") read as body text.
_TEX_BOLD = re.compile(r"^(?:[A-Z]{6}\+)?(?:cmbx|cmb\d|cmssbx|ecbx|ecrb|ecsx|ebbx|sfbx|sfrb|sfsx|sfxc|tcbx)", re.I)


def _bold(ln: Line) -> bool:
    """Set in a bold face: by the font's flag, or by a TeX bold font's name."""
    return ln.bold or _tex_bold_name(ln.font or "")


@lru_cache(maxsize=1024)
def _tex_bold_name(font: str) -> bool:
    return bool(_TEX_BOLD.match(font))

CODE_ONLY = 0.25  # proportional text under this share of the monospace text: a document set in monospace


def _is_candidate(ln: Line, lay: PageLayout, body: float, gap_above: float, strong_only: bool = False,
                  wrapped: bool = False, top_styles: frozenset = frozenset(), loose: bool = False) -> bool:
    text = ln.text.strip()
    if ln.size < body + 0.9 and not text[:1].isdecimal() and not _bold(ln):
        return False  # running text: a line neither larger nor bold is a head only when numbered (_capitals_head);
        # asked first, as most lines are running text (an equivalent test, see test_speed_memo.py)
    if not text or len(text) > 120 or len(text.split()) > 16:
        return False
    if top_styles and _style(ln) not in top_styles:
        return False  # a document headed at the top of its pages: large type elsewhere is an example's output
    if ln.y1 < lay.height * MARGIN or ln.y0 > lay.height * (1 - MARGIN):
        # Running heads and folios live here; a numbered heading set larger than the body at the very
        # top of a page ("Note 2 - Fair value measurement") is still a heading (repeats are dropped later).
        if not (ln.y0 < lay.height * MARGIN and ln.size >= body + 0.9 and (_numbered(text) or top_styles)):
            return False
    if not (_LETTERS.search(text) or _RELEASE.match(text)) or "." in text and DOT_LEADERS.search(text):
        return False
    if body <= 0 or ln.size <= 0:
        return False
    if _monospace(ln) and ln.size < body + 0.9:
        return False  # code; a monospace line set larger than the body is a heading ("4.1 control", "debian/rules")
    if _monospace(ln) and _CALL_SIGNATURE.match(text):
        return False  # a function's signature, whatever its size: code (Texinfo's definition lines)
    if _BULLET.match(text):
        return False
    if ln.max_gap > 3 * max(ln.size, body):
        return False  # two columns side by side, not a heading
    bigger = ln.size >= body + 0.9
    numbered = parse_numbering(text) or (_NOTE.match(text) and "note")
    if numbered is not None and numbered != "note" and numbered.rest[:1] in ("&", ";", ",", "+", "=", "/"):
        return False  # a list of section numbers ("6.5 & 6.6"), not a section
    if strong_only and (len(text.split()) > MAX_HEAD_WORDS or SENTENCE.search(text)):
        return False  # a sentence, or two columns merged into one line
    if not bigger:
        if strong_only and numbered is None:
            return False
        if ln.size < body - 0.6 or not (_bold(ln) or _capitals_head(text, numbered, ln, gap_above)):
            return False
        # Bold at body size: only a short line set apart from the text above, not bold words in a paragraph.
        if (ln.x1 - ln.x0) > 0.75 * lay.width or text.endswith((".", ":", ",", ";")) and numbered is None:
            return False
        if numbered is None and SENTENCE.search(text):
            return False  # an unnumbered run-in head and its paragraph ("Induction. We now present ..."): no section
        if gap_above < 0.6 * max(ln.y1 - ln.y0, 1.0):
            return False
    if not bigger and re.search(r"[^\W\d_]-$", text):
        return False  # a paragraph line hyphenated at its end
    # ``loose`` (the line above is set otherwise: no paragraph in large type goes on here): a line set larger than
    # the body may end in a full stop or open lower-case; it is a head only where the document sets others in its
    # style (_styled_head, detect_headings).
    apart = loose and bigger
    first = _first_char(text)
    if text[-1:] in ";/&(" or text.endswith(",") and not (wrapped and numbered is not None) or (
            text.endswith(".") and numbered is None and not (apart and _one_sentence(text) and not first.islower())):
        return False  # a sentence or its tail ("attached (the \"Terms\")."), or a fragment ("Increase /" over a column)
    if first.islower() and not (bigger and ((_NAME_LINE.match(text) or _IDENTIFIER.match(text))
                                            and gap_above >= ln.y1 - ln.y0
                                            or top_styles and _SOURCE_FILE.match(text)) or apart):
        return False  # a paragraph continuing from the line above; a manual page's "alimask - calculate ..." stays,
        # and so does a function's name heading its reference entry ("astActiveObjects")
    if len(text.split()) > MAX_HEAD_WORDS and numbered is None:
        return False
    return True


# A function's signature: its type's words, its name and the opening bracket of its parameters ("Shishi_tkt *
# shishi_tkts_find (Shishi_tkts * tkts,", "void gsasl_done (Gsasl * ctx)").
_CALL_SIGNATURE = re.compile(r"^[A-Za-z_][\w:<>]*(?:\s+[\w:<>]+)*[\s*&]+[A-Za-z_]\w*\s*\(")


def _code_continued(ln: Line, above: Line | None, body: float) -> bool:
    """A line going on from a line of code right above it, in its size, indented from it (or under a line of
    parameters ending in a comma): the rest of a function's signature wrapped onto it ("(Shishi_tkts * tkts, const
    char * server)"), in whatever font."""
    return (above is not None and _monospace(above) and abs(above.size - ln.size) < 0.5
            and ln.y0 - above.y1 < 0.8 * max(ln.y1 - ln.y0, 1.0)
            and (ln.x0 >= above.x0 + max(body, 1.0) or abs(ln.x0 - above.x0) <= 2 and above.text.rstrip().endswith(",")))


def _first_char(text: str) -> str:
    """A line's first character past its opening quotes and brackets (what says whether it opens lower-case)."""
    return text.lstrip("\"'\u201c(\u2018[")[:1]


def _one_sentence(text: str) -> bool:
    """A short title closed by one full stop ("Viewing the data."), not an ellipsis, an abbreviation or a sentence
    ending inside the line."""
    return not text.endswith("..") and not SENTENCE.search(text) and len(text.rstrip(".").split()) >= 2 \
        and text.count(".") == 1


def _styled_head(text: str, ln: Line) -> bool:
    """A candidate only ``loose`` let in: a larger line ending in a full stop, or opening lower-case (a program's
    name: "w1retap dependencies"). Word processors' heads keep the author's full stop and case."""
    return text.endswith(".") and parse_numbering(text) is None or _first_char(text).islower() \
        and not _NAME_LINE.match(text) and not _SOURCE_FILE.match(text) and not _IDENTIFIER.match(text)


STYLED_SHARE = 3  # other heads in a line's style before a full stop or a lower-case start does not keep it out


# "4.1. Priority Trees. Note the commands ...": a subsection number, a short title and its full stop, then the text.
_RUN_IN = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){1,3}\.?)\s+([A-Z][^.!?:;]{1,60}?)\.\s+\S")


def _run_in(text: str, ln: Line, body: float, gap_above: float) -> str | None:
    """The head of a paragraph that opens with a numbered run-in title, set apart from the text above (LaTeX's
    amsart subsections); outline_headings keeps it only below a numbered section it continues."""
    m = _RUN_IN.match(text)
    if m is None or abs(ln.size - body) > 0.6 or _monospace(ln) or gap_above < 0.5 * max(ln.y1 - ln.y0, 1.0):
        return None
    if DOT_LEADERS.search(text):
        return None  # a contents line ("1.1 Accessing the system files . . . . 1"), wherever the contents is printed
    if len(m.group(2).split()) > 8:
        return None
    return f"{m.group(1)} {m.group(2)}"


# A paragraph opening with a section number: "2. Program global context. Let's start ...", "4.1 Degrees. To ...".
_NUMBERED_START = re.compile(r"^\d{1,3}(?:\.\d{1,3}){0,3}\.?\s+\S")
MAX_LEAD_WORDS = 10  # a run-in title's words at most, its number included


def _bold_run_in(text: str, ln: Line, body: float, gap_above: float) -> str | None:
    """The bold head a numbered paragraph opens with, the text running on in roman after it (CWEB's starred
    sections, amsart's and LaTeX's run-in heads set bold): its number and bold words up to their full stop.
    outline_headings keeps it only where the document sets whole-line heads the same way (``_set_like_heads``)."""
    if not _NUMBERED_START.match(text) or abs(ln.size - body) > 0.6 or _monospace(ln):
        return None
    if gap_above < 0.5 * max(ln.y1 - ln.y0, 1.0) or DOT_LEADERS.search(text):
        return None
    words = ln.words
    n = next((i for i, w in enumerate(words) if not w.bold), len(words))
    if n < 2 or n == len(words) or n > MAX_LEAD_WORDS or not words[n - 1].text.endswith((".", ":")):
        return None
    head = " ".join(w.text for w in words[:n]).rstrip(".:")
    num = parse_numbering(head)
    if num is None or num.kind != "decimal" or not re.search(r"[^\W\d_]{2,}", num.rest):
        return None
    return head


def _text_margins(layouts: Sequence[PageLayout], body: float) -> tuple[float, ...]:
    """Where the document's body-size lines start: its text's left margin, where most of them do (a page of
    definitions, most of them indented, does not move it), and any other x where the lines of a good share of its
    paragraphs run on (``MARGIN_SHARE`` of the main margin's; a line right under one starting there, not a paragraph's
    indented first line). A manual page's paragraphs run at one indent and its definitions' text at a deeper one,
    which may hold more lines (a long list of options): both are margins a paragraph is set at."""
    starts: Counter[int] = Counter()
    runs: Counter[int] = Counter()
    for lay in layouts:
        last: Line | None = None
        for ln in lay.lines:
            if abs(ln.size - body) > SIZE_JITTER:
                last = None
                continue
            x = round(ln.x0)
            starts[x] += 1
            if last is not None and abs(last.x0 - ln.x0) <= 1 and ln.y0 - last.y1 < 0.6 * max(ln.y1 - ln.y0, 1.0):
                runs[x] += 1
            last = ln
    if not starts:
        return (0.0,)
    top = starts.most_common(1)[0][0]
    return (float(top), *(float(x) for x, n in runs.most_common() if x != top and n >= MARGIN_SHARE * runs[top]))


MARGIN_SHARE = 0.25  # body-size lines starting at an x, of those at the main margin, before it is a margin too


def _wraps(ln: Line, nxt: Line | None) -> bool:
    """The next line goes on in this line's size and weight with no space between: a head wrapped onto it."""
    return (nxt is not None and abs(nxt.size - ln.size) < 0.5 and _bold(nxt) == _bold(ln)
            and nxt.y0 - ln.y1 < 0.8 * max(nxt.y1 - nxt.y0, 1.0))


# A head labelled by a word and its number ("Note 7:", "NOTE 6.", "Article 3:", "Schedule 2."): a filing's notes and
# a contract's articles, which parse_numbering leaves to their own readers.
_LABELLED = re.compile(r"^[A-Z][A-Za-z]{2,11}\s+\d{1,3}[A-Z]?(?:\.\d{1,3})*\s*[:.\u2013\u2014-]\s")


def _definition_term(ln: Line, nxt: Line | None, body: float, margin: Callable[[], tuple[float, ...]],
                     then: Line | None = None, listed: Callable[[], frozenset] | None = None) -> bool:
    """A definition list's term: a body-size bold line ("ASCII", "11.9; perl-policy") whose definition follows with no
    space between, the term at a text margin of the document and the definition indented from it (docutils', DocBook's
    and Texinfo's definition lists, a manual page's tagged paragraphs). A head has space below it, or stands out of the
    text's margins (groff's man pages set their heads to the left of every paragraph); a list under a head (bullets,
    numbers) or code is no definition; nor is a paragraph indented on its first line only (``then``, the line after,
    back at the margin: a filing's "20. Restructuring" over its note's text).

    A term of a style and place the document sets many terms in (``listed``, ``_listed_terms``) is one with some
    space between it and its definition too (a manual page's options, each description opening with a paragraph)."""
    if _hanging(ln, nxt, body, margin, then):
        return True
    return listed is not None and _term_key(ln) in listed() and _hanging(ln, nxt, body, margin, then, listed=True)


TERM_GAP = 0.5  # space between a term and its definition, in line heights, under which the two are one item
LIST_GAP = 2.5  # the same for a term of a style the document sets its terms in
MIN_TERMS = 3  # terms of one style and place, each with its definition right under it, before the style is a list's
TERM_SHARE = 0.5  # share of a style's lines over an indented text that are such terms


def _term_key(ln: Line) -> tuple[str, float, int]:
    return (ln.font or "", round(ln.size, 1), round(ln.x0))


def _hanging(ln: Line, nxt: Line | None, body: float, margin: Callable[[], tuple[float, ...]], then: Line | None,
             listed: bool = False) -> bool:
    """A line at a text margin with the next line's text indented from it (a hanging definition) right under it;
    ``listed``, a line of a style the document sets its terms in: with some space between, the definition at a text
    margin of its own (a filing's note head over its bold subhead, indented a little, is no term), and it may open
    with a bracket ("(Experimental feature.)")."""
    if nxt is None or ln.size >= body + 0.9 or _bold(nxt) or _monospace(nxt):
        return False
    if parse_numbering(ln.text) is not None or _LABELLED.match(ln.text.lstrip()):
        return False  # "20. Restructuring", "Note 7: Property, Plant and Equipment": a numbered head, whatever is under it
    if nxt.y0 - ln.y1 >= (LIST_GAP if listed else TERM_GAP) * max(ln.y1 - ln.y0, 1.0) \
            or nxt.x0 < ln.x0 - 2 + max(body, 1.0):
        return False
    # A pass over the document's lines, made once and only for a line that may be a term.
    if not any(abs(ln.x0 - at) <= 2 and nxt.x0 >= at + max(body, 1.0) for at in margin()):
        return False
    if listed and not any(abs(nxt.x0 - at) <= 2 for at in margin()):
        return False
    if then is not None and then.y0 - nxt.y1 < 0.5 * max(nxt.y1 - nxt.y0, 1.0) and then.x0 < nxt.x0 - 2 \
            and not _bold(then) and abs(then.size - nxt.size) < 0.5:
        return False  # the text under it goes on at the left: its first line was indented, not a definition
    first = nxt.text.lstrip()[:1]
    return (first.isalnum() or listed) and not _BULLET.match(nxt.text.lstrip()) and parse_numbering(nxt.text) is None


def _listed_terms(layouts: Sequence[PageLayout], body: float, margin: Callable[[], tuple[float, ...]]) -> frozenset:
    """The styles and places (font, size, x) of the bold body-size lines a document sets as a definition list's
    terms: at least ``MIN_TERMS`` of them over their definitions with no space between, and those a good share
    (``TERM_SHARE``) of the style's lines over an indented text, space between or not."""
    close: Counter[tuple] = Counter()
    spaced: Counter[tuple] = Counter()
    for lay in layouts:
        lines = lay.lines
        for i, ln in enumerate(lines):
            if not _bold(ln) or ln.size < body - 0.6 or ln.size >= body + 0.9 or i + 1 >= len(lines):
                continue
            then = lines[i + 2] if i + 2 < len(lines) else None
            if _hanging(ln, lines[i + 1], body, margin, then, listed=True):
                spaced[_term_key(ln)] += 1
                close[_term_key(ln)] += _hanging(ln, lines[i + 1], body, margin, then)
    return frozenset(k for k, n in close.items() if n >= MIN_TERMS and n >= TERM_SHARE * spaced[k])


# A named code chunk where a CWEB program defines it: "<Decode equal sign escape 29> =" (angle brackets, the
# section number, an identity sign); "<Global variables 6> +=" continues one defined earlier. noweb numbers its chunks
# by page ("3a"), and its outline does not list them.
_CHUNK = re.compile(r"^[\u27e8\u2329\u3008]\s*(\S.{0,80}?)\s+\d{1,4}\s*[\u27e9\u232a\u3009]\s*\u2261")
_CHUNK_OPEN = "\u27e8\u2329\u3008"
MIN_CHUNKS = 3  # chunk definitions before a document is taken to be a literate program


def _chunk_name(text: str) -> str | None:
    """The name of a literate program's code chunk on the line that defines it, which CWEB's outline lists ("Names
    of the sections"): each is a unit of the program with a title of its own."""
    m = _CHUNK.match(text)
    return m.group(1) if m else None


def _capitals_head(text: str, numbered: object, ln: Line, gap_above: float) -> bool:
    """A numbered head in capitals at body size, not bold, with space above ("1. INTRODUCTION": amsart's
    sections, set in small capitals): its numbering, case and spacing are the evidence its weight is not. The
    capitals may be a small-capitals font's, whose text reads in lower case ("1. Introduction" in cmcsc10)."""
    if not isinstance(numbered, Numbering) or numbered.kind != "decimal":
        return False
    letters = [c for c in numbered.rest if c.isalpha()]
    return (len(letters) >= 3 and (all(c.isupper() for c in letters) or _small_caps_name(ln.font or ""))
            and len(numbered.rest.split()) <= 8 and not numbered.rest.endswith(".")
            and gap_above >= max(ln.y1 - ln.y0, 1.0))


# Small-capitals faces by name: Computer Modern's cmcsc, the EC and cm-super fonts' eccc/sfcc, Latin Modern's
# "LMRomanCaps", OpenType "SmCp"/"SC" cuts.
_SMALL_CAPS = re.compile(r"^(?:[A-Z]{6}\+)?(?:cmcsc|eccc|sfcc)|caps|smcp|smallcap|[-_ ]sc$", re.I)


@lru_cache(maxsize=1024)
def _small_caps_name(font: str) -> bool:
    return bool(_SMALL_CAPS.search(font))


def _style(ln: Line) -> tuple[str, float]:
    return (ln.font or "", round(ln.size, 1))


TOP_PAGES = 0.4  # share of the pages whose first line is set in one large style before the document is headed so
TOP_DISTINCT = 0.8  # share of those first lines that differ: heads, not a running head


# A source file's path standing as a head: "basic_concepts/creation.rb", "text/free_flowing_text.py".
_SOURCE_FILE = re.compile(r"^(?:[\w.-]+/)*([A-Za-z][\w-]*)\.(?:rb|py|js|ts|java|c|cc|cpp|go|rs|pl|php|lua|scala|kt|"
                          r"swift|sh|r|m|ex|exs|hs|ml|clj|cs|jl|dart)$")
FILE_HEADS = 0.8  # share of a style's heads that are source files before each is named by its file


def _name_by_files(found: list[Heading]) -> None:
    """Name each head of a generated book of examples by its file, as the book's outline does: "Other cursor
    helpers" for "basic_concepts/other_cursor_helpers.rb", where the heads of its style are source files' paths."""
    styles: dict[tuple, list[Heading]] = {}
    for h in found:
        styles.setdefault((h.size, h.bold), []).append(h)
    for heads in styles.values():
        files = [(h, m) for h in heads if (m := _SOURCE_FILE.match(h.title))]
        if len(files) >= MIN_TOP_PAGES and len(files) >= FILE_HEADS * len(heads):
            for h, m in files:
                words = m.group(1).replace("_", " ").replace("-", " ").strip()
                h.title = words[:1].upper() + words[1:]


def _page_top_styles(layouts: Sequence[PageLayout], body: float) -> frozenset:
    """The styles (font, size) of a document that heads each of its pages at the very top, in the header band,
    in display type (a generated book of examples, one example to a page: Prawn's manual, headed by each example's
    file). Its heads are those lines, and large type elsewhere on its pages is the examples' output. A running
    head repeats its text; this needs the page-top lines of one style to differ, on a good share of the pages."""
    if len(layouts) < 2 * MIN_TOP_PAGES or body <= 0:
        return frozenset()
    tops: dict[tuple[str, float], list[str]] = {}
    for lay in layouts:
        ln = lay.lines[0] if lay.lines else None
        if ln is not None and ln.y1 < lay.height * MARGIN and ln.size >= DISPLAY * body and not _monospace(ln):
            tops.setdefault(_style(ln), []).append(" ".join(ln.text.split()).casefold())
    pages = sum(len(t) for t in tops.values())
    if pages < max(MIN_TOP_PAGES, TOP_PAGES * len(layouts)):
        return frozenset()
    styles = frozenset(k for k, t in tops.items() if len(t) >= 2 and len(set(t)) >= TOP_DISTINCT * len(t))
    return styles if sum(len(tops[k]) for k in styles) >= TOP_PAGES * len(layouts) else frozenset()


MIN_TOP_PAGES = 5
DISPLAY = 1.4  # a page-top line this much larger than the body is display type (a running head is set near the body's size)


def _right_to_left(layouts: Sequence[PageLayout], body: float) -> bool:
    """Whether the document is set right to left: its paragraphs' short lines (a paragraph's last line) end flush
    with the text's right edge and start wherever their words run out, where a left-to-right text starts them at its
    left margin and ends them anywhere. A translation built with a right-to-left language's settings sets even its
    Latin words in that order: "Introduction to wxMaxima 2" reads "2 Introduction to wxMaxima" from the right, and
    the layout, which lists a line's words left to right, gives them backwards. An indented block justified to the
    right edge (a list, a quotation) starts its lines at a margin of its own, not at scattered places."""
    return _ragged_sides(layouts, body)[0]


def _ragged_sides(layouts: Sequence[PageLayout], body: float) -> tuple[bool, int, int]:
    """(read right to left, short lines flush right with a ragged start, short lines flush left with a ragged end)."""
    lines = [ln for lay in layouts for ln in lay.lines
             if abs(ln.size - body) <= SIZE_JITTER and not _monospace(ln) and len(ln.text.split()) >= 2]
    if len(lines) < RTL_LINES:
        return False, 0, 0
    starts = Counter(round(ln.x0) for ln in lines)
    ends = Counter(round(ln.x1) for ln in lines)
    left, right = starts.most_common(1)[0][0], ends.most_common(1)[0][0]
    indent = 2 * max(body, 1.0)

    def scattered(at: Counter[int], x: float) -> bool:
        return sum(at[round(x) + d] for d in (-1, 0, 1)) <= RAGGED_REPEATS

    flush_right = sum(1 for ln in lines if abs(ln.x1 - right) <= 2 and ln.x0 > left + indent and scattered(starts, ln.x0))
    flush_left = sum(1 for ln in lines if abs(ln.x0 - left) <= 2 and ln.x1 < right - indent and scattered(ends, ln.x1))
    return flush_right >= RTL_SHORT_LINES and flush_right >= RTL_SHARE * max(flush_left, 1), flush_right, flush_left


RAGGED_REPEATS = 2  # lines starting (ending) within a point of a short line's start (end) before it is a margin
RTL_LINES = 50  # body lines before the side a document's short lines keep to is weighed
RTL_SHORT_LINES = 20  # short lines flush right, at least, before the document reads right to left
RTL_SHARE = 4  # and this many times as many as those flush left


def _read_right_to_left(lay: PageLayout) -> PageLayout:
    """A page of a right-to-left document with each line's words in reading order (right to left)."""
    lines = []
    for ln in lay.lines:
        # The words' boxes are built when first asked for, as the layout leaves them (few lines are asked).
        line = dc_replace(ln, text=" ".join(reversed(ln.text.split())), words=None)
        line.words_from(lambda ln=ln: list(reversed(ln.words or [])))
        lines.append(line)
    return dc_replace(lay, lines=lines)


def detect_headings(layouts: Sequence[PageLayout], body: float | None = None, strong_only: bool = False,
                    whole: bool = False) -> list[Heading]:
    """Headings in reading order over the given pages, with levels.

    ``strong_only`` keeps only headings set larger than the body or numbered (used when
    splitting a section, where bold run-in labels would add noise rather than structure). ``whole``: the pages
    are the whole document, whose page-opening heads (``_page_opening_styles``) are its entries; inside one long
    section (a leaf being split) a run of them is that section's own list (an API appendix's functions, one to a
    page), which the outline leaves to the section.
    """
    if body is None:
        body = body_size(layouts)
    if _right_to_left(layouts, body):
        layouts = [_read_right_to_left(lay) for lay in layouts]
    found: list[Heading] = []
    unit_name = ""
    known: list[tuple[float, ...]] = []
    terms: list[frozenset] = []
    top_styles = _page_top_styles(layouts, body)

    def margin() -> tuple[float, ...]:
        if not known:
            known.append(_text_margins(layouts, body))
        return known[0]

    def listed() -> frozenset:
        if not terms:
            terms.append(_listed_terms(layouts, body, margin))
        return terms[0]

    for lay in layouts:
        unit = _unit_title(lay)
        if unit is not None and unit.title != unit_name:
            found.append(unit)  # a manual page starts: its name heads the sections under it
        unit_name = unit.title if unit is not None else unit_name
        prev: Heading | None = None
        prev_line: Line | None = None
        head_width = 0.0
        label, label_y = "", 0.0
        word_label_y: float | None = None  # the foot of a label-only line ("CHAPTER", "ONE") just above
        last_y1: float | None = None
        # The text block's width, not the paper's: a chapter title wrapped inside wide margins ran out of room.
        text_width = (max(ln.x1 for ln in lay.lines) - min(ln.x0 for ln in lay.lines)) if lay.lines else lay.width
        for i, ln in enumerate(lay.lines):
            gap_above = ln.y0 - last_y1 if last_y1 is not None else lay.height
            last_y1 = ln.y1
            text = " ".join(ln.text.split())
            if (
                prev is not None and prev_line is not None and (text[:1].islower() or prev.title.endswith(","))
                and not _one_name(prev.title)
                and len(text.split()) <= 12
                and abs(prev.size - ln.size) < 0.5 and prev.bold == _bold(ln) and gap_above < 0.8 * max(ln.y1 - ln.y0, 1.0)
            ):
                # A heading wrapped in a narrow column: the second line starts lower-case, in the same style; or the
                # head so far ends in a comma (a list of names over three lines), whatever this line ends in.
                prev.title = _join(prev.title, text)
                prev_line = ln
                head_width = max(head_width, ln.x1 - ln.x0)
                continue
            nxt = lay.lines[i + 1] if i + 1 < len(lay.lines) else None
            wrapped = text.endswith(",") and _wraps(ln, nxt)  # asked of every line: only a comma makes it matter
            above = lay.lines[i - 1] if i else None
            # ``loose``: set otherwise than the lines above and below it, a head between text; not one of a run of
            # lines in one style (a list of names under an exhibit's title: "Larry Aiello, Jr.", "R. Pierce Baker, III").
            loose = not strong_only and (above is None or abs(above.size - ln.size) >= 0.5 or _bold(above) != _bold(ln)) \
                and (nxt is None or abs(nxt.size - ln.size) >= 0.5 or _bold(nxt) != _bold(ln))
            if not _is_candidate(ln, lay, body, gap_above, strong_only, wrapped, top_styles, loose) \
                    or _code_continued(ln, above, body) or _definition_term(
                    ln, nxt, body, margin, lay.lines[i + 2] if i + 2 < len(lay.lines) else None, listed):
                chunk = None if strong_only or text[:1] not in _CHUNK_OPEN else _chunk_name(text)
                digit = text[:1].isdecimal()  # both run-in heads open with their number (_RUN_IN, _NUMBERED_START)
                head = None if strong_only or chunk is not None or not digit else _run_in(text, ln, body, gap_above)
                lead = None if strong_only or head is not None or chunk is not None or not digit else _bold_run_in(
                    text, ln, body, gap_above)
                if chunk is not None:
                    found.append(Heading(lay.number, chunk, round(ln.size, 1), _bold(ln), ln.y0, chunk=True))
                elif head is not None:
                    found.append(Heading(lay.number, head, round(ln.size, 1), _bold(ln), ln.y0,
                                         numbering=parse_numbering(head), run_in=True))
                elif lead is not None:
                    found.append(Heading(lay.number, lead, round(ln.size, 1), True, ln.y0,
                                         numbering=parse_numbering(lead), run_in=True, lead_in=True))
                elif prev is not None and not prev.after:
                    prev.after = text
                prev, prev_line = None, None
                continue
            # A section number set apart from its title by a tab or a kern, no space ("3.1.3Sample streaming setup"):
            # the number is read as the title's, not left glued to its first word.
            text = _GLUED_NUMBER.sub(r"\1 ", " ".join(ln.text.split()))
            num = parse_numbering(text)
            if num is not None and not num.rest and num.kind in ("chapter", "part", "appendix"):
                # "Chapter 3" / "Part II" set above the title: the title below carries it (and its level).
                label, label_y = text, ln.y1
                prev, prev_line = None, None
                continue
            if _LABEL_ONLY.match(text) and ln.size < 30:
                # "CHAPTER" / "ONE" above the real title: a label, not the title.
                prev, prev_line = None, None
                word_label_y = ln.y1
                continue
            if label and ln.y0 - label_y < 6 * max(ln.y1 - ln.y0, 1.0) and parse_numbering(text) is None:
                # As the contents and the bookmarks print it: "VII Utilities", "3 Preface".
                text = f"{label.split()[-1]} {text}"
            label = ""
            if (
                prev is not None and prev_line is not None
                and abs(prev.size - ln.size) < 0.5 and prev.bold == _bold(ln)
                and ln.y0 - prev_line.y1 < 0.8 * max(ln.y1 - ln.y0, 1.0)
                and parse_numbering(text) is None
                # A short numbered heading ("Note 3. Acquisitions") did not run out of room: the line below is
                # the next heading, not its second line.
                # (Its widest line so far: the second line of a three-line head is often short; a head
                # ending in ":" was broken by hand and goes on.)
                and (not _numbered(prev.title) or head_width >= 0.55 * text_width or prev.title.endswith(":"))
            ):
                if _one_name(prev.title) or _name_over_line(prev.title, prev_line, ln, text):
                    # A name is one word, which wraps onto no second line: the line under it in its style says what
                    # the named function does ("astActiveObjects" over "Return pointers for all active Objects").
                    prev.after = prev.after or text
                    prev, prev_line = None, None
                    continue
                prev.title = _join(prev.title, text)  # a heading wrapped onto a second line
                prev_line = ln
                head_width = max(head_width, ln.x1 - ln.x0)
                continue
            # The title label-only lines ("CHAPTER" / "ONE") stand over: a chapter's, whatever it ends in ("START HERE:").
            labelled = word_label_y is not None and ln.y0 - word_label_y < 6 * max(ln.y1 - ln.y0, 1.0)
            word_label_y = None
            h = Heading(lay.number, text, round(ln.size, 1), _bold(ln), ln.y0,
                        numbering=None if _RELEASE.match(text) else parse_numbering(text),
                        styled=not strong_only and _styled_head(text, ln), labelled=labelled,
                        opens_page=i <= 1 or all(up.y1 < lay.height * MARGIN for up in lay.lines[:i]))
            found.append(h)
            prev, prev_line = h, ln
            head_width = ln.x1 - ln.x0
    found = [h for h in found if parse_page_number(h.title) is None]
    # A head by its style only ("Viewing the data.") where the document sets other heads that way.
    styles = Counter((h.size, h.bold) for h in found if not h.styled and not h.unit)
    opening = _page_opening_styles(found) if whole else set()
    found = [h for h in found if not h.styled or styles[(h.size, h.bold)] >= STYLED_SHARE
             or (h.size, h.bold) in opening and h.opens_page]
    if top_styles:
        _name_by_files(found)
    _drop_contents_lines(found)
    _drop_listed_ahead(found)
    _drop_running_folios(found, {lay.number: lay.lines[0].y0 for lay in layouts if lay.lines})
    _drop_repeats(found, len(layouts))
    if layouts and layouts[0].number == 1 and len(layouts) > 4:
        _drop_title_page(found)
    assign_heading_levels(found)
    return found


def _page_opening_styles(found: list[Heading]) -> set[tuple]:
    """The styles (size, weight) in which a document opens page after page with a head of its own, at one height,
    a running head at most above it: a reference whose entries each start a page, named by what they document
    ("db close", "db count": lower-case names a style test alone would take for a paragraph going on). At least
    ``MIN_TOP_PAGES`` such pages, the heads' titles differing (``TOP_DISTINCT``), one to a page."""
    tops: dict[tuple, list[Heading]] = {}
    for h in found:
        if h.styled and h.opens_page:
            tops.setdefault((h.size, h.bold), []).append(h)
    out = set()
    for key, heads in tops.items():
        if len(heads) < MIN_TOP_PAGES or len({h.page for h in heads}) < len(heads):
            continue
        at = Counter(round(h.y0) for h in heads).most_common(1)[0][0]
        level = [h for h in heads if abs(h.y0 - at) <= 2]
        if len(level) >= TOP_DISTINCT * len(heads) and len({h.title.casefold() for h in level}) >= TOP_DISTINCT * len(level):
            out.add(key)
    return out


# A manual page's header line as groff's man macros set it: "ls(1) User Commands ls(1)", the page's name and section
# at both ends.
_MAN_HEADER = re.compile(r"^(?P<name>[\w.+:@-]+\(\d[\w]{0,4}\))\s+\S.*\s(?P=name)$")


def _name_over_line(title: str, first: Line, ln: Line, text: str) -> bool:
    """A one-word head over a longer line in its style that is no second line of it: a line breaks where its next
    word does not fit, and the first word of the line under it would have fitted beside the one word ("Adaptive"
    over "Should the area adapt to changes in the coordinate system?": an attribute's name over what it is)."""
    words = text.split()
    if len(title.split()) != 1 or len(words) < MIN_LINE_WORDS or not _LETTERS.search(title) or not text[:1].isalnum():
        return False  # a bracket goes on with the head: "Controller" over "(Principal Accounting Officer)"
    width, under = first.x1 - first.x0, ln.x1 - ln.x0
    return under > width + under * (len(words[0]) + 1) / max(len(text), 1)


MIN_LINE_WORDS = 3  # words of the line under a one-word head before it reads as a sentence, not the head's tail


def _unit_title(lay: PageLayout) -> Heading | None:
    """The name of the manual page a page belongs to, from its header line in the top margin, as a heading.

    Man pages printed one after the other (``man -t``, a package's collected pages) have no contents and no head
    naming each page: the header line, page furniture elsewhere, is the only place the name is set."""
    for ln in lay.lines[:2]:
        if ln.y1 >= lay.height * MARGIN:
            break
        m = _MAN_HEADER.match(" ".join(ln.text.split()))
        if m:
            return Heading(lay.number, m.group("name"), round(ln.size, 1), _bold(ln), ln.y0, unit=True)
    return None


def _join(head: str, more: str) -> str:
    """A heading's next line appended; a word hyphenated at the line end ("pack- ages") is mended."""
    if head.endswith("-") and head[-2:-1].isalpha() and more[:1].islower():
        return head[:-1] + more
    return f"{head} {more}"


def _numbered(title: str) -> bool:
    return parse_numbering(title) is not None or bool(_NOTE.match(title))


def _drop_repeats(found: list[Heading], pages: int) -> None:
    """Drop titles repeated on many pages (running heads set large, table headers)."""
    if pages < 4:
        return
    limit = 3
    exact = Counter(h.title.casefold() for h in found)
    shapes: dict[str, list[Heading]] = {}
    for h in found:
        shapes.setdefault(re.sub(r"\d+", "#", h.title.casefold()), []).append(h)

    def running(group: list[Heading]) -> bool:
        # Titles differing only in their digits ("Page 3", "Table 12"), unnumbered and set at one height: a
        # running head or a repeated label. Numbered sections ("22.2 Version 4.6.2", "3.1 Introduction") stay.
        if len(group) < limit or any(h.numbering is not None for h in group):
            return False
        ys = Counter(round(h.y0 / 3) for h in group)
        return ys.most_common(1)[0][1] >= 0.6 * len(group)

    recurring, lead = _recurring_sections(found, limit)
    unit_pages = {h.page for h in found if h.unit}
    if recurring and not all(h.page in unit_pages for h in found if h.title.casefold() == lead):
        # No header names the units (DocBook's reference entries): each one's name is on the first line of its
        # "Name" section ("def-constant — Binds a symbol"); the name heads the unit, and the sections that recur
        # under every entry stay out of the outline, as FOP's outline leaves them.
        named = [h for h in found if h.title.casefold() == lead and _NAME_LINE.match(h.after)]
        headed = _named_by_heads(found, named) or _headed_by_display(found, lead)
        # Unless the entry's name is set as a head of its own over its "Name" section (DocBook refentries through
        # dblatex): then the document heads each entry and its recurring sections, as a series of manual pages
        # named by their header lines does, and its outline lists both.
        if len(named) >= limit and not headed:
            names = {id(h): Heading(h.page, _NAME_LINE.match(h.after).group(1), h.size, h.bold, h.y0)  # type: ignore[union-attr]
                     for h in named}
            found[:] = [x for h in found for x in ((names[id(h)], h) if id(h) in names else (h,))]
        if not headed:
            recurring = set()
        else:
            recurring |= _optional_sections(found, recurring)
    for h in found:
        h.recurs = h.title.casefold() in recurring
    dropped = {id(h) for g in shapes.values() if running(g) for h in g if h.title.casefold() not in recurring}
    # One title set twice on one page is a label, not a section: a figure's or a table's heads drawn again beside
    # a second copy ("South West North East" over two bidding diagrams), a cross-reference line repeated.
    on_page = Counter((h.page, h.title.casefold()) for h in found)
    # A title repeated as a label ("Plot" under every entry's "Applicability:") may also head an entry of its own, set
    # once in a larger type than every repeat ("Plot" at 14 pt over its class's page): that one is a head. Larger by a
    # size of its own: two display sizes within a point are one style drawn in two fonts (a title page's line set again
    # on the back cover), a title repeated, not a label.
    sizes: dict[str, list[float]] = {}
    for h in found:
        if exact[h.title.casefold()] >= limit:
            sizes.setdefault(h.title.casefold(), []).append(h.size)

    largest = {t: sorted(v)[-2:] for t, v in sizes.items()}  # the two largest sizes a repeated title is set in

    def set_apart(h: Heading) -> bool:
        top = largest.get(h.title.casefold())
        return top is not None and top[-1] == h.size and top[0] < h.size - LARGER

    found[:] = [h for h in found if set_apart(h) or (exact[h.title.casefold()] < limit or h.title.casefold() in recurring)
                and id(h) not in dropped and (on_page[(h.page, h.title.casefold())] == 1 or h.title.casefold() in recurring)]


def _named_by_heads(found: list[Heading], named: list[Heading]) -> bool:
    """Each reference entry's name is set as the head just above its "Name" section: the head before it carries the
    first name its Name line gives ("FcPatternCreate" over "FcPatternCreate — Create a pattern"), for most entries."""
    if not named:
        return False
    at = {id(h): i for i, h in enumerate(found)}
    same = sum(1 for h in named if at[id(h)] and title_key(found[at[id(h)] - 1].title)
               == title_key(_NAME_LINE.match(h.after).group(1).split(",")[0]))  # type: ignore[union-attr]
    return same >= NAMED_SHARE * len(named)


def _headed_by_display(found: list[Heading], lead: str) -> bool:
    """Each unit of the series is headed by its name set larger than its sections, just above its first one (man
    pages typeset one after the other by a word processor: "AVS2PS" at 18 pt over "SYNOPSIS" at the body's size):
    for most returns of the lead section, the head before it is larger, one style for all, a different name each.
    The sections keep man(7)'s capitals; a guide's own subsections under its pages ("Synopsis" under "alimask -
    add a column mask"), which its outline leaves out, do not."""
    at = [i for i, h in enumerate(found) if h.title.casefold() == lead and h.title.isupper()]
    above = [found[i - 1] for i in at if i and found[i - 1].size > found[i].size + 0.9]
    return (len(above) >= NAMED_SHARE * len(at) and len({(h.size, h.bold) for h in above}) == 1
            and len({h.title.casefold() for h in above}) == len(above))


def _optional_sections(found: list[Heading], recurring: set[str]) -> set[str]:
    """Titles (casefolded) of the sections some entries of a headed series have and others lack ("Since", "See Also"):
    repeated, always set in the one style of the recurring sections, unnumbered."""
    style = {(h.size, h.bold) for h in found if h.title.casefold() in recurring}
    if len(style) != 1:
        return set()
    shapes: dict[str, set[tuple]] = {}
    for h in found:
        if not h.unit:
            shapes.setdefault(h.title.casefold(), set()).add((h.size, h.bold) if h.numbering is None else ())
    counts = Counter(h.title.casefold() for h in found)
    return {t for t, s in shapes.items() if s == style and counts[t] >= 2}


NAMED_SHARE = 0.5  # entries whose head carries their name before the document is taken to head its entries


def _recurring_sections(found: list[Heading], limit: int) -> tuple[set[str], str]:
    """Titles (casefolded), and the first of them, that recur as the sections of a series of like documents bound in one file: manual pages
    ("NAME", "SYNOPSIS", "DESCRIPTION" ... under every page), generated reference entries.

    A series shows as cycles: split the repeated titles at each return of the first one; three or more titles each
    in at least half the cycles (at least ``limit`` of them), none twice in a cycle, always in one order. A title
    repeated as a label ("Note", "Example") or a running head does not cycle with others."""
    counts = Counter(h.title.casefold() for h in found if not h.unit)
    series = [h.title.casefold() for h in found if not h.unit and counts[h.title.casefold()] >= limit]
    # The series may start after repeated heads of the document's own (a guide's chapters before its manual pages).
    best: tuple[set[str], str] = (set(), "")
    for lead in dict.fromkeys(series):
        members = _cycle_members(series[series.index(lead):], limit)
        if len(members) > len(best[0]):
            best = (members, lead)
    return best


ODD_CYCLES = 0.05  # share of a series' cycles that may name a title twice


def _cycle_members(series: list[str], limit: int) -> set[str]:
    """The titles of a series that recur in every cycle starting at its first title, or an empty set."""
    cycles: list[list[str]] = []
    for t in series:
        if t == series[0]:
            cycles.append([])
        if cycles:
            cycles[-1].append(t)
    # A cycle naming a title twice (a "Note" label set as a head beside the "Notes" section, the end of the series
    # running into an appendix's own) is left out of the count; more than a few such cycles and there is no series.
    odd = [c for c in cycles if len(set(c)) < len(c)]
    if len(cycles) < limit or len(odd) > ODD_CYCLES * len(cycles):
        return set()
    cycles = [c for c in cycles if len(set(c)) == len(c)]
    share = Counter(t for c in cycles for t in c)
    members = {t for t, n in share.items() if n >= 0.5 * len(cycles)}
    if len(members) < 3:
        return set()
    before: set[tuple[str, str]] = set()
    for c in cycles:
        kept = [t for t in c if t in members]
        before |= {(a, b) for i, a in enumerate(kept) for b in kept[i + 1:]}
    return set() if any((b, a) in before for a, b in before) else members


# A function's or a variable's name as one word opening lower-case: "astActiveObjects", "gnutls_init", "mp_run"; a
# family of functions named with a placeholder for its type ("astGet<X>", "astIsA<Class>").
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*|_[A-Za-z0-9]+)+(?:<[A-Z][A-Za-z]{0,9}>)?$")
# A name written as one word with capitals inside it, opening upper-case: "FitsAxisOrder", "CmpFrame", "StdOfRest".
_CAMEL_NAME = re.compile(r"^[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+$")


def _one_name(title: str) -> bool:
    """A head that is one name (an identifier, a word in camel case): a name does not wrap onto a second line, so a
    line under it in its style says what the name is ("CmpFrame" over "Compound Frame", "astChr2Double" over "read a
    double value from a string")."""
    return bool(_IDENTIFIER.match(title) or _CAMEL_NAME.match(title))


# The first line of a reference entry's "Name" section: its name(s), a dash, what it does.
_NAME_LINE = re.compile(r"^([^\s\u2014\u2013\u2212]{1,60}(?:,\s*[^\s\u2014\u2013\u2212]{1,60})*)\s+[\u2014\u2013\u2212-]\s+\S")


# A contents line: a title and the page number it is listed at ("1 Generalities 1", "Preface v").
_LISTED = re.compile(r"^(?P<title>.*[^\W\d_].*?)\s+(?P<page>\d{1,4}|[ivxlcdm]{1,7})$")
CONTENTS_ROWS = 3  # listed titles on one page before it reads as a contents page


def _drop_contents_lines(found: list[Heading]) -> None:
    """Drop the lines of a contents page the contents reader did not read: titles ending in a page number whose
    numbers never go back (roman front matter first), three or more to a page, each a different title, whatever
    their styles (chapter and section rows); and the rows that go on forward on the pages next to it. A head that
    ends in a number of its own ("Moving to Python 3", "Version 2" over a release's notes) is one to a page, or one
    title counting up."""
    def listed(h: Heading) -> tuple[int, int] | None:
        m = _LISTED.match(h.title)
        page = parse_page_number(m.group("page")) if m else None
        if m is None or page is None:
            return None
        label = parse_numbering(m.group("title"))
        if label is not None and not label.rest:
            return None  # "Part II", "Chapter 3": a label and its number, not a title and its page
        return (page.kind == "arabic", page.value)

    pages: dict[int, list[tuple[Heading, tuple[int, int]]]] = {}
    for h in found:
        at = listed(h)
        if at is not None:
            pages.setdefault(h.page, []).append((h, at))

    def forward(rows: list[tuple[Heading, tuple[int, int]]]) -> bool:
        return all(a[1] <= b[1] for a, b in zip(rows, rows[1:]))

    listing = {p for p, rows in pages.items() if len(rows) >= CONTENTS_ROWS and forward(rows)
               and len({re.sub(r"\d+", "#", h.title.casefold()) for h, _ in rows}) == len(rows)}
    for p in sorted(listing):
        for step in (1, -1):
            q, last = p, pages[p]
            while q + step in pages and q + step not in listing and forward(
                    pages[q + step] if step > 0 else pages[q + step] + last[:1]) and (
                    step < 0 or last[-1][1] <= pages[q + step][0][1]):
                q += step
                last = pages[q]
                listing.add(q)
    rows = {id(h) for p in listing for h, _ in pages[p]}
    found[:] = [h for h in found if id(h) not in rows]


_ROW_AFTER = re.compile(r"^(?:\d+(?:\.\d+)*\.?(?:\s|$)|\s*$)")  # "1.1 Introduction", a folio "5", nothing


def _drop_listed_ahead(found: list[Heading]) -> None:
    """Drop the rows of a contents printed without page numbers (a listing of links, as an HTML book converted to
    PDF prints it): a page holding CONTENTS_ROWS or more numbered heads that are set again, number and title alike,
    as heads on later pages. The later copies head their sections; the earlier ones only list them. Most of those
    rows must be followed by another row (a line opening with a number, or nothing), as a listing's rows are: a
    page of short numbered sections over their text, set again word for word later (two copies of one letter in a
    filing's exhibits), is no listing."""
    last: dict[str, int] = {}
    for h in found:
        if h.numbering is not None:
            last[h.title.casefold()] = h.page
    ahead: dict[int, list[int]] = {}
    for h in found:
        if h.numbering is not None and last[h.title.casefold()] > h.page:
            ahead.setdefault(h.page, []).append(id(h))
    listed = {i for ids in ahead.values() for i in ids}
    stacked = Counter(h.page for h in found if id(h) in listed and _ROW_AFTER.match(h.after or ""))
    listing = {p for p, ids in ahead.items() if len(ids) >= CONTENTS_ROWS and 2 * stacked[p] > len(ids)}
    if not listing:
        return
    # The listing goes on over the next pages holding heads while every numbered head on them is listed ahead (a
    # chapter's row alone on a page of its sections' rows, set smaller, which are no heads).
    numbered = Counter(h.page for h in found if h.numbering is not None)
    pages = sorted(numbered)
    for p in sorted(listing):
        for q in pages[pages.index(p) + 1:]:
            if len(ahead.get(q, ())) < numbered[q]:
                break
            listing.add(q)
    rows = {i for p in listing for i in ahead[p]}
    found[:] = [h for h in found if id(h) not in rows]


# A page's number set at one end of its running head: "6.1. PRIME NUMBERS 151", "1.4. THE COMPLEX VARIABLE15" (glued
# by the layout), "4 CHAPTER 1. INTRODUCTION".
# A number after a letter, a bracket or a space: "Version 4.6.1" ends in its own number.
_FOLIO_AFTER = re.compile(r"^(?P<title>.*[^\W\d_].*?(?:[^\W\d_]|\)))\s*(?P<page>\d{1,4})$")
_FOLIO_BEFORE = re.compile(r"^(?P<page>\d{1,4})\s+(?P<title>\S.*)$")
FOLIO_HEADS = 3  # first lines of pages whose end number is the page's less one offset, before they are running heads


def _drop_running_folios(found: list[Heading], tops: dict[int, float]) -> None:
    """Drop running heads that carry the page's number: the first line of its page, a section's title (set again as
    a head, or on another page) with a number at one end that is the page's number less an offset shared by
    FOLIO_HEADS or more such lines (the printed folio;
    LaTeX's book class sets "6.1. PRIME NUMBERS 151" below the top margin, in capitals at the body's size, which reads
    as a numbered head in capitals). A number before the title is a folio only before a numbered title ("4 CHAPTER 1.
    INTRODUCTION"): before a plain title it is the section's own."""
    at: list[tuple[Heading, int, str]] = []
    for h in found:
        if h.numbering is None or abs(h.y0 - tops.get(h.page, -1.0)) > 1:
            continue
        m = _FOLIO_AFTER.match(h.title)
        if m is None:
            m = _FOLIO_BEFORE.match(h.title)
            if m is None or parse_numbering(m.group("title")) is None:
                continue
        at.append((h, h.page - int(m.group("page")), _section_key(m.group("title"))))
    # A running head repeats a title: its section's own head, or itself on the section's other pages. A run of
    # sections one to a page, each numbered in its title ("Day 1", "Day 2"), repeats none.
    if len(at) < FOLIO_HEADS:
        return
    seen = {id(h) for h, _, _ in at}
    heads = {_section_key(h.title) for h in found if id(h) not in seen}
    again = Counter(k for _, _, k in at)
    at = [(h, o, k) for h, o, k in at if k[1] and (k in heads or again[k] >= 2)]
    offsets = Counter(o for _, o, _ in at)
    folios = {id(h) for h, o, _ in at if offsets[o] >= FOLIO_HEADS}
    if folios:
        found[:] = [h for h in found if id(h) not in folios]


def _section_key(title: str) -> tuple[str, str]:
    """A section's number and its title's words: "2.3. INSTALLATION" and "2.3 Installation", "CHAPTER 1. INTRODUCTION"
    and "1 Introduction" name one section."""
    num = parse_numbering(title)
    label = num.label.rstrip(".").split()[-1].casefold() if num is not None else ""
    return label, title_key(title)


def _drop_title_page(found: list[Heading]) -> None:
    """Drop the title page's lines (document title, edition, date): on page 1, unnumbered, in a style no
    heading after page 2 uses; and its date, whatever its style (a figure's labels may share it)."""
    # The title set again later (over a contents printed at the back, a colophon) is no section, and says nothing
    # about which styles the sections use.
    first = {h.title.casefold() for h in found if h.page == 1 and h.numbering is None and not h.unit}
    later = {(h.size, h.bold) for h in found if h.page > 2 and h.title.casefold() not in first}
    if any((h.size, h.bold) in later for h in found if h.page == 1 and not h.unit):
        # The text starts on page 1 (a head there in a style of the later sections: "Overview" under the title):
        # a head on page 2 is a section too, and page 1's head in its style ("Introduction" as "Installation").
        later |= {(h.size, h.bold) for h in found if h.page == 2 and h.title.casefold() not in first}
    title = {h.title.casefold() for h in found if h.page == 1 and h.numbering is None and not h.unit
             and (h.size, h.bold) not in later}
    found[:] = [h for h in found if h.unit or not (h.page == 1 and h.numbering is None and (h.size, h.bold) not in later)
                and not (h.page == 1 and (DATE_LINE.match(h.title) or _THANKS.search(h.title) or _AUTHORS.match(h.title)
                                          or h.styled))  # "gnuplot 5.4", a program's name as the title, set as the Parts
                and not (h.page > 1 and h.numbering is None and h.title.casefold() in title)]


# A title or an author's name carrying a footnote mark (LaTeX's \\thanks: "J. Wiersma†", "The package∗"): read as
# numbered ("J."), it escapes the title-page style test.
_THANKS = re.compile(r"[^\W\d_][\u2020\u2021\u2217*\u00a7\u00b6]$")
# A title page's list of authors by their initials ("D. Aspinall, P. Courtieu, E. Martin-Dorel"), read as numbered "D.".
_AUTHORS = re.compile(r"^(?:[A-Z]\.\s?)+[A-Z][^\W\d_]+(?:[-\u2013][A-Z][^\W\d_]+)?(?:,\s*(?:and\s+)?(?:[A-Z]\.\s?)+\S+)+")
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|" \
         r"nov(?:ember)?|dec(?:ember)?)\.?"
# A date standing alone, perhaps with its version: "29 January 2020 (v0.5)", "Dec 17, 2022", "2022-12-17", "March 2021".
DATE_LINE = re.compile(rf"^(?:(?:\d{{1,2}}(?:st|nd|rd|th)?\s+)?{_MONTH}\s+(?:\d{{1,2}}(?:st|nd|rd|th)?,?\s+)?\d{{4}}|"
                   r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2})\s*(?:\(?\s*(?:v|version\s*)?[\d.]+\s*\)?)?$", re.I)


MAX_OUTLINE_DEPTH = 3  # "1.2.3": LaTeX's, Texinfo's and Sphinx's outlines stop at subsections by default


def outline_headings(found: list[Heading], body: float | None = None) -> list[Heading]:
    """The headings that make a document's outline when there is no contents to say so.

    Drops a joined title that reads as a sentence (ending in ":", unless a chapter's label stands over it, or longer
    than 16 words) and, when the
    document numbers its sections, headings numbered deeper than MAX_OUTLINE_DEPTH (authors' outlines
    rarely list them) and unnumbered heads set below its top numbered level (``_drop_starred``; with the ``body``
    size known, a document numbering its chapters only keeps its sections set larger than the body). Levels are
    assigned again over what is kept.
    """
    kept = [h for h in found if h.numbering is not None or h.unit or ((h.labelled or not _LEAD_IN_COLON.search(h.title)) and len(h.title.split()) <= 16
                                                           and not (_signature(h.title) and not _IDENTIFIER.match(h.title))
                                                           and not _CAPTION.match(h.title)
                                                           and not _STRAY_START.match(h.title))]
    kept = [h for h in kept if not _CONTACT.search(h.title)]  # "F. Pantigny f@example.org" reads as numbered "F."
    kept = [h for h in kept if h.numbering is not None or not _QUOTATION.match(h.title)]
    kept = [h for h in kept if h.numbering is not None or h.recurs or not _ADMONITION.match(h.title)]
    if sum(h.chunk for h in kept) < MIN_CHUNKS:
        kept = [h for h in kept if not h.chunk]
    kept = _drop_entry_families(kept)
    kept = _drop_figure_labels(kept)
    kept = _drop_back_contents(kept)
    kept = _continuing_run_ins(kept)
    decimal = [h for h in kept if h.numbering is not None and h.numbering.kind in ("decimal", "letter")]
    if len(decimal) >= MIN_NUMBERED:
        numbered = {id(h) for h in decimal}  # by identity: a list's `in` compares whole dataclasses, quadratically
        kept = [h for h in kept if id(h) not in numbered or h.numbering.depth <= MAX_OUTLINE_DEPTH]  # type: ignore[union-attr]
        kept = _drop_starred(kept, decimal, body)
        kept = _drop_list_items(kept, decimal)
        kept = _drop_document_title(kept, decimal)
    assign_heading_levels(kept)
    return kept


# A title ending in a colon reads as the lead-in of what follows ("The options are:"); a head set apart by a space
# before its colon, as French typography sets one ("Synthétiseurs :", "DEMO FILES\u00a0:"), keeps it as a label.
_LEAD_IN_COLON = re.compile(r"(?<![\s\u00a0\u202f]):$")


# A back-of-book index ("Index", "Concept Index", "Index of Commands"), not a filing's "Index to ... Statements".
BOOK_INDEX = re.compile(r"^(?:(?:[a-z]+ ){0,2}index|index of [a-z ]+)$")


def _drop_back_contents(found: list[Heading]) -> list[Heading]:
    """Drop a contents heading printed after a back-of-book index (Texinfo's "Table of Contents" when ``@contents``
    ends the file): furniture after the book's last section, which its outline does not list. A contents printed at
    the back with no index before it (LaTeX's ``\\tableofcontents`` at the end) is listed, and stays."""
    first = next((i for i, h in enumerate(found) if BOOK_INDEX.match(title_key(h.title))), None)
    if first is None:
        return found
    return found[:first + 1] + [h for h in found[first + 1:] if not is_heading(h.title)]


_DOTTED = re.compile(r"^\d+(?:\.\d+)*\.\s")  # "3. Derived Works": a number with a trailing dot


def _drop_list_items(found: list[Heading], decimal: list[Heading]) -> list[Heading]:
    """Drop numbered list items: "3. Derived Works" set smaller than every section of a document that numbers its
    sections without a trailing dot ("2.1 The Debian Free Software Guidelines")."""
    plain = [h for h in decimal if not _DOTTED.match(h.title)]
    dotted = [h for h in decimal if _DOTTED.match(h.title)]
    items: set[int] = set()
    if len(plain) < MIN_NUMBERED or len(plain) <= len(dotted):
        # A document numbering its sections with a trailing dot too ("2.1.", "3.4.13.": DocBook's), its chapters
        # labelled ("Chapter 3."): its sections are its numbering, and a licence's clauses after them are a list.
        plain = [h for h in decimal if h.numbering.depth >= 2 and h.numbering.kind == "decimal"]  # type: ignore[union-attr]
        dotted = [h for h in decimal if h.numbering.depth == 1 and h.numbering.kind == "decimal"]  # type: ignore[union-attr]
        if len(plain) < MIN_NUMBERED:
            return found
    else:
        smallest = min((h.size for h in plain if h.numbering.depth <= 2), default=0.0)  # type: ignore[union-attr]
        items = {id(h) for h in dotted if h.numbering.depth == 1 and h.size < smallest - SIZE_JITTER}  # type: ignore[union-attr]
    # An appended text's own numbered clauses after the document's last numbered section ("0. Definitions.",
    # "1. Source Code." of a licence printed as an appendix), counting from 0 or 1 again: a list of the appendix,
    # not chapters beside the book's.
    in_plain, in_dotted = {id(h) for h in plain}, {id(h) for h in dotted}
    last = max((i for i, h in enumerate(found) if id(h) in in_plain), default=len(found))
    tail = [h for h in found[last + 1:] if id(h) in in_dotted and h.numbering.depth == 1]  # type: ignore[union-attr]
    items |= restarted_clauses(tail, max((_top_number(h) for h in plain), default=0))
    return [h for h in found if id(h) not in items]


def restarted_clauses(heads: list[Heading], top: int) -> set[int]:
    """An appended text's own numbered clauses, by identity: in a part of the document after its last numbered
    section, whose sections counted up to ``top``, heads numbered at depth 1 counting from 0 or 1 again ("0.
    Definitions.", "1. Source Code." of a licence printed as an appendix) are a list of that part, not sections
    beside the book's (``_drop_list_items`` asks it over the whole outline, leaf splitting over a long leaf alone)."""
    clauses = [h for h in heads if h.numbering is not None and h.numbering.kind == "decimal" and h.numbering.depth == 1]
    if len(clauses) >= 2 and _top_number(clauses[0]) <= 1 < top:
        return {id(h) for h in clauses}
    return set()


def _top_number(h: Heading) -> int:
    first = h.numbering.label.rstrip(".").split(".")[0]  # type: ignore[union-attr]
    return int(first) if first.isdigit() else 0  # "A.1": an appendix's, counted apart


def _drop_document_title(found: list[Heading], decimal: list[Heading]) -> list[Heading]:
    """Drop the document's own title set again above the text (LaTeX's \\maketitle after a cover or a copyright page):
    the one unnumbered head before the first numbered section, set larger than every numbered one, in a style no
    other head uses. A Part or an unnumbered chapter is set like others of its kind."""
    numbered = {id(h) for h in decimal}
    first = next((i for i, h in enumerate(found) if id(h) in numbered), None)
    if first is None:
        return found
    top = max(h.size for h in decimal)
    styles = Counter((h.size, h.bold) for h in found)
    title = {id(h) for h in found[:first] if h.numbering is None and h.size > top + SIZE_JITTER
             and styles[(h.size, h.bold)] == 1}
    return [h for h in found if id(h) not in title] if len(title) == 1 else found


def _continuing_run_ins(found: list[Heading]) -> list[Heading]:
    """Run-in heads that continue the document's numbering: "4.2." after a section "4." (or "4.1.") was headed;
    a numbered paragraph elsewhere ("2.1. The licensee shall ...") is text."""
    heads = {h.numbering.label.rstrip(".") for h in found if h.numbering is not None and not h.run_in}
    leads = _set_like_heads(found)
    found = [h for h in found if not h.lead_in or id(h) in leads]
    runs = [h for h in found if h.run_in and not h.lead_in and h.numbering is not None]
    parents = Counter(h.numbering.label.rstrip(".").rsplit(".", 1)[0] for h in runs)  # type: ignore[union-attr]
    keep = {id(h) for h in runs if (p := h.numbering.label.rstrip(".").rsplit(".", 1)[0]) in heads  # type: ignore[union-attr]
            and parents[p] >= 2}
    return [h for h in found if not h.run_in or h.lead_in or id(h) in keep]


def _set_like_heads(found: list[Heading]) -> set[int]:
    """Bold run-in heads (by identity) that the document treats as its sections: at least two heads standing on
    lines of their own are set in the same size, bold, with numbering of the same depth, and the run-in's number
    falls between theirs in reading order (a bold numbered list item starts its count again)."""
    def key(h: Heading) -> tuple:
        return (h.size, h.bold, h.numbering.depth)  # type: ignore[union-attr]

    def number(h: Heading) -> tuple[int, ...]:
        return tuple(int(p) for p in h.numbering.label.rstrip(".").split("."))  # type: ignore[union-attr]

    whole: dict[tuple, list[tuple[int, tuple[int, ...]]]] = {}
    for i, h in enumerate(found):
        if not h.run_in and h.bold and h.numbering is not None and h.numbering.kind == "decimal":
            whole.setdefault(key(h), []).append((i, number(h)))
    keep: set[int] = set()
    for i, h in enumerate(found):
        if not h.lead_in or h.numbering is None or len(whole.get(key(h), ())) < 2:
            continue
        before = [n for j, n in whole[key(h)] if j < i]
        after = [n for j, n in whole[key(h)] if j > i]
        if (not before or before[-1] < number(h)) and (not after or number(h) < after[0]):
            keep.add(id(h))
    return keep


def _drop_starred(found: list[Heading], decimal: list[Heading], body: float | None = None) -> list[Heading]:
    """In a document that numbers its sections, drop unnumbered heads set smaller than its top numbered level.

    Those are starred sections, run-in paragraph heads and labels ("Changes between versions 1.1 and 1.2",
    "Fine tuning"), which LaTeX leaves out of the contents and the outline; the unnumbered heads an outline
    lists ("Index", "References", "Change History", a Part) are set like the top level or larger.
    """
    top = min(h.numbering.depth for h in decimal)  # type: ignore[union-attr]
    sizes = sorted(h.size for h in decimal if h.numbering.depth == top)  # type: ignore[union-attr]
    top_size = sizes[len(sizes) // 2]
    # Under an unnumbered chapter ("Preface", an unnumbered appendix) the sections are unnumbered too, set as the
    # numbered chapters' sections are ("News for Version 4.4" as "1.1 Installing"): Texinfo's @unnumberedsec,
    # which its outline lists.
    second = Counter((h.size, h.bold) for h in decimal if h.numbering.depth == top + 1)  # type: ignore[union-attr]
    section = second.most_common(1)[0][0] if second else None
    # A document that numbers its chapters only ("1 - Introduction to FLTK", never a "1.1") sets its sections
    # unnumbered, none of them starred: the most common style of the unnumbered heads below the chapters' size is its
    # sections', under a numbered chapter as under an unnumbered one, when it is set larger than the ``body`` (bold
    # words at the body's size are a LaTeX article's \paragraph heads, a caption, a table row set bold).
    chapters_only = body is not None and not second and all(h.numbering.depth == top for h in decimal)  # type: ignore[union-attr]
    styles = set()
    if chapters_only:
        below = Counter((h.size, h.bold) for h in found if h.numbering is None and not h.unit
                        and body + LARGER <= h.size < top_size - SIZE_JITTER)
        section = below.most_common(1)[0][0] if below else None

        def spread(style: tuple) -> int:
            return len({h.page for h in found if h.numbering is None and (h.size, h.bold) == style})

        if section is not None and spread(section) < SECTION_PAGES:
            section = None  # a table's rows set bold on a page or two: no style of sections
        # A style set larger than the sections' and smaller than the chapters', over several pages, is a level
        # between them (the 14-pt "Downloading" over 12-pt symbology entries, themselves more numerous).
        if section is not None:
            styles = {s for s in below if s[0] > section[0] + SIZE_JITTER and spread(s) >= SECTION_PAGES}
    # An unnumbered head opening its page, bold and set larger than every numbered section though smaller than the
    # chapters ("About this Manual", "Revision History" at 18 pt between 24-pt chapters and 14-pt sections): front or
    # back matter standing where a chapter stands, which the outline lists; a starred section is set as the sections.
    deeper = [h.size for h in decimal if h.numbering.depth > top]  # type: ignore[union-attr]
    matter = max(deeper) + SIZE_JITTER if deeper else None
    kept, open_chapter = [], False
    for h in found:
        if matter is not None and h.numbering is None and h.opens_page and h.bold \
                and matter < h.size < top_size - SIZE_JITTER and not h.unit and not is_heading(h.title):
            kept.append(h)
            continue
        if h.size >= top_size - SIZE_JITTER:
            # A contents or an index heading opens no chapter: the lists set under it (of figures, of tables) are
            # front matter its outline leaves out.
            open_chapter = h.numbering is None and not h.unit and not is_heading(h.title) \
                and not BOOK_INDEX.match(title_key(h.title))
        if h.numbering is not None or h.recurs or h.size >= top_size - SIZE_JITTER or (
                (open_chapter or chapters_only) and section is not None and abs(h.size - section[0]) <= SIZE_JITTER
                and h.bold == section[1]) or (h.numbering is None and (h.size, h.bold) in styles):
            kept.append(h)
    return kept


MIN_NUMBERED = 5  # numbered headings before numbering is taken as the document's scheme
SECTION_PAGES = 3  # pages with an unnumbered head in one style before it is taken as the sections' of chapters numbered alone
# Code signatures and reference entries: "abort/1", "pgf_init()", "key=value", "\\macro{arg}", "⟨key⟩"; C's
# preprocessor lines ("#define TRUE 1"), which literate programs and pretty-printers set in bold.
# A plural in parentheses ("sequence(s)", "MSA(s)") is prose, not a call.
# A declaration as API references set it, a space before its parentheses (Doxygen's "operator& ( Result x, Result y )",
# Texinfo's "shishi_der2asn1 (Shishi * handle, ...)"): an empty argument list, a pointer or a reference among the
# arguments, arguments spaced inside the parentheses; or the tail of a declaration wrapped over two lines ("const
# char * renew_till)"). A parenthesis of prose holds none of those ("Installation (Linux, BSD)").
_SIGNATURE = re.compile(r"(?:^|\s)[\w:.-]+/\d+(?:\s|$)|\w\((?!e?s\)).*\)|[=\u27e8\u27e9{}\\<>]"
                        r"|^#\s*(?:define|include|if|ifdef|ifndef|elif|else|endif|undef|pragma)\b"
                        r"|\w\s+\(\s*\)|\w\s*\([^()]*\w(?:\s+[*&]\s*|\s*[*&]\s+)\w[^()]*\)|\S\s\(\s[^()]*\s\)"
                        r"|^[^(]*[,*][^(]*\)$")


def _signature(title: str) -> bool:
    return bool(_SIGNATURE.search(unicodedata.normalize("NFKC", title)))  # "#deﬁne": TeX's fonts set ligatures


# Captions of floats ("Table 2: Variables", "Figure 3. Layout", "Listing 1 - main"), not sections.
_CAPTION = re.compile(r"^(?:table|figure|fig\.|listing|algorithm)\s+[\dA-Z][\d.]*\s*[:.\u2013\u2014-]\s", re.I)
# A line opening with a character no title opens with: a bullet glyph without Unicode ("\x88 item"), the tail of a
# URL broken over two lines ("//github.com/..."), a symbol. Quotes, brackets, "\macro", "§", "#", "@", "$" may, and so
# may a variable's name between asterisks ("*DEFAULT-DATABASE*", as Lisp names its global variables) and a constant's
# between plus signs ("+null-cstring-pointer+", as Lisp names its constants).
_STRAY_START = re.compile(r"^(?!\*[\w-]+\*$|\+[\w-]+\+$)(?:[^\w\s\"'\u201c\u2018(\[\\\u00a7#@$.<\u27e8]|[\x00-\x1f\x7f-\x9f])")
ENTRIES_PER_PAGE = 1.5  # a family set this densely is a reference listing; sections spread out one to a page
# An author's address on a title page ("F. Pantigny fpantigny@example.org"), a web address: not a section title.
# A line wholly in typographic quotation marks, a sentence of three words or more: an epigraph or a motto set in
# display type ("“No substance can be comprehended without light and shade”" over its attribution), not a section.
# A title quoting a term keeps its other words ("‘Valid’ means ‘probably valid’").
_QUOTATION = re.compile(r"^[\u201c\u201e\u00ab]\s*[^\u201c\u201d\u00ab\u00bb]+?(?:\s+[^\s\u201c\u201d\u00ab\u00bb]+){2,}"
                        r"\s*[\u201d\u00bb][.!?]?$")
# An admonition's title, set as a head by DocBook's and Sphinx's styles: the label alone ("Warning", "Tip:") or the label,
# a colon and its subject ("Note: The multi-graph plot widget has gone"). Outlines list none (in 190 documents'
# bookmarks, 2 of 38,723 entries); "Notes" as an entry's section and titles the word opens ("Note on gbp") stay.
_ADMONITION = re.compile(r"^(?:note|warning|tip|caution|important|attention|hint|danger)(?:\s*:\s*\S.*|\s*:?)$", re.I)
_CONTACT = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|https?://|www\.", re.I)
FAMILY_SIZE = 4  # unnumbered headings sharing a leading word and a style before they read as reference entries


def _drop_figure_labels(found: list[Heading]) -> list[Heading]:
    """Drop the labels of a figure: two or more unnumbered heads on one page, each in a style no other page uses
    ("RGB TEXT" and "CMYK TEXT" drawn large inside a diagram, "User A" over a figure's boxes at 30 and 20 pt), in a
    document whose heads run over several pages. Its sections of one style are spread over its pages (a title
    page's lines are dropped before)."""
    pages = {h.page for h in found}
    if len(pages) < FIGURE_PAGES:
        return found
    style_pages: dict[tuple, set[int]] = {}
    for h in found:
        style_pages.setdefault((h.size, h.bold), set()).add(h.page)
    lone = [h for h in found if h.numbering is None and not h.unit and len(style_pages[(h.size, h.bold)]) == 1]
    per_page = Counter(h.page for h in lone)
    labels = {id(h) for h in lone if per_page[h.page] >= 2}
    return [h for h in found if id(h) not in labels]


FIGURE_PAGES = 4  # pages with heads before a style seen on one page only reads as a figure's labels


def _drop_entry_families(found: list[Heading]) -> list[Heading]:
    """Drop reference entries: unnumbered headings in one style that open with the same word(s) and name
    one thing each ("Decoration zigzag", "Decoration saw", "Coordinate system xyz", ...), FAMILY_SIZE or more,
    set several to a page. Generated section titles share their end ("X Class Reference"), not their start, and
    stay; so do sections that share a topic word but each open a page of their own ("Styles: arrows",
    "Styles: labels", ...)."""
    families: dict[tuple, list[Heading]] = {}
    longer: dict[tuple, list[Heading]] = {}
    for h in found:
        words = h.title.split()
        if h.numbering is None and not h.chunk and len(words) >= 2:
            # A head in capitals over the entries ("OBJECT TYPES" over "Object type 1 triangle" ...) is their section.
            key = (h.size, h.bold, words[0].casefold(), h.title.isupper())
            (families if len(words) <= 5 else longer).setdefault(key, []).append(h)
    # Titles differing only in their numbers ("News for Version 4.4", "News for Version 4.3": a release's notes)
    # are a run of sections, not entries naming one thing each. A family found, its entries with a longer
    # description ("Object type 7 explicit surface normals at vertices of ...") are in it too.
    entries = {id(h) for key, fam in families.items() if len(fam) >= FAMILY_SIZE
               and len(fam) >= ENTRIES_PER_PAGE * len({h.page for h in fam})
               and len({re.sub(r"\d+", "#", h.title.casefold()) for h in fam}) > 1
               for h in fam + [x for x in longer.get(key, []) if _opening(x) in {_opening(f) for f in fam}]}
    return [h for h in found if id(h) not in entries]


def _opening(h: Heading) -> str:
    """A title's first two words, casefolded: what a family's entries with a longer description share with it."""
    return " ".join(h.title.casefold().split()[:2])


LIST_REPEATS = 1 / 3  # share of top-level numbers that repeat an earlier one before the numbering reads as a list's
MIN_COUNTED = 6  # top-level numbered heads before that share is weighed


def _list_counts(found: list[Heading]) -> set[int]:
    """Heads (by identity) whose top-level number is a list's count rather than the document's numbering: a third
    or more of the top-level numbers repeat an earlier one ("1. Where can I get xfig?" ... "1. When I pull up a
    menu" in each list of a FAQ, "1. Get xfig.tar.gz" in each install recipe). A document numbers each chapter
    once; appendices or a second part starting again repeat a few."""
    top = [h for h in found if h.numbering is not None and h.numbering.kind == "decimal" and h.numbering.depth == 1]
    labels = [h.numbering.label.rstrip(".") for h in top]  # type: ignore[union-attr]
    if len(top) < MIN_COUNTED or len(labels) - len(set(labels)) < LIST_REPEATS * len(labels):
        return set()
    return {id(h) for h in top}


def _smaller_than_deeper(found: list[Heading]) -> dict[int, int]:
    """Heads (by identity) whose number says a higher level than their type does: set smaller than the size the
    document sets the heads numbered deeper in ("A) Only to the log file:" or "Q. How should ... be cited?" at the
    body's size, in a document whose "1.8.3" heads are set larger). A document sets its sections' heads no larger
    than its chapters'; such a number is a list's or a question's, and the head is placed by its style, under the
    section it is in, not above it: by identity, one level below the deepest numbered heads set larger."""
    sizes: dict[int, Counter] = {}
    for h in found:
        if h.numbering is not None and h.numbering.kind in ("decimal", "letter") and not h.unit:
            sizes.setdefault(h.numbering.depth, Counter())[h.size] += 1
    modal = {d: c.most_common(1)[0][0] for d, c in sizes.items() if sum(c.values()) >= MIN_NUMBERED}
    out: dict[int, int] = {}
    for h in found:
        n = h.numbering
        if n is None or n.kind not in ("decimal", "letter") or h.unit:
            continue
        if any(d > n.depth and h.size < size - SIZE_JITTER for d, size in modal.items()):
            out[id(h)] = 1 + max(d for d, size in modal.items() if h.size < size - SIZE_JITTER)
    return out


def assign_heading_levels(found: list[Heading]) -> None:
    """Level 1 for the largest style, then down by size and weight; decimal numbering wins.

    Parts (parsers.toc.part_entries: "VII Utilities" in a sequence from I, or unnumbered heads set larger
    than every numbered chapter) are a level of their own above the chapters; unnumbered heads take the
    level numbered heads of their style have.
    """
    def style(h: Heading) -> tuple:
        return (0, -round(h.size), not h.bold)

    styles = sorted({(-h.size, not h.bold) for h in found})
    rank = {s: i + 1 for i, s in enumerate(styles)}
    below = _smaller_than_deeper(found)
    counted = _list_counts(found) | set(below)
    # A list's count is not the document's numbering: those heads are placed by their style, and are no chapters
    # for the Parts test to weigh other heads against.
    heads = [h for h in found if not h.unit]
    view = [dc_replace(h, numbering=None) if id(h) in counted else h for h in heads]
    in_view = part_entries(view, style)
    parts = {id(h) for h, v in zip(heads, view) if id(v) in in_view}
    part_styles = {style(h) for h in found if id(h) in parts}
    parts |= {id(h) for h in found if h.unit}  # a manual page is above its sections as a Part is above chapters
    shift = 1 if parts else 0
    learned: dict[tuple, Counter] = {}
    for h in found:
        n = None if id(h) in counted else h.numbering
        if n is not None and n.kind in ("decimal", "letter") and id(h) not in parts:
            learned.setdefault(style(h), Counter())[n.depth + shift] += 1
    for h in found:
        n = None if id(h) in counted else h.numbering
        if id(h) in parts:
            h.level = 1
        elif id(h) in below:
            h.level = below[id(h)] + shift
        elif n is not None and n.kind in ("decimal", "letter") and n.depth >= 1:
            h.level = n.depth + shift
        elif n is None and style(h) in part_styles:
            h.level = 1  # unnumbered, set like the Parts
        elif shift and style(h) in learned:
            h.level = learned[style(h)].most_common(1)[0][0]
        else:
            h.level = rank[(-h.size, not h.bold)] + shift
    # Keep levels dense (1, 2, 3...) so the tree has no empty tiers.
    used = sorted({h.level for h in found})
    remap = {lv: i + 1 for i, lv in enumerate(used)}
    for h in found:
        h.level = remap[h.level]
