"""Read an HTML or XHTML document (inline XBRL included) into text blocks, safely.

lxml (libxml2) parses: it is the one HTML parser that is both fast on 4 MB filings and tolerant of broken
markup, and it can be told never to touch the network or expand entities. XHTML (every inline-XBRL filing) is
parsed as XML first so that ``<td/>`` and namespaces mean what they say; anything XML refuses is re-parsed by
the forgiving HTML parser. The tree is walked with an explicit stack, never recursion, so 100,000 nested
elements cost memory, not a crash.

What is not text: scripts, styles, templates, the document head, navigation chrome (``nav``), anything
``display:none`` and the inline-XBRL header (``ix:header``: contexts, units and hidden facts). Tagged values
inside the text stay text; their positions are recorded for the facts table.
"""

from __future__ import annotations

import codecs
import functools
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from parsers.blocks import Block, Style
from parsers.errors import DocumentError

_log = logging.getLogger(__name__)

MAX_DEPTH = 4000  # elements nested deeper are read as text of their ancestor at this depth (junk, not layout)

_SKIP = {"script", "style", "noscript", "template", "head", "nav", "iframe", "object", "svg", "math", "select",
         "button", "ix:header", "title", "meta", "link"}
_BLOCK = {"address", "article", "aside", "blockquote", "center", "dd", "div", "dl", "dt", "fieldset", "figcaption",
          "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "ol", "p",
          "pre", "section", "table", "tr", "ul", "caption", "body", "html", "tbody", "thead", "tfoot", "summary",
          "details", "page", "document"}
_CELL = {"td", "th"}
_HEADING_SIZE = {"h1": 24.0, "h2": 18.0, "h3": 14.0, "h4": 12.0, "h5": 10.0, "h6": 8.0}
_STYLE_PROP = re.compile(r"([a-z-]+)\s*:\s*([^;]+)", re.I)
_SIZE = re.compile(r"([\d.]+)\s*(pt|px|em|rem|%)?", re.I)
_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?([A-Za-z0-9._:-]+)|<\?xml[^>]+encoding\s*=\s*["']([A-Za-z0-9._:-]+)""", re.I)
_XHTML_HINT = re.compile(rb"^\s*(?:\xef\xbb\xbf)?<\?xml|xmlns\s*=\s*[\"']http://www\.w3\.org/1999/xhtml", re.I)
_IX = "http://www.xbrl.org/2013/inlineXBRL"
_EDGE_PIPES = re.compile(r"^(?:\|\s*)+|(?:\s*\|)+$")
_PIPE_RUN = re.compile(r"\|(?:\s*\|)+")
_FILE_NAME = re.compile(r"^[\w .()-]+\.(?:jpe?g|png|gif|bmp|svg|tiff?|webp)$", re.I)


@dataclass
class FactMark:
    """An inline-XBRL fact met while reading: its element's attributes, text and block (None when hidden)."""

    tag: str  # "ix:nonfraction" | "ix:nonnumeric"
    attrs: dict[str, str]
    value: str
    block: int | None


@dataclass
class HtmlDocument:
    blocks: list[Block]
    title: str
    facts: list[FactMark] = field(default_factory=list)
    header: Any = None  # the ix:header element (contexts, units), or None
    decisions: dict[str, Any] = field(default_factory=dict)


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding used): the BOM, else the declared charset when the bytes are valid in it, else UTF-8,
    else Windows-1252 (which maps every byte). A wrong declaration is common and must not garble a filing."""
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16")):
        if data.startswith(bom):
            return data.decode(codec, "replace"), codec
    declared = None
    m = _CHARSET.search(data[:4096])
    if m:
        name = (m.group(1) or m.group(2)).decode("ascii", "ignore")
        try:
            declared = codecs.lookup(name).name
        except LookupError:
            declared = None
    for codec in [c for c in (declared, "utf-8") if c]:
        try:
            return data.decode(codec), codec
        except UnicodeDecodeError:
            continue
    return data.decode("cp1252", "replace"), "cp1252"


def _parse(text: str, xhtml: bool) -> tuple[Any, str]:
    from lxml import etree, html

    # Declarations name an encoding the str no longer has; libxml2 refuses str input that carries one.
    body = re.sub(r"^\s*<\?xml[^>]*\?>", "", text, count=1)
    if xhtml:
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True,
                                 recover=False, remove_comments=True, remove_pis=True)
        try:
            return etree.fromstring(body.encode("utf-8"), parser), "xml"
        except etree.XMLSyntaxError:
            pass
    # We decoded the bytes ourselves (see decode) and hand libxml2 UTF-8, whatever the document declares.
    parser = html.HTMLParser(no_network=True, huge_tree=True, remove_comments=True, remove_pis=True, encoding="utf-8",
                             default_doctype=False)
    try:
        root = html.document_fromstring(body.encode("utf-8") if body.strip() else b"<html></html>", parser=parser)
    except etree.ParserError as exc:
        raise DocumentError(f"unreadable HTML: {exc}", "corrupt") from None
    # libxml2 stops reading at 2,048 nested elements and silently drops the rest: say so rather than index half.
    if any("Excessive depth" in e.message for e in parser.error_log):
        raise DocumentError("markup nested more than 2,048 levels deep: not a document we can read", "too_deep")
    return root, "html"


_XHTML = "http://www.w3.org/1999/xhtml"
_TAG_NAMES: dict[Any, str] = {}  # tag -> name, for tags whose name does not depend on the document's prefixes
_PREFIXED: dict[tuple[str, str | None], str] = {}


def element_tag(el: Any) -> str:
    """"ix:nonfraction", "div": lower-case; XHTML elements by their local name, inline-XBRL ones as "ix:...",
    other namespaces with the prefix the document uses (cached: this runs once per element)."""
    tag = el.tag
    name = _TAG_NAMES.get(tag)
    if name is not None:
        return name
    if not isinstance(tag, str):
        return ""
    if tag[:1] != "{":
        name = tag.lower()
    else:
        ns, _, local = tag[1:].partition("}")
        if ns == _XHTML:
            name = local.lower()
        elif ns == _IX:
            name = f"ix:{local}".lower()
        else:
            key = (tag, el.prefix)
            name = _PREFIXED.get(key)
            if name is None:
                name = _PREFIXED[key] = f"{key[1]}:{local}".lower() if key[1] else local.lower()
            return name
    if len(_TAG_NAMES) < 10_000:  # a document inventing tag names must not grow this without bound
        _TAG_NAMES[tag] = name
    return name


_ATTR_NAMES: dict[str, str] = {}  # attribute name -> lower-case local name (a fact has seven, every fact alike)


def element_attrs(el: Any) -> dict[str, str]:
    """Attributes by lower-case local name (XML keeps case, the HTML parser lowers it)."""
    out = {}
    names = _ATTR_NAMES
    for k, v in el.items():
        name = names.get(k)
        if name is None:
            name = k.split("}", 1)[-1].lower()
            if len(names) < 10_000:  # a document inventing attribute names must not grow this without bound
                names[k] = name
        out[name] = v
    return out


def _size_pt(value: str, inherited: float) -> float:
    m = _SIZE.match(value.strip())
    if not m:
        return inherited
    n, unit = float(m.group(1)), (m.group(2) or "px").lower()
    if unit == "pt":
        return n
    if unit == "px":
        return n * 0.75
    if unit in ("em", "rem"):
        return n * (inherited or 10.0)
    return n / 100 * (inherited or 10.0)


class _Ctx(NamedTuple):
    """The inherited style at a point of the walk (immutable, so style computations can be cached)."""

    bold: bool = False
    italic: bool = False
    underline: bool = False
    size: float = 0.0
    centered: bool = False
    caps: bool = False
    pre: bool = False


_FONT_SIZES = {1: 7.5, 2: 10.0, 3: 12.0, 4: 13.5, 5: 18.0, 6: 24.0, 7: 36.0}
_BREAK_VALUES = ("always", "page", "left", "right")
_BLOCKISH = frozenset(_BLOCK | set(_HEADING_SIZE))
_BLOCK_TAGS = frozenset(set(_HEADING_SIZE) | {"li", "tr", "pre"})  # blocks that keep their tag
_TABLE_ENDS = ("tr", "table")  # inside a table only rows (and the table) end blocks
_FACT_TAGS = ("ix:nonfraction", "ix:nonnumeric")


@functools.lru_cache(maxsize=4096)
def _css(css: str) -> tuple[tuple[str, str], ...]:
    return tuple((p.lower(), v.strip().lower()) for p, v in _STYLE_PROP.findall(css))


def _style(ctx: _Ctx, tag: str, css: str, align: str, font_size: str, hidden_attr: bool) -> tuple[_Ctx, bool, bool, bool]:
    """The context inside an element plus (hidden, break before, break after)."""
    new = ctx._asdict()
    hidden = hidden_attr
    brk_before = brk_after = False
    if tag in ("b", "strong", "th") or tag in _HEADING_SIZE:
        new["bold"] = True
    if tag in ("i", "em"):
        new["italic"] = True
    if tag == "u":
        new["underline"] = True
    if tag in _HEADING_SIZE:
        new["size"] = max(new["size"], _HEADING_SIZE[tag])
    if tag == "center" or align.lower() == "center":
        new["centered"] = True
    if tag == "pre":
        new["pre"] = True
    if tag == "font" and font_size.strip().isdigit():
        new["size"] = _FONT_SIZES.get(int(font_size.strip()), new["size"])
    for prop, value in _css(css) if css else ():
        if prop == "display" and value.startswith("none"):
            hidden = True
        elif prop == "font-weight":
            new["bold"] = value.startswith("bold") or (value[:3].isdigit() and int(value[:3]) >= 600)
        elif prop == "font-style":
            new["italic"] = value.startswith(("italic", "oblique"))
        elif prop == "text-decoration" or prop == "text-decoration-line":
            new["underline"] = "underline" in value
        elif prop == "font-size":
            new["size"] = _size_pt(value, ctx.size)
        elif prop == "text-align":
            new["centered"] = value.startswith("center")
        elif prop == "text-transform":
            new["caps"] = value.startswith("uppercase")
        elif prop in ("page-break-before", "break-before"):
            brk_before = value.startswith(_BREAK_VALUES)
        elif prop in ("page-break-after", "break-after"):
            brk_after = value.startswith(_BREAK_VALUES)
    return _Ctx(**new), hidden, brk_before, brk_after


class _Styles:
    """One document's styles: each distinct context is a small int (cheap to hash and compare), and the
    context inside an element is cached on (context, tag, style attributes): filers repeat a few dozen style
    strings thousands of times."""

    def __init__(self) -> None:
        self.ctxs: list[_Ctx] = [_Ctx()]
        self.pre = False  # whether any context is preformatted text (most documents have none)
        self._ids: dict[_Ctx, int] = {self.ctxs[0]: 0}
        self.cache: dict[tuple[int, str, str, str, str, bool], tuple[int, bool, bool, bool]] = {}

    def inside(self, key: tuple[int, str, str, str, str, bool]) -> tuple[int, bool, bool, bool]:
        ctx, hidden, before, after = _style(self.ctxs[key[0]], *key[1:])
        cid = self._ids.get(ctx)
        if cid is None:
            cid = self._ids[ctx] = len(self.ctxs)
            self.ctxs.append(ctx)
            self.pre = self.pre or ctx.pre
        out = self.cache[key] = (cid, hidden, before, after)
        return out


class _Builder:
    """Accumulates inline text runs (text, context id) into blocks."""

    def __init__(self, styles: _Styles) -> None:
        self.styles = styles
        self.ctxs = styles.ctxs
        self.blocks: list[Block] = []
        self.runs: list[tuple[str, int]] = []  # emptied in place, so the walk may hold on to it
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tag = "p"
        self.break_pending = False
        self.table_id = 0  # the outermost table the current runs are in (0: none); only tables change it
        self.hr_breaks = 0


    def flush(self, tag: str | None = None) -> None:
        runs = self.runs
        if not runs:  # most calls: every block element start and end flushes
            self.tag = "p"
            return
        raw = "".join([r[0] for r in runs])
        ctxs = self.ctxs
        pre = self.styles.pre and any(ctxs[r[1]].pre for r in runs)
        if pre:
            raw = raw.replace("\xa0", " ").replace("\u200b", "")
            text = "\n".join(line.rstrip() for line in raw.strip("\n").splitlines())
        else:
            text = " ".join(raw.replace("\u200b", "").split())  # str.split() treats no-break spaces as spaces
        if "|" in text:
            # Spaces are single and inner after the join above, so stripping "| " is _EDGE_PIPES (whose "$"
            # branch is tried at every position of every table row).
            text = _EDGE_PIPES.sub("", text) if pre else text.strip("| ")
            text = _PIPE_RUN.sub("|", text).strip()
        if not text:
            runs.clear()
            self.tag = "p"
            return
        # Characters per style (runs of one block share a handful of styles).
        per_ctx: dict[int, int] = {}
        for s, c in runs:
            if s != " | ":
                per_ctx[c] = per_ctx.get(c, 0) + len(s) - s.count(" ")
        total = sum(n for n in per_ctx.values() if n > 0) or 1
        sizes: dict[float, int] = {}
        bold = italic = underline = centered = caps = 0
        for cid, n in per_ctx.items():
            if n <= 0:
                continue
            c = ctxs[cid]
            bold += n * c.bold
            italic += n * c.italic
            underline += n * c.underline
            centered += n * c.centered
            caps += n * c.caps
            sizes[c.size] = sizes.get(c.size, 0) + n
        style = Style(bold=bold >= 0.9 * total, italic=italic >= 0.9 * total, underline=underline >= 0.9 * total,
                      size=max(sizes, key=lambda k: sizes[k]) if sizes else 0.0, centered=centered >= 0.9 * total)
        if caps >= 0.9 * total:
            text = text.upper()
        # A block's runs all lie in one table, or none: every table start and end ends a block.
        self.blocks.append(Block(text=text, tag=tag or self.tag, style=style, ids=self.ids, links=self.links,
                                 in_table=self.table_id > 0, break_before=self.break_pending, table_id=self.table_id))
        runs.clear()
        self.ids, self.links, self.tag = [], [], "p"
        self.break_pending = False


_SPACER = ("td", 0, False, False)
_CELL_SEP = (" | ", 0)


def _spacer_cell(get: Any, runs: list[tuple[str, int]], ctx: _Ctx) -> bool:
    """An empty cell whose separator would be collapsed with the one before it (a financial statement's spacer
    cells are half its elements): nothing to read, unless it carries an id or a page break."""
    if get("id") is not None or ctx.pre:
        return False
    style = get("style")
    if style and ("reak" in style or "REAK" in style):
        return False
    return not runs or runs[-1][0] == " | " or (len(runs) > 1 and runs[-2][0] == " | " and runs[-1][0].isspace())


def same_lxml_release(built: str, running: str) -> bool:
    """Whether a walk compiled against lxml ``built`` may run on lxml ``running``: only the same release
    guarantees the layout of the C structures it reads."""
    return built.split(".")[:3] == running.split(".")[:3]


@functools.lru_cache(maxsize=1)
def compiled_walk() -> tuple[Any, str]:
    """(parsers.html_walk or None, which walk and why). The compiled walk gives the Python walk's output
    faster; without it (not built, or built for another lxml) the Python walk reads."""
    from lxml import etree

    module = None
    try:
        from parsers import html_walk
    except ImportError as exc:
        why = f"python walk: the compiled walk is not built ({exc})"
    else:
        running = ".".join(str(n) for n in etree.LXML_VERSION[:3])
        if same_lxml_release(html_walk.BUILT_WITH_LXML, running):
            module, why = html_walk, f"compiled walk (lxml {running})"
        else:
            why = f"python walk: the compiled walk was built for lxml {html_walk.BUILT_WITH_LXML}, running {running}"
    _log.debug("html reader: %s", why)
    return module, why


def walk_in_use() -> str:
    """Which walk read_html uses here, and why: for benchmarks and bug reports."""
    return compiled_walk()[1]


def read_html(path: str | Path, max_bytes: int, *, compiled: bool = True) -> HtmlDocument:
    """Blocks, title and inline-XBRL fact marks of the HTML document at ``path``. ``compiled=False`` takes the
    Python walk even when the compiled one is available (the reference it is tested against)."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise DocumentError(f"file is {size} bytes, over the limit of {max_bytes}", "too_large")
    data = path.read_bytes()
    text, encoding = decode(data)
    root, parser_used = _parse(text, bool(_XHTML_HINT.search(data[:4096])))
    del data, text
    # The head's title first: a search of the whole tree for the first element named "title" costs half as much
    # as libxml2's parse of a filing; it is needed only when the head has none.
    found = root.xpath("/*/*[local-name()='head']/*[local-name()='title']") or \
        root.xpath("//*[local-name()='title'][1]")
    title = " ".join("".join(found[0].itertext()).split()) if found else ""
    fast = compiled_walk()[0] if compiled else None
    if fast is not None:
        blocks, facts, header, depth_capped = fast.walk(root, _Styles(), sys.modules[__name__])
    else:
        blocks, facts, header, depth_capped = _walk(root)
    decisions = {"parser": parser_used, "encoding": encoding, "blocks": len(blocks)}
    if depth_capped:
        decisions["depth_capped"] = depth_capped
    return HtmlDocument(blocks=blocks, title=title, facts=facts, header=header, decisions=decisions)


def _walk(root: Any) -> tuple[list[Block], list[FactMark], Any, int]:
    """(blocks, fact marks, the ix:header element or None, elements read flat past MAX_DEPTH): the reference
    walk, in Python; parsers/html_walk.pyx is the same walk compiled."""
    from lxml import etree

    styles = _Styles()
    style_cache = styles.cache
    b = _Builder(styles)
    runs = b.runs
    facts: list[FactMark] = []
    header = None
    depth_capped = 0
    tables = 0
    tables_open: list[int] = []  # the table id outside each open table
    # lxml walks the tree (iteratively, in C); we keep each open element's (tag, context id inside it, whether
    # its content is text, page break after it) on a stack. A skipped element's tail is still text. This loop
    # runs once per element of a multi-megabyte filing: names are bound locally and the work per element is
    # a few dictionary look-ups.
    stack: list[tuple[str, int, bool, bool]] = [("", 0, False, False)]
    push, pop = stack.append, stack.pop
    tag_names = _TAG_NAMES.get
    walk = etree.iterwalk(root, events=("start", "end"))
    for event, el in walk:
        if event == "end":
            tag, inner, live, brk_after = pop()
            if live:
                if tag in _BLOCKISH and (not tables_open or tag in _TABLE_ENDS):
                    b.flush(tag if tag in _BLOCK_TAGS else None)
                    if tag == "table":
                        b.table_id = tables_open.pop()
                elif (tag == "td" or tag == "th") and runs and runs[-1][0] != " | ":
                    runs.append(_CELL_SEP)
                if brk_after:
                    b.flush()
                    b.break_pending = True
            tail = el.tail
            if tail:
                runs.append((tail, stack[-1][1]))
            continue
        ctx = stack[-1][1]
        tag = tag_names(el.tag) or element_tag(el)
        if not tag or tag in _SKIP:
            if tag == "ix:header":
                header = el
            walk.skip_subtree()
            push((tag, ctx, False, False))
            continue
        get = el.get
        text = el.text
        if tag == "td" and text is None and not len(el) and _spacer_cell(get, runs, styles.ctxs[ctx]):
            push(_SPACER)
            continue
        key = (ctx, tag, get("style") or "", get("align") or "", get("size") or "" if tag == "font" else "",
               get("hidden") is not None)
        hit = style_cache.get(key)
        inner, hidden, brk_before, brk_after = hit if hit is not None else styles.inside(key)
        if hidden:
            header = next((x for x in el.iter() if element_tag(x) == "ix:header"), header)
            walk.skip_subtree()
            push((tag, ctx, False, False))
            continue
        if tag in _BLOCKISH and (not tables_open or tag in _TABLE_ENDS):
            b.flush()
            b.tag = tag if tag in _BLOCK_TAGS else "p"
        if tag == "table":
            tables += 1
            tables_open.append(b.table_id)
            if len(tables_open) == 1:
                b.table_id = tables
        if brk_before:
            b.flush()
            b.break_pending = True
        anchor = get("id") or (get("name") if tag == "a" else None)
        if anchor:
            b.ids.append(anchor)
        if tag == "a":
            href = get("href") or ""
            if href.startswith("#") and len(href) > 1:
                b.links.append(href[1:])
        elif tag == "br":
            runs.append(("\n" if styles.ctxs[inner].pre else " ", inner))
        elif tag in _FACT_TAGS:
            # The block its text joins: the one being filled now (appended next).
            facts.append(FactMark(tag, element_attrs(el), fact_value(el, tag), len(b.blocks)))
        elif tag == "img":
            alt = (get("alt") or "").strip()
            if alt and not _FILE_NAME.match(alt):  # a file name is not a description
                runs.append((f" {alt} ", inner))
        if text:
            runs.append((text, inner))
        if len(stack) >= MAX_DEPTH and len(el):
            # Markup nested this deep is junk, not layout: its text is read flat.
            depth_capped += 1
            flat = " ".join(el.xpath("descendant::text()"))
            if flat:
                runs.append((flat, inner))
            walk.skip_subtree()
        push((tag, inner, True, brk_after))
    b.flush()
    return b.blocks, facts, header, depth_capped


MAX_FACT_TEXT = 4000


def fact_value(el: Any, tag: str) -> str:
    """A fact's text, whitespace normalised; a text fact's first 4,000 characters. A text block tags a whole note
    (and holds others): its text is read only as far as those characters go."""
    if not len(el):  # most facts: a number or a date with no markup inside
        text = " ".join((el.text or "").split())
        return text if tag == "ix:nonfraction" else text[:MAX_FACT_TEXT]
    if tag == "ix:nonfraction":
        return " ".join("".join(el.itertext()).split())
    parts: list[str] = []
    read, check = 0, 2 * MAX_FACT_TEXT
    for piece in el.itertext():
        parts.append(piece)
        read += len(piece)
        if read >= check:
            text = " ".join("".join(parts).split())
            # Later text can only lengthen the last word or add words after it.
            if text.rfind(" ") >= MAX_FACT_TEXT:
                return text[:MAX_FACT_TEXT]
            check *= 2
    return " ".join("".join(parts).split())[:MAX_FACT_TEXT]
