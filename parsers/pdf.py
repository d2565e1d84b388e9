"""Open a PDF safely and read its pages: text, printed labels, positioned lines.

Text is read eagerly (cheap); positioned lines (``layout``) are built only for
the pages a structure method asks for, since they cost several times more.
"""

from __future__ import annotations

import gc
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from pathlib import Path
from typing import Callable

import pymupdf

from parsers.classify import HUGE_TEXT_CHARS
from parsers.errors import DocumentError
from parsers.layout import Line, PageLayout, Word

try:  # the visual lines compiled (parsers/layout_lines.pyx, built by setup.py when a C compiler is there)
    from parsers import layout_lines as _compiled_lines
except ImportError:  # not built: the Python functions below give the same lines
    _compiled_lines = None


def walk_for(module, running: str):
    """The compiled walk over MuPDF's structured text if it was built against the MuPDF release ``running``, else
    None: the structures it reads are those of its own release's headers, and another release's may differ."""
    return module if module is not None and getattr(module, "BUILT_WITH_MUPDF", None) == running else None


try:  # a page's fragments read from MuPDF's structured text in C (parsers/stext_walk.pyx, built against PyMuPDF's MuPDF)
    from parsers import stext_walk as _stext_walk
except ImportError:  # not built, or its MuPDF library not loadable: the fragments are read from PyMuPDF's "dict"
    _stext_walk = None
_stext_walk = walk_for(_stext_walk, pymupdf.VersionFitz)

pymupdf.TOOLS.mupdf_display_errors(False)
pymupdf.TOOLS.mupdf_display_warnings(False)


@dataclass(frozen=True)
class OpenLimits:
    max_bytes: int = 1 << 30  # 1 GiB
    max_pages: int = 20_000
    kept_textpage_chars: int = 1_000_000  # text layer characters whose TextPages are kept for layouts (PdfSource)


def _sniff(path: Path, limits: OpenLimits) -> None:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise DocumentError(f"cannot read file: {exc.strerror}", "unreadable") from exc
    if size == 0:
        raise DocumentError("empty file (0 bytes)", "empty")
    if size > limits.max_bytes:
        raise DocumentError(f"file too large: {size} bytes > limit {limits.max_bytes}", "too_large")
    with path.open("rb") as fh:
        head = fh.read(1024)
    at = head.find(b"%PDF-")
    if at < 0:
        raise DocumentError("not a PDF (no %PDF- header)", "not_pdf")
    # Readers accept a header anywhere in the first 1024 bytes (junk before it is common), but a file that starts
    # as markup (HTML, XML: an error page saved as .pdf) only mentions "%PDF-" in its text.
    if head[:at].lstrip(b"\xef\xbb\xbf\xfe\xff\x00 \t\r\n").startswith(b"<"):
        raise DocumentError("not a PDF (an HTML or XML document)", "not_pdf")


# Plain text and positioned lines are both read from a page's TextPage (MuPDF's structured text: three quarters of
# what reading a page's text costs), so the TextPage a page's text was read from is kept for its layout. Pages are
# read in order, so the first ones are kept (contents listings are there). A TextPage takes about 50 bytes a
# character: ``OpenLimits.kept_textpage_chars``'s default, 1M characters, is ~50 MB.


class PdfSource:
    """A read-only view of one PDF. Pages are 1-based."""

    def __init__(self, path: str | os.PathLike[str], limits: OpenLimits | None = None):
        self.path = Path(path)
        limits = limits or OpenLimits()
        _sniff(self.path, limits)
        try:
            self.doc = pymupdf.open(self.path, filetype="pdf")  # never HTML, XPS or an image, whatever the name
        except Exception as exc:  # MuPDF raises several types for broken files
            raise DocumentError(f"corrupt PDF: {_first_line(exc)}", "corrupt") from exc
        try:
            # A repaired file's page tree is only read here, and may fail (RuntimeError "code=7: Invalid number of pages").
            encrypted, count = self.doc.needs_pass, self.doc.page_count
            self.repaired = bool(self.doc.is_repaired)
        except Exception as exc:
            self.doc.close()
            raise DocumentError(f"corrupt PDF (truncated or damaged): {_first_line(exc)}", "corrupt") from exc
        if encrypted:
            self.doc.close()
            raise DocumentError("encrypted PDF: a password is required", "encrypted")
        if count == 0:
            self.doc.close()
            if self.repaired:
                raise DocumentError("corrupt PDF (truncated or damaged): no page could be recovered", "corrupt")
            raise DocumentError("PDF has no pages", "empty")
        if count > limits.max_pages:
            self.doc.close()
            raise DocumentError(f"too many pages: {count} > limit {limits.max_pages}", "too_large")
        self.page_count = count
        self.unreadable: set[int] = set()  # pages whose text layer MuPDF could not read
        self.huge: dict[int, int] = {}  # pages whose text layer was cut to HUGE_TEXT_CHARS -> its full length
        self._text: dict[int, str] = {}
        self._layout: dict[int, PageLayout] = {}
        # Pages whose text was read, with the TextPage it was read from, until their layout is built from the same
        # TextPage (``layout``); bounded by ``limits.kept_textpage_chars``.
        self._textpages: dict[int, tuple[pymupdf.Page, pymupdf.TextPage]] = {}
        self._kept_chars, self._keep_chars = 0, limits.kept_textpage_chars
        self._labels: list[str | None] | None = None

    def close(self) -> None:
        self._textpages.clear()
        self.doc.close()

    def __enter__(self) -> "PdfSource":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pages -----------------------------------------------------------
    def text(self, number: int) -> str:
        """Plain text of a page; a page MuPDF cannot read yields '' (``unreadable``), a text layer over
        HUGE_TEXT_CHARS is cut there (``huge``): no page of legible print holds more, and every later stage
        (summaries, tables, search) would pay for the junk."""
        if number not in self._text:
            try:
                # The TextPage get_text("text") would make, kept for the page's layout (OpenLimits.kept_textpage_chars)
                page = self.doc[number - 1]
                textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
                text = page.get_text("text", textpage=textpage, sort=False)
            except Exception:
                text = ""
                self.unreadable.add(number)
            if len(text) > HUGE_TEXT_CHARS:
                self.huge[number] = len(text)
                text = text[:HUGE_TEXT_CHARS]
            elif number not in self.unreadable and self._kept_chars + len(text) <= self._keep_chars:
                self._textpages[number] = (page, textpage)
                self._kept_chars += len(text)
            self._text[number] = text
        return self._text[number]

    def labels(self) -> list[str | None]:
        """Printed page labels from /PageLabels, or None per page when absent."""
        if self._labels is None:
            labels: list[str | None] = [None] * self.page_count
            try:
                rules = self.doc.get_page_labels()
                if rules:
                    # Computed from the rules: page.get_label() re-reads the label tree per page.
                    labels = labels_from_rules(rules, self.page_count)
            except Exception:
                pass
            self._labels = labels
        return self._labels

    def layout(self, number: int) -> PageLayout:
        """Positioned lines of a page, with font size and weight per line; none for a huge text layer (its plain
        text stays the page's text, structure methods see an empty page with an ``error``)."""
        if number not in self._layout:
            text = self.text(number)
            if number in self.huge:
                rect = text_space(self.doc[number - 1])
                self._layout[number] = PageLayout(
                    number=number, width=rect.width, height=rect.height, label=self.labels()[number - 1],
                    text=text, error=f"text layer of {self.huge[number]} characters: not laid out")
            else:
                kept = self._textpages.pop(number, None)
                page, textpage = kept if kept is not None else (self.doc[number - 1], None)
                lay = extract_layout(page, number, self.labels()[number - 1], links=False, textpage=textpage)
                lay.read_links = lambda: page_links(self.doc[number - 1])  # only a contents page's are needed
                self._layout[number] = lay
        return self._layout[number]

    def set_layout(self, layout: PageLayout) -> None:
        """Replace a page's layout (OCR does this for scanned pages)."""
        self._textpages.pop(layout.number, None)
        self._layout[layout.number] = layout
        self._text[layout.number] = layout.text

    def outline(self) -> list[tuple[int, str, int]]:
        """Raw outline as (level, title, page); page -1 where the entry points nowhere."""
        try:
            return [(int(e[0]), str(e[1]), int(e[2])) for e in self.doc.get_toc(simple=True)]
        except Exception:
            return []


def _first_line(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def damage_warnings(pdf: PdfSource, blank: list[int], ranges: Callable[[list[int]], str]) -> list[dict[str, str]]:
    """What the manifest and the run report must say about a damaged file that still publishes: ``repaired``
    when MuPDF had to rebuild it (truncated, garbage inside), with the pages that came out blank (no text, image
    or drawing: in a repaired file, most likely lost), or when page objects could not be read (garbage over
    them: the cross-reference table is intact, the pages come out empty); ``unreadable_pages`` whose text
    could not be read."""
    out = []
    broken = [n for n in blank if _page_object_broken(pdf, n)]
    if pdf.repaired or broken:
        lost = sorted(set(blank if pdf.repaired else broken) | pdf.unreadable)
        where = f"; pages {ranges(lost)} came out empty" if lost else "; every page has content"
        how = "repaired on reading" if pdf.repaired else "with page objects that cannot be read"
        out.append({"kind": "repaired", "pages": ranges(lost),
                    "message": f"damaged file (truncated or corrupt inside) {how}{where}"})
    elif pdf.unreadable:
        pages = ranges(sorted(pdf.unreadable))
        out.append({"kind": "unreadable_pages", "pages": pages, "message": f"the text of pages {pages} could not be read"})
    if pdf.huge:
        pages = ranges(sorted(pdf.huge))
        out.append({"kind": "huge_text_layer", "pages": pages,
                    "message": f"text layer of pages {pages} over {HUGE_TEXT_CHARS} characters "
                               f"(up to {max(pdf.huge.values())}): kept cut to that length, not OCR'd"})
    return out


def _page_object_broken(pdf: PdfSource, number: int) -> bool:
    """A page object MuPDF cannot parse (it then shows an empty page); a sound one has /Type /Page (PDF 32000
    7.7.3.3: required). Checked on blank pages only."""
    try:
        return pdf.doc.xref_get_key(pdf.doc[number - 1].xref, "Type") != ("name", "/Page")
    except Exception:
        return True


def labels_from_rules(rules: list[dict], page_count: int) -> list[str | None]:
    """Expand /PageLabels rules (PDF 32000 12.4.2: start index, style D/R/r/A/a, prefix, first number)."""
    from parsers.numbering import int_to_roman

    out: list[str | None] = [None] * page_count
    rules = sorted(rules, key=lambda r: int(r.get("startpage", 0)))
    for k, rule in enumerate(rules):
        start = int(rule.get("startpage", 0))
        end = int(rules[k + 1]["startpage"]) if k + 1 < len(rules) else page_count
        first = int(rule.get("firstpagenum", 1) or 1)
        style, prefix = rule.get("style", "") or "", rule.get("prefix", "") or ""
        for i in range(max(0, start), min(end, page_count)):
            n = first + i - start
            if style == "D":
                num = str(n)
            elif style in ("r", "R"):
                num = int_to_roman(n) if n > 0 else str(n)
                num = num.upper() if style == "R" else num
            elif style in ("a", "A"):
                letter = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1) if n > 0 else ""
                num = letter.upper() if style == "A" else letter
            else:
                num = ""
            out[i] = (prefix + num) or None
    return out


_BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.I)


def extract_layout(page: "pymupdf.Page", number: int, label: str | None = None, links: bool = True,
                   textpage: "pymupdf.TextPage | None" = None) -> PageLayout:
    """Visual lines of a page, merging PyMuPDF lines that share a baseline across blocks; its internal links
    unless ``links`` is False (``PdfSource.layout`` reads them when first asked for). ``textpage``: the page's
    TextPage made with TEXTFLAGS_TEXT, when one was made already (the same lines as without it)."""
    rect = text_space(page)
    with _no_cycle_collection():
        try:
            # What page.get_text("dict") returns, without its wrapper's checks and crop box look-up on every page
            # (8 % of the conversion on TeX manuals: benchmarks/results/structure-speed.md, session 17ls).
            if textpage is None:
                textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
            elif textpage.parent != page:  # get_text's own check
                raise ValueError("not a textpage of this page")
            raw = _walked_fragments(textpage)
            data = textpage.extractDICT() if raw is None else None
        except Exception as exc:
            return PageLayout(number=number, width=rect.width, height=rect.height, label=label,
                              error=f"text layer unreadable: {exc}")
        if raw is None:
            raw = _page_fragments(data)
        del data  # freed here, by its reference count
        lines = _visual_lines(raw)
    text = "\n".join(line.text for line in lines)
    return PageLayout(number=number, width=rect.width, height=rect.height, label=label, lines=lines, text=text, links=page_links(page) if links else [])


def text_space(page: "pymupdf.Page") -> "pymupdf.Rect":
    """The rectangle a page's text is positioned in: the page before its /Rotate (a TextPage's coordinates, like the
    "dict"'s width and height, do not turn with the page), so that a layout's width and height measure the same
    axes as its lines. ``page.rect`` is the page as shown: on a page turned 90 degrees (a landscape table in a
    portrait manual) its height is the text's width, and the bottom margin taken from it cut through the body."""
    rect = page.rect
    return rect * page.derotation_matrix if page.rotation else rect


@contextmanager
def _no_cycle_collection():
    """Python's cycle collector paused while a page's "dict" is built and read.

    The "dict" is a tree of one dict per span (TeX output: each word and each space a span, 2,000 on a page) that
    lives until the page's lines are read from it: every few hundred of them the collector runs, finds them alive
    and promotes them, and a full collection of everything the process holds follows every few pages. That cost
    more than half of what MuPDF's conversion itself costs on long documents (benchmarks/results/structure.md,
    session 17s). Nothing made here forms a cycle, so reference counting frees it all the same. The collector is
    switched back on only by the call that switched it off (threads laying out pages at once leave it on).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def lines_in_use() -> str:
    """Which code builds a page's visual lines here: for tests, benchmarks and bug reports."""
    return "compiled" if _compiled_lines is not None else "python"


def fragments_in_use() -> str:
    """Where a page's fragments are read from: "stext walk" (MuPDF's structured text, in C) or "dict"."""
    return f"stext walk (MuPDF {_stext_walk.BUILT_WITH_MUPDF})" if _stext_walk is not None else "dict"


def _walked_fragments(textpage: "pymupdf.TextPage") -> list[tuple] | None:
    """``_page_fragments(textpage.extractDICT())`` read straight from the TextPage's ``fz_stext_page``
    (parsers/stext_walk.pyx: the same tuples, without a Python dict for every span), or None where the dict must
    be read: the walk is not built or was built for another MuPDF, PyMuPDF is set to make small glyph heights, or
    the page holds what only the dict reproduces.

    The ``fz_stext_page`` is reached through public interfaces: PyMuPDF's TextPage holds its MuPDF Python binding,
    a ``mupdf.FzStextPage``, as ``this``; the bindings' ``m_internal_value()`` gives the address of the C structure
    it wraps. The TextPage stays referenced by the caller while the walk reads it."""
    if _stext_walk is None or pymupdf.TOOLS.set_small_glyph_heights():
        return None
    wrapped = getattr(textpage, "this", None)
    if not isinstance(wrapped, pymupdf.mupdf.FzStextPage):
        return None
    return _stext_walk.fragments(wrapped.m_internal_value(), bool(pymupdf.TOOLS.unset_quad_corrections()),
                                 bool(pymupdf.TOOLS.set_subset_fontnames()), _BOLD_FONT.search,
                                 pymupdf.TEXT_FONT_MONOSPACED)


def _page_fragments(data: dict, compiled: bool = True) -> list[tuple]:
    """``_fragments``, compiled when built (the same tuples)."""
    if compiled and _compiled_lines is not None:
        return _compiled_lines.fragments(data, _BOLD_FONT.search, pymupdf.TEXT_FONT_MONOSPACED)
    return _fragments(data)


def _visual_lines(raw: list[tuple], compiled: bool = True) -> list[Line]:
    """``merge_visual_lines``, compiled when built and ``raw`` is plain (float boxes, str texts): the same lines."""
    lines = _compiled_lines.merge_visual_lines(raw) if compiled and _compiled_lines is not None else None
    return merge_visual_lines(raw) if lines is None else lines


_TEXT = itemgetter("text")
_STYLE = itemgetter("size", "flags", "font")


def _fragments(data: dict) -> list[tuple]:
    """One (x0, y0, x1, y1, text, size, bold, font, mono) per PyMuPDF line with text, its style from its main span.

    This loop runs once per span of every page the headings fallback lays out (TeX sets each word and each space
    as a span of its own), so it avoids work whose result cannot matter: when all of a line's spans share size,
    flags and font, any of them is the main one, and the bold test by font name is asked once per font. A span's
    keys are read with C-level getters (``itemgetter``), not a Python expression per span.
    """
    raw: list[tuple] = []
    bold_name: dict[str, bool] = {}
    mono_flag = pymupdf.TEXT_FONT_MONOSPACED
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            all_spans = line.get("spans", [])
            if len(all_spans) == 1:
                main = all_spans[0]
                text = main.get("text", "")
                if not text or text.isspace():
                    continue
                text = text.strip()
            else:
                texts = list(map(_TEXT, all_spans))
                # str.strip() is falsy exactly for "" and all-white-space strings, which isspace() tells without a copy
                spans = [s for s, t in zip(all_spans, texts) if t and not t.isspace()]
                if not spans:
                    continue
                text = "".join(texts).strip()
                main = spans[0]
                if len(spans) > 1:
                    first = _STYLE(main)
                    if any(map(first.__ne__, map(_STYLE, spans))):
                        # the span with the most letters decides size / weight (not a run of leader dots or the page number)
                        main = max(spans, key=lambda s: sum(map(str.isalpha, s["text"])) * 1000 + len(s["text"].strip()))
            flags, font = main.get("flags", 0), main.get("font", "")
            named = bold_name.get(font)
            if named is None:
                named = bold_name[font] = bool(_BOLD_FONT.search(font))
            x0, y0, x1, y1 = line["bbox"]
            size = float(main.get("size", 0.0))
            if y1 - y0 > 2.5 * size and diagonal(line.get("dir")):
                continue  # a watermark set across the page at an angle, whose box covers the lines it crosses
            raw.append((x0, y0, x1, y1, text, round(size, 1), bool(flags & 16) or named, font, bool(flags & mono_flag)))
    return raw


def diagonal(direction: tuple[float, float] | None) -> bool:
    """Whether a line's writing direction is neither across nor up and down the page (a watermark's 45 degrees).

    A diagonal line's box spans the height of every line it crosses ("Mellanox Technologies" at 45 degrees over a
    contents page), so merged by height it would run a dozen entries into one line. Text turned 90 degrees (a
    landscape table, an arXiv stamp in the margin) keeps its box and stays."""
    if not direction:
        return False
    dx, dy = direction
    return abs(dx) > 0.2 and abs(dy) > 0.2


def page_links(page: "pymupdf.Page") -> list[tuple[float, float, float, int]]:
    """Internal links as (y0, y1, destination's height on its page or -1 when it names none, target 1-based page).

    Walks the raw link chain and resolves each URI once: ``page.get_links()`` re-reads the
    whole named-destination tree per link, which is slow on LaTeX documents with many named destinations
    (benchmarks/results/comment-figures.md).
    """
    out: list[tuple[float, float, float, int]] = []
    try:
        doc = page.parent
        link = page.first_link
        while link:
            if not link.is_external and link.uri:
                target = doc.resolve_link(link.uri)
                pno = target[0] if isinstance(target, tuple) else -1
                if isinstance(pno, tuple):  # (chapter, page) in some versions
                    pno = doc.page_number_from_location(pno)
                if isinstance(pno, int) and 0 <= pno < doc.page_count:
                    r = link.rect
                    y = target[2] if isinstance(target, tuple) and len(target) > 2 else None
                    out.append((float(r.y0), float(r.y1), float(y) if isinstance(y, (int, float)) else -1.0, pno + 1))
            link = link.next
    except Exception:
        pass  # a broken link chain costs us the links, not the page
    return out


def merge_visual_lines(raw: list[tuple]) -> list[Line]:
    """Group line fragments (x0, y0, x1, y1, text, size, bold, font[, mono]) whose vertical extents overlap by
    more than half into one visual line."""
    raw = sorted(raw, key=lambda r: ((r[1] + r[3]) / 2, r[0]))
    groups: list[list[tuple]] = []
    gy0 = gy1 = 0.0  # the last group's vertical extent, kept as it grows (recomputing it made this quadratic)
    for frag in raw:
        if groups:
            overlap = min(gy1, frag[3]) - max(gy0, frag[1])
            height = max(1e-3, min(gy1 - gy0, frag[3] - frag[1]))
            if overlap > 0.5 * height:
                groups[-1].append(frag)
                gy0, gy1 = min(gy0, frag[1]), max(gy1, frag[3])
                continue
        groups.append([frag])
        gy0, gy1 = frag[1], frag[3]
    lines: list[Line] = []
    for group in groups:
        if len(group) == 1:
            main = group[0]
            x0, y0, x1, y1, text = main[:5]
            gaps: list[float] = []
        else:
            group.sort(key=lambda f: f[0])
            main = max(group, key=lambda f: (sum(map(str.isalpha, f[4])), len(f[4])))  # not the leader dots
            text = " ".join(f[4] for f in group)
            x0, y0 = min(f[0] for f in group), min(f[1] for f in group)
            x1, y1 = max(f[2] for f in group), max(f[3] for f in group)
            gaps = [b[0] - a[2] for a, b in zip(group, group[1:])]
        line = Line(text=text, x0=x0, y0=y0, x1=x1, y1=y1, size=main[5], bold=main[6], font=main[7],
                    max_gap=max(gaps, default=0.0), mono=bool(main[8]) if len(main) > 8 else False)
        # Word boxes are asked for on contents pages, not on the body pages the headings fallback reads: built
        # when first read (the same boxes as built here).
        line.words_from(partial(_fragment_words, group))
        lines.append(line)
    return lines


def _fragment_words(group: list[tuple]) -> list[Word]:
    """Word boxes of a visual line's fragments (left to right), spread over each fragment proportionally to
    character counts."""
    words: list[Word] = []
    add = words.append
    for frag in group:
        x0, y0, x1, y1, text = frag[:5]
        weight = frag[6] if len(frag) > 6 else None
        parts = text.split()
        if not parts:
            continue
        total = max(sum(map(len, parts)) + len(parts) - 1, 1)
        pos = 0
        width = x1 - x0
        for part in parts:
            wx0 = x0 + width * pos / total
            pos += len(part)
            add(Word(part, wx0, y0, x0 + width * pos / total, y1, weight))
            pos += 1
    return words
