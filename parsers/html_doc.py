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
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsers.blocks import Block, Style
from parsers.errors import DocumentError

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
    parser = html.HTMLParser(no_network=True, huge_tree=True, remove_comments=True, remove_pis=True,
                             default_doctype=False)
    try:
        root = html.document_fromstring(body.encode("utf-8") if body.strip() else b"<html></html>", parser=parser)
    except etree.ParserError as exc:
        raise DocumentError(f"unreadable HTML: {exc}", "corrupt") from None
    return root, "html"


def _tag(el: Any) -> str:
    tag = el.tag
    if not isinstance(tag, str):
        return ""
    if tag.startswith("{"):
        ns, _, local = tag[1:].partition("}")
        prefix = el.prefix or ("ix" if ns == _IX else "")
        return f"{prefix}:{local}".lower() if prefix else local.lower()
    return tag.lower()


def _attrs(el: Any) -> dict[str, str]:
    """Attributes by lower-case local name (XML keeps case, the HTML parser lowers it)."""
    out = {}
    for k, v in el.attrib.items():
        k = k.split("}", 1)[-1].lower()
        out[k] = v
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


@dataclass
class _Ctx:
    tables = 0  # class-wide counter of outermost tables (ids only need to differ within one document)
    bold: bool = False
    italic: bool = False
    underline: bool = False
    size: float = 0.0
    centered: bool = False
    caps: bool = False
    pre: bool = False
    table: int = 0
    table_id: int = 0  # which outermost table the text is in (0: none)


def _style(el: Any, tag: str, attrs: dict[str, str], ctx: _Ctx) -> tuple[_Ctx, bool, bool, bool]:
    """The context inside ``el`` plus (hidden, break before, break after)."""
    new = _Ctx(**ctx.__dict__)
    hidden = brk_before = brk_after = False
    if tag in ("b", "strong", "th") or tag in _HEADING_SIZE:
        new.bold = True
    if tag in ("i", "em"):
        new.italic = True
    if tag == "u":
        new.underline = True
    if tag in _HEADING_SIZE:
        new.size = max(new.size, _HEADING_SIZE[tag])
    if tag == "center" or attrs.get("align", "").lower() == "center":
        new.centered = True
    if tag == "pre":
        new.pre = True
    if tag == "table":
        new.table += 1
        if new.table == 1:
            _Ctx.tables += 1
            new.table_id = _Ctx.tables
    if tag == "font" and attrs.get("size", "").strip().isdigit():
        new.size = {1: 7.5, 2: 10.0, 3: 12.0, 4: 13.5, 5: 18.0, 6: 24.0, 7: 36.0}.get(int(attrs["size"].strip()), new.size)
    if attrs.get("hidden") is not None and tag not in ("input",):
        hidden = True
    css = attrs.get("style")
    if css:
        for prop, value in _STYLE_PROP.findall(css):
            prop, value = prop.lower(), value.strip().lower()
            if prop == "display" and value.startswith("none"):
                hidden = True
            elif prop == "font-weight":
                new.bold = value.startswith("bold") or (value[:3].isdigit() and int(value[:3]) >= 600)
            elif prop == "font-style":
                new.italic = value.startswith(("italic", "oblique"))
            elif prop == "text-decoration" or prop == "text-decoration-line":
                new.underline = "underline" in value
            elif prop == "font-size":
                new.size = _size_pt(value, ctx.size)
            elif prop == "text-align":
                new.centered = value.startswith("center")
            elif prop == "text-transform":
                new.caps = value.startswith("uppercase")
            elif prop in ("page-break-before", "break-before"):
                brk_before = value.startswith(("always", "page", "left", "right"))
            elif prop in ("page-break-after", "break-after"):
                brk_after = value.startswith(("always", "page", "left", "right"))
    return new, hidden, brk_before, brk_after


class _Builder:
    """Accumulates inline text runs into blocks."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.runs: list[tuple[str, _Ctx]] = []
        self.ids: list[str] = []
        self.links: list[str] = []
        self.tag = "p"
        self.break_pending = False
        self.hr_breaks = 0

    def text(self, s: str | None, ctx: _Ctx) -> None:
        if s:
            self.runs.append((s, ctx))

    def cell(self) -> None:
        if self.runs and self.runs[-1][0] != " | ":
            self.runs.append((" | ", _Ctx()))

    def flush(self, tag: str | None = None) -> None:
        pieces = [r[0] for r in self.runs]
        pre = any(r[1].pre for r in self.runs)
        raw = "".join(pieces).replace("\xa0", " ").replace("\u200b", "")
        if pre:
            text = "\n".join(line.rstrip() for line in raw.strip("\n").splitlines())
        else:
            text = " ".join(raw.split())
        text = re.sub(r"^(?:\|\s*)+|(?:\s*\|)+$", "", text)
        text = re.sub(r"\|(?:\s*\|)+", "|", text).strip()
        if not text:
            self.runs = []
            self.tag = "p"
            return
        weights: dict[str, float] = {"bold": 0, "italic": 0, "underline": 0, "centered": 0, "caps": 0}
        sizes: dict[float, int] = {}
        total = 0
        in_table = False
        table_id = 0
        for s, c in self.runs:
            n = sum(1 for ch in s if ch.isalnum())
            if not n:
                continue
            total += n
            for k in weights:
                weights[k] += n * bool(getattr(c, k))
            sizes[c.size] = sizes.get(c.size, 0) + n
            in_table = in_table or c.table > 0
            table_id = table_id or c.table_id
        total = total or 1
        share = {k: v / total for k, v in weights.items()}
        style = Style(bold=share["bold"] >= 0.9, italic=share["italic"] >= 0.9, underline=share["underline"] >= 0.9,
                      size=max(sizes, key=lambda s: sizes[s]) if sizes else 0.0, centered=share["centered"] >= 0.9)
        if share["caps"] >= 0.9:
            text = text.upper()
        self.blocks.append(Block(text=text, tag=tag or self.tag, style=style, ids=self.ids, links=self.links,
                                 in_table=in_table, break_before=self.break_pending, table_id=table_id))
        self.runs, self.ids, self.links, self.tag = [], [], [], "p"
        self.break_pending = False


def read_html(path: str | Path, max_bytes: int) -> HtmlDocument:
    """Blocks, title and inline-XBRL fact marks of the HTML document at ``path``."""
    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise DocumentError(f"file is {size} bytes, over the limit of {max_bytes}", "too_large")
    data = path.read_bytes()
    text, encoding = decode(data)
    root, parser_used = _parse(text, bool(_XHTML_HINT.search(data[:4096])))
    del data
    b = _Builder()
    facts: list[FactMark] = []
    header = None
    title = ""
    depth_capped = 0
    # Explicit stack: (element, context, closing?, depth). Tail text belongs to the parent, after the element.
    stack: list[tuple[Any, _Ctx, bool, int, bool]] = [(root, _Ctx(), False, 0, False)]
    while stack:
        el, ctx, closing, depth, brk_after = stack.pop()
        if isinstance(el, _TailNode):
            b.text(el.text, ctx)
            continue
        tag = _tag(el)
        if closing:
            # Inside a table only rows end blocks: a row is one line ("Item 1A. | Risk Factors | 10").
            if (tag in _BLOCK or tag in _HEADING_SIZE) and (not ctx.table or tag in ("tr", "table")):
                b.flush(tag if tag in _HEADING_SIZE or tag in ("li", "tr", "pre") else None)
            elif tag in _CELL:
                b.cell()
            if brk_after:
                b.flush()
                b.break_pending = True
            continue
        parent_ctx = ctx
        if tag == "title" and not title:
            title = " ".join((el.text or "").split())
        if tag == "ix:header":
            header = el
        if not tag or tag in _SKIP:
            b.text(el.tail, parent_ctx)
            continue
        attrs = _attrs(el)
        inner, hidden, brk_before, brk_after = _style(el, tag, attrs, ctx)
        if hidden:
            header = next((x for x in el.iter() if _tag(x) == "ix:header"), header)
            b.text(el.tail, parent_ctx)
            continue
        if (tag in _BLOCK or tag in _HEADING_SIZE) and (not ctx.table or tag in ("tr", "table")):
            b.flush()
            b.tag = tag if tag in _HEADING_SIZE or tag in ("li", "tr", "pre") else "p"
        if brk_before:
            b.flush()
            b.break_pending = True
        if tag == "hr" and not brk_before and not brk_after:
            b.hr_breaks += 1
        anchor = attrs.get("id") or (attrs.get("name") if tag == "a" else None)
        if anchor:
            b.ids.append(anchor)
        href = attrs.get("href", "")
        if tag == "a" and href.startswith("#") and len(href) > 1:
            b.links.append(href[1:])
        if tag == "br":
            b.text("\n" if inner.pre else " ", inner)
        if tag in ("ix:nonfraction", "ix:nonnumeric"):
            facts.append(FactMark(tag, attrs, "", None))
            facts[-1].value = _fact_value(el, tag)
            facts[-1].block = len(b.blocks)  # the block its text joins (fixed up below if it is hidden)
        alt = attrs.get("alt", "").strip() if tag == "img" else ""
        if alt and not _FILE_NAME.match(alt):  # a file name is not a description
            b.text(f" {alt} ", inner)
        # Tail text after the element closes, in the parent's style: pushed first so that it pops last.
        if el.tail:
            stack.append((_TailNode(el.tail), parent_ctx, False, depth, False))
        stack.append((el, inner, True, depth, brk_after))
        b.text(el.text, inner)
        children = list(el) if depth < MAX_DEPTH else []
        if depth >= MAX_DEPTH and len(el):
            depth_capped += 1
            b.text(" ".join(el.itertext()), inner)
        for child in reversed(children):
            stack.append((child, inner, False, depth + 1, False))
    b.flush()
    decisions = {"parser": parser_used, "encoding": encoding, "blocks": len(b.blocks)}
    if depth_capped:
        decisions["depth_capped"] = depth_capped
    return HtmlDocument(blocks=b.blocks, title=title, facts=facts, header=header, decisions=decisions)


class _TailNode:
    """Stands for an element's tail text on the walk stack."""

    def __init__(self, text: str):
        self.text = text


def _fact_value(el: Any, tag: str) -> str:
    text = "".join(el.itertext())
    if tag == "ix:nonfraction":
        return " ".join(text.split())
    return " ".join(text.split())[:4000]
