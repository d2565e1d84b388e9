"""Rewrite an EDGAR filing's HTML into the layouts of filings we have never seen (issue 15's held-out kinds).

Independent of the parser under test: lines, Item and Part headings, contents tables, page breaks and folios
are found here with lxml and a few patterns of our own, not with ``parsers/``. Each variant changes where the
Items are announced (Part lines, contents, labels, captions, a cross-reference index) but not the Items' text,
so a filing's ``expected-items.json`` stays valid (``combined_items`` says how it changes the expectations).

Variants:
  original        the filing as filed
  no_parts        every "PART I/II/III/IV" line removed (contents and body)
  part2_late      the body's "PART II" heading moved after its first Item's heading
  toc_unlinked    every internal link (``href="#..."``) removed: no contents links, no back-links
  toc_removed     the front contents removed and internal links stripped
  xref_links      GE style: front contents and Part lines removed, each Item heading replaced by its caption
                  only ("Risk Factors"), and a "Form 10-K Cross Reference Index" table at the back mapping
                  each Item to the printed pages where it runs, the page numbers linked to the captions
  xref_pages      the same with the page numbers as plain text (no link anywhere)
  caps_no_period  "Item 1A. Risk Factors" headings set as "ITEM 1A RISK FACTORS"
  item_in_cells   each Item heading set as a two-cell table row: "Item 1A." | "Risk Factors"
  combined_items  two adjacent Items under one heading ("Items 3 and 4. Legal Proceedings; Mine Safety
                  Disclosures"), in the contents too
  items_1_and_2   10-K: "Items 1 and 2. Business and Properties" where Item 1 was, Item 2's heading gone (its
                  text stays where it was, after Items 1A-1C, as filers who combine them do)
  part_item_one_line  each body "PART II" line joined to its first Item's heading ("PART II — Item 5. Market
                  ..."), and no internal links, so the headings must carry it
  running_headers every page headed by a bold "PART II Item 7" line naming the Item it belongs to (as some
                  filers print), and no internal links
  plain_unlinked  Item headings in body style (not bold, not underlined) and no internal links: only the
                  "Item N." text pattern is left
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree
from lxml import html as lhtml

VARIANTS = ("original", "no_parts", "part2_late", "toc_unlinked", "toc_removed", "xref_links", "xref_pages",
            "caps_no_period", "item_in_cells", "combined_items", "plain_unlinked",
            "items_1_and_2", "part_item_one_line", "running_headers")

_BLOCK = {"div", "p", "td", "th", "li", "h1", "h2", "h3", "h4", "h5", "h6", "center", "dt", "dd"}
_ITEM = re.compile(r"^item\s*(1[0-6]|[1-9])\s?([a-d])?(?![\w])\s*[.:\u2013\u2014-]?\s*(.*)$", re.I | re.S)
_PART = re.compile(r"^part\s+(iv|i{1,3})\b", re.I)
_FOLIO = re.compile(r"^(?:page\s+)?((?:[a-z]{1,2}-)?\d{1,3}|[ivxl]{1,6})$", re.I)
_BREAK = re.compile(r"(?:page-)?break-(before|after)\s*:\s*(always|page)", re.I)
_SIGNATURES = re.compile(r"^signatures?$", re.I)

ORDER_10K = ["1", "1A", "1B", "1C", "2", "3", "4", "5", "6", "7", "7A", "8", "9", "9A", "9B", "9C",
             "10", "11", "12", "13", "14", "15", "16"]
ORDER_10Q = [("I", n) for n in ("1", "2", "3", "4")] + [("II", n) for n in ("1", "1A", "2", "3", "4", "5", "6")]


def local(el) -> str:
    return etree.QName(el).localname.lower() if isinstance(el.tag, str) else ""


def text_of(el) -> str:
    return " ".join("".join(el.itertext()).replace("\xa0", " ").split())


@dataclass
class Doc:
    root: object
    xml: bool
    lines: list = field(default_factory=list)  # innermost block elements with text, in document order

    def serialize(self) -> bytes:
        if self.xml:
            return etree.tostring(self.root.getroottree(), xml_declaration=True, encoding="utf-8")
        return lhtml.tostring(self.root, encoding="utf-8", method="html")

    def make(self, tag: str, **attrs) -> object:
        ns = etree.QName(self.root).namespace if self.xml else None
        return etree.Element(f"{{{ns}}}{tag}" if ns else tag, **attrs)


def parse(data: bytes) -> Doc:
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=True))
        doc = Doc(root, True)
    except etree.XMLSyntaxError:
        doc = Doc(lhtml.document_fromstring(data, parser=lhtml.HTMLParser(no_network=True, huge_tree=True)), False)
    index_lines(doc)
    return doc


def index_lines(doc: Doc) -> None:
    """Lines: the innermost block elements that hold text (an empty rule table inside a heading's div does
    not make the div a container)."""
    holders: dict = {}
    for el in doc.root.iter():
        if not isinstance(el.tag, str):
            continue
        if (el.text or "").strip():
            b = _block_of(el)
            if b is not None:
                holders[b] = True
        if (el.tail or "").strip() and el.getparent() is not None:
            b = _block_of(el.getparent())
            if b is not None:
                holders[b] = True
    outer: set = set()
    for el in holders:
        for a in el.iterancestors():
            if a in holders:
                outer.add(a)
    doc.lines = [el for el in doc.root.iter() if el in holders and el not in outer and text_of(el) and not _hidden(el)]


def _block_of(el):
    while el is not None and local(el) not in _BLOCK:
        el = el.getparent()
    return el


def _hidden(el) -> bool:
    for a in el.iterancestors():
        if "display:none" in (a.get("style") or "").replace(" ", "") or local(a) == "header":
            return True
    return False


def outer_table(el):
    found = None
    for a in el.iterancestors():
        if local(a) == "table":
            found = a
    return found


def item_of(text: str) -> tuple[str, str] | None:
    """(number, rest) of an Item label line, or None."""
    if len(text) > 250:
        return None
    m = _ITEM.match(text)
    if not m:
        return None
    return m.group(1) + (m.group(2) or "").upper(), m.group(3).strip()


def is_part(text: str) -> bool:
    return len(text) <= 80 and bool(_PART.match(text))


@dataclass
class Anatomy:
    contents: list  # tables listing three or more Items before the body
    headings: dict  # item id -> line element of its body heading
    order: list  # item ids in document order
    part_lines: list  # Part heading lines (contents and body)


def _internal_link(el) -> bool:
    return any((a.get("href") or "").startswith("#") for a in el.iter() if local(a) == "a")


def anatomy(doc: Doc, form: str) -> Anatomy:
    """Where the filing announces its Items: contents tables, the body's Item headings, Part lines."""
    counts: dict = {}
    for el in doc.lines:
        if item_of(text_of(el)):
            t = outer_table(el)
            if t is not None:
                counts[t] = counts.get(t, 0) + 1
    index_tables = {t for t, n in counts.items() if n >= 3}
    heads: dict = {}
    order: list = []
    last = -1
    part = None
    seen: set = set()
    for el in doc.lines:
        text = text_of(el)
        if is_part(text) and outer_table(el) not in index_tables:
            part = _PART.match(text).group(1).upper()
        got = item_of(text)
        if not got or outer_table(el) in index_tables or _internal_link(el):
            continue
        number, rest = got
        # A heading's rest is its title (or nothing); "Item 7 of this report discusses ..." is a sentence, and
        # "Item 1. Financial Statements (Continued)" a running header.
        if rest and not (rest[0].isupper() or rest[0] in "\u201c\"'([") or "continued" in rest.lower() \
                or (rest and text.lower() in seen):
            continue
        seen.add(text.lower())
        if form == "10-Q":
            ranks = [k for k, (p, n) in enumerate(ORDER_10Q) if n == number and k > last and part in (None, p)]
            if not ranks:
                continue
            rank = ranks[0]
            part, num = ORDER_10Q[rank]
            ident = f"part{1 if part == 'I' else 2}item{num.lower()}"
        else:
            if number not in ORDER_10K or ORDER_10K.index(number) <= last:
                continue
            rank = ORDER_10K.index(number)
            ident = f"item{number.lower()}"
        heads[ident] = el
        order.append(ident)
        last = rank
    first = heads[order[0]] if order else None
    pos = {el: i for i, el in enumerate(doc.lines)}
    contents = [t for t in index_tables if first is not None and _before(doc, t, first, pos)]
    parts = [el for el in doc.lines if is_part(text_of(el))]
    return Anatomy(contents, heads, order, parts)


def _before(doc: Doc, table, el, pos) -> bool:
    first_line = next((x for x in table.iter() if x in pos), None)
    return first_line is not None and pos[first_line] < pos[el]


# -- editing helpers ---------------------------------------------------------------------------------------

def remove(el) -> None:
    """Drop an element, keeping its tail text and any id anchors inside it (links may point at them)."""
    parent = el.getparent()
    if parent is None:
        return
    anchors = [a for a in el.iter() if a is not el and (a.get("id") or a.get("name"))]
    keep = []
    for a in anchors + ([el] if el.get("id") else []):
        stub = etree.Element(a.tag)
        for k in ("id", "name"):
            if a.get(k):
                stub.set(k, a.get(k))
        keep.append(stub)
    idx = parent.index(el)
    tail = el.tail
    parent.remove(el)
    for k, stub in enumerate(keep):
        parent.insert(idx + k, stub)
    if tail:
        prev = parent[idx + len(keep) - 1] if idx + len(keep) > 0 else None
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail


def set_text(el, text: str) -> None:
    """Replace a line's contents with ``text``, keeping the first styled inline element's style (bold, size)
    and the anchors inside it."""
    styled = next((d for d in el.iterdescendants() if local(d) in ("span", "font", "b", "strong", "u") and d.get("style")
                   is not None), None)
    styled = styled if styled is not None else next((d for d in el.iterdescendants() if local(d) in ("b", "strong")), None)
    anchors = [a for a in el.iterdescendants() if a.get("id") or a.get("name")]
    stubs = []
    for a in anchors:
        stub = etree.Element(a.tag)
        for k in ("id", "name"):
            if a.get(k):
                stub.set(k, a.get(k))
        stubs.append(stub)
    for child in list(el):
        el.remove(child)
    el.text = None
    for s in stubs:
        el.append(s)
    if styled is not None:
        span = etree.Element(styled.tag, **{k: v for k, v in styled.attrib.items() if k not in ("id", "name")})
        span.text = text
        el.append(span)
    elif stubs:
        stubs[-1].tail = text
    else:
        el.text = text


def strip_internal_links(doc: Doc) -> int:
    n = 0
    for a in doc.root.iter():
        if local(a) == "a" and (a.get("href") or "").startswith("#"):
            del a.attrib["href"]
            n += 1
    return n


def remove_parts(doc: Doc, an: Anatomy) -> int:
    for el in an.part_lines:
        remove(el)
    return len(an.part_lines)


def remove_contents(doc: Doc, an: Anatomy) -> int:
    for t in an.contents:
        remove(t)
    return len(an.contents)


def block_anchor(el):
    """Where a new block can go after ``el``: after its outermost table when it sits in one."""
    t = outer_table(el)
    return t if t is not None else el


def move_after(el, target) -> None:
    parent = el.getparent()
    tail, el.tail = el.tail, None
    prev = el.getprevious()
    parent.remove(el)
    if tail:
        if prev is not None:
            prev.tail = (prev.tail or "") + tail
        else:
            parent.text = (parent.text or "") + tail
    target.addnext(el)


def part2_late(doc: Doc, an: Anatomy, form: str) -> int:
    first = "part2item1" if form == "10-Q" else next((i for i in an.order if i in
                                                       ("item5", "item6", "item7", "item7a", "item8")), None)
    if first not in an.headings:
        return 0
    pos = {el: i for i, el in enumerate(doc.lines)}
    head = an.headings[first]
    prev_items = [an.headings[i] for i in an.order[:an.order.index(first)]]
    lo = pos[prev_items[-1]] if prev_items else 0
    lines = [el for el in an.part_lines if lo < pos[el] < pos[head] and _PART.match(text_of(el)).group(1).upper() == "II"]
    if not lines:
        return 0
    el = lines[-1]
    t = outer_table(el)
    if t is not None and not any(item_of(text_of(x)) for x in t.iter() if x in pos):
        el = t
    elif t is not None:
        return 0
    move_after(el, block_anchor(head))
    return 1


def relabel(doc: Doc, an: Anatomy, fn) -> int:
    n = 0
    for ident in an.order:
        el = an.headings[ident]
        number, rest = item_of(text_of(el))
        new = fn(number, rest)
        if new is not None:
            set_text(el, new)
            n += 1
    return n


def items_in_cells(doc: Doc, an: Anatomy) -> int:
    n = 0
    for ident in an.order:
        el = an.headings[ident]
        number, rest = item_of(text_of(el))
        if outer_table(el) is not None or not rest:
            continue  # already a cell, or the title is on a line of its own
        style = next((d.get("style") for d in el.iterdescendants() if d.get("style")), "") or ""
        table = doc.make("table", style="width:100%")
        tr = etree.SubElement(table, table.tag.replace("table", "tr"))
        for k, txt in enumerate((f"Item {number}.", rest)):
            td = etree.SubElement(tr, table.tag.replace("table", "td"), style="width:12%" if k == 0 else "")
            span = etree.SubElement(td, table.tag.replace("table", "span"), style=style)
            span.text = txt
        if el.get("id"):
            tr[0].set("id", el.get("id"))
            del el.attrib["id"]
        set_text(el, "")
        for child in list(el):
            if not (child.get("id") or child.get("name")):
                el.remove(child)
        el.addnext(table)
        n += 1
    return n


# -- pages and folios ---------------------------------------------------------------------------------------

def pages_of_lines(doc: Doc) -> dict:
    """The physical page of each line (1-based), from the CSS page breaks."""
    lines = set(doc.lines)
    page, out = 1, {}
    seen = False
    for ev, el in etree.iterwalk(doc.root, events=("start", "end")):
        if not isinstance(el.tag, str):
            continue
        style = el.get("style") or ""
        if ev == "start":
            for m in _BREAK.finditer(style):
                if m.group(1).lower() == "before" and seen:
                    page, seen = page + 1, False
            if el in lines:
                out[el] = page
                seen = True
        else:
            for m in _BREAK.finditer(style):
                if m.group(1).lower() == "after" and seen:
                    page, seen = page + 1, False
    return out


_RUNNING = re.compile(r"^(?:(\d{1,3})\s+(\D.{2,60})|(.{2,60}\D)\s+(\d{1,3}))$")


def folios(doc: Doc, page_of: dict) -> dict:
    """page -> printed folio: the last (else the first) line of the page that reads like a page number, or
    the number of a running header/footer ("The Company 35", "18 The Company") whose words repeat."""
    by_page: dict = {}
    for el in doc.lines:
        by_page.setdefault(page_of.get(el, 0), []).append(text_of(el))
    edge = {page: texts[::-1][:3] + texts[:2] for page, texts in by_page.items()}
    words: dict = {}
    for texts in edge.values():
        for t in set(texts):
            m = _RUNNING.match(t)
            if m:
                w = (m.group(2) or m.group(3)).strip().lower()
                words[w] = words.get(w, 0) + 1
    out = {}
    for page, texts in edge.items():
        for t in texts:
            m = _FOLIO.match(t)
            r = _RUNNING.match(t)
            if m:
                out[page] = m.group(1)
            elif r and words.get((r.group(2) or r.group(3)).strip().lower(), 0) * 3 >= len(by_page):
                out[page] = r.group(1) or r.group(4)
            if page in out:
                break
    # A page whose folio was not found is numbered from its neighbours' (a section's first page often
    # prints none).
    for page in sorted(by_page):
        if page not in out and str(out.get(page - 1, "")).isdigit():
            out[page] = str(int(out[page - 1]) + 1)
    return out


def xref(doc: Doc, an: Anatomy, form: str, links: bool) -> int:
    """GE's layout: captions only in the body and a cross-reference index at the back. A filing with no Item
    heading in its body (already cross-referenced) is left as it is."""
    if not an.order:
        return 0
    page_of = pages_of_lines(doc)
    folio = folios(doc, page_of)
    starts = {i: page_of.get(an.headings[i]) for i in an.order}
    captions = {}
    for k, ident in enumerate(an.order):
        el = an.headings[ident]
        number, rest = item_of(text_of(el))
        if not el.get("id"):
            el.set("id", f"xref-{ident}")
        captions[ident] = (number, rest, el.get("id"))
    # Signatures after the last Item: the index goes before them.
    pos = {el: i for i, el in enumerate(doc.lines)}
    last = pos[an.headings[an.order[-1]]] if an.order else 0
    sig = next((el for el in doc.lines[last + 1:] if _SIGNATURES.match(text_of(el))), None)
    remove_contents(doc, an)
    remove_parts(doc, an)
    if not links:
        strip_internal_links(doc)
    for ident in an.order:
        el = an.headings[ident]
        number, rest, _ = captions[ident]
        if rest:
            set_text(el, rest)
        else:
            set_text(el, "")  # the caption is on the next line or cell
    # No Item label is left in the body: other indexes go, running headers keep their caption only.
    line_set = set(doc.lines)
    for t in {outer_table(el) for el in doc.lines if item_of(text_of(el))} - {None}:
        if sum(1 for x in t.iter() if x in line_set and item_of(text_of(x))) >= 3 and t.getparent() is not None:
            remove(t)
    for el in doc.lines:
        got = item_of(text_of(el)) if el.getparent() is not None else None
        if got and got[1] and (got[1][0].isupper() or got[1][0] in "\u201c\"'([") and not _internal_link(el):
            set_text(el, got[1])
    rows = []
    part = None
    for k, ident in enumerate(an.order):
        number, rest, anchor = captions[ident]
        if form == "10-Q":
            p = "I" if ident.startswith("part1") else "II"
            if p != part:
                rows.append((f"Part {p}", "", ""))
                part = p
        start = starts.get(ident)
        nxt = starts.get(an.order[k + 1]) if k + 1 < len(an.order) else None
        end = max(start, nxt - 1) if start and nxt and folio.get(nxt - 1) else start
        a, b = folio.get(start), folio.get(end)
        pages = (a if a == b or not b else f"{a}\u2013{b}") if a else ""
        title = rest or _next_caption(doc, an.headings[ident])
        rows.append((f"Item {number}.", title, (pages, anchor)))
    table = doc.make("table", style="width:100%")
    head = doc.make("div", style="page-break-before:always")
    span = etree.SubElement(head, head.tag.replace("div", "span"), style="font-weight:bold")
    span.text = f"Form {form} Cross Reference Index"
    for label, title, cell in rows:
        tr = etree.SubElement(table, table.tag.replace("table", "tr"))
        for k, txt in enumerate((label, title, cell)):
            td = etree.SubElement(tr, table.tag.replace("table", "td"))
            if k == 2 and txt:
                pages, anchor = txt
                if links and pages:
                    a = etree.SubElement(td, table.tag.replace("table", "a"), href=f"#{anchor}")
                    a.text = pages
                else:
                    td.text = pages or "Not applicable"
            else:
                td.text = txt
    if sig is not None:
        anchor = block_anchor(sig)
        anchor.addprevious(head)
        anchor.addprevious(table)
    else:
        body = next((x for x in doc.root.iter() if local(x) == "body"), doc.root)
        body.append(head)
        body.append(table)
    return len(an.order)


def _next_caption(doc: Doc, el) -> str:
    pos = doc.lines.index(el)
    for nxt in doc.lines[pos + 1:pos + 3]:
        t = text_of(nxt)
        if t and not item_of(t) and len(t) < 200:
            return t
    return ""


_WEIGHT = re.compile(r"font-weight\s*:\s*(?:bold|bolder|[6-9]00)|text-decoration\s*:\s*underline", re.I)


def unstyle(an: Anatomy) -> int:
    """Item headings set like body text: no bold or underline, b/strong/u unwrapped."""
    for ident in an.order:
        el = an.headings[ident]
        for d in el.iter():
            if d.get("style"):
                d.set("style", _WEIGHT.sub("font-weight:400", d.get("style")))
        etree.strip_tags(el, *{d.tag for d in el.iterdescendants() if local(d) in ("b", "strong", "u")})
    return len(an.order)


COMBINE = {"10-K": [("item3", "item4"), ("item9a", "item9b")], "10-Q": [("part1item3", "part1item4")]}


def combine(doc: Doc, an: Anatomy, form: str) -> list[tuple[str, str]]:
    """Put two adjacent Items under one heading, in the body and in the contents; the pairs merged."""
    done = []
    for a, b in COMBINE[form]:
        if a not in an.headings or b not in an.headings or an.order.index(b) != an.order.index(a) + 1:
            continue
        na, ra = item_of(text_of(an.headings[a]))
        nb, rb = item_of(text_of(an.headings[b]))
        if not ra or not rb:
            continue
        set_text(an.headings[a], f"Items {na} and {nb}. {ra}; {rb}")
        set_text(an.headings[b], "")
        merge_contents(an, na, nb)
        done.append((a, b))
    return done


def merge_contents(an: Anatomy, na: str, nb: str) -> None:
    """The contents say it too: Item ``nb``'s row goes, Item ``na``'s row is labelled "Items na and nb."."""
    for t in an.contents:
        for tr in [r for r in t.iter() if local(r) == "tr"]:
            got = item_of(text_of(tr).replace("|", " "))
            if got and got[0] == nb:
                tr.getparent().remove(tr)
            elif got and got[0] == na:
                cell = next((x for x in tr.iter() if local(x) in ("td", "th") and item_of(text_of(x))), None)
                if cell is not None:
                    set_text(cell, f"Items {na} and {nb}.")


def business_and_properties(an: Anatomy) -> list[tuple[str, str]]:
    """Items 1 and 2 under one heading at Item 1 (Item 2's own heading removed): the pair merged, or none."""
    if "item1" not in an.headings or "item2" not in an.headings:
        return []
    one, two = an.headings["item1"], an.headings["item2"]
    if not item_of(text_of(one))[1] or not item_of(text_of(two))[1]:
        return []
    set_text(one, "Items 1 and 2. Business and Properties")
    set_text(two, "")
    merge_contents(an, "1", "2")
    return [("item1", "item2")]


def part_and_item(doc: Doc, an: Anatomy) -> int:
    """Each body Part line that closely precedes an Item heading joined to it on one line."""
    pos = {el: i for i, el in enumerate(doc.lines)}
    heads = sorted((pos[an.headings[i]], i) for i in an.order)
    n = 0
    for el in an.part_lines:
        if outer_table(el) in an.contents or el.getparent() is None:
            continue
        nxt = next(((p, i) for p, i in heads if p > pos[el]), None)
        if not nxt or nxt[0] - pos[el] > 3:
            continue
        head = an.headings[nxt[1]]
        set_text(head, f"{text_of(el)} \u2014 {text_of(head)}")
        remove(el)
        n += 1
    return n


def _part_of(ident: str) -> str:
    if ident.startswith("part"):
        return "I" if ident.startswith("part1") else "II"
    rank = ORDER_10K.index(ident[4:].upper())
    return "I" if rank < ORDER_10K.index("5") else "II" if rank < ORDER_10K.index("10") else \
        "III" if rank < ORDER_10K.index("15") else "IV"


def running_headers(doc: Doc, an: Anatomy, form: str) -> int:
    """A "PART II Item 7" line at the top of every page after an Item's heading, naming that Item."""
    page_of = pages_of_lines(doc)
    pos = {el: i for i, el in enumerate(doc.lines)}
    heads = sorted((pos[an.headings[i]], i) for i in an.order)
    first: dict = {}
    for el in doc.lines:
        first.setdefault(page_of.get(el, 0), el)
    n = 0
    for page, el in sorted(first.items()):
        cur = [i for p, i in heads if p < pos[el]]
        if not cur or el.getparent() is None:
            continue
        number = item_of(text_of(an.headings[cur[-1]]))[0]
        head = doc.make("div")
        span = etree.SubElement(head, head.tag.replace("div", "span"), style="font-weight:bold")
        span.text = f"PART {_part_of(cur[-1])} Item {number}"
        block_anchor(el).addprevious(head)
        n += 1
    return n


def make_variant(data: bytes, form: str, variant: str) -> tuple[bytes, dict]:
    """The filing rewritten as ``variant`` and what was changed (counts; for ``combined_items`` the pairs)."""
    doc = parse(data)
    an = anatomy(doc, form)
    info: dict = {"located": list(an.order), "contents_tables": len(an.contents), "part_lines": len(an.part_lines)}
    if variant == "original":
        return data, info
    if variant == "no_parts":
        info["changed"] = remove_parts(doc, an)
    elif variant == "part2_late":
        info["changed"] = part2_late(doc, an, form)
    elif variant == "toc_unlinked":
        info["changed"] = strip_internal_links(doc)
    elif variant == "toc_removed":
        info["changed"] = remove_contents(doc, an)
        strip_internal_links(doc)
    elif variant in ("xref_links", "xref_pages"):
        info["changed"] = xref(doc, an, form, links=variant == "xref_links")
    elif variant == "caps_no_period":
        info["changed"] = relabel(doc, an, lambda n, rest: f"ITEM {n} {rest.upper()}".strip())
    elif variant == "item_in_cells":
        info["changed"] = items_in_cells(doc, an)
    elif variant == "items_1_and_2":
        info["combined"] = business_and_properties(an) if form == "10-K" else []
        info["changed"] = len(info["combined"])
    elif variant == "part_item_one_line":
        info["changed"] = part_and_item(doc, an)
        strip_internal_links(doc)
    elif variant == "running_headers":
        info["changed"] = running_headers(doc, an, form)
        strip_internal_links(doc)
    elif variant == "plain_unlinked":
        info["changed"] = unstyle(an)
        strip_internal_links(doc)
    elif variant == "combined_items":
        info["combined"] = combine(doc, an, form)
        info["changed"] = len(info["combined"])
    else:
        raise ValueError(variant)
    return doc.serialize(), info


def combined_expectations(expected: list[dict], pairs: list[tuple[str, str]], adjacent: bool = True) -> list[dict]:
    """Expectations after merging Items: the second of a pair is found with the first; when they were adjacent
    the first spans both, else (Items 1 and 2) the second's text stays elsewhere and its length is not scored."""
    out = [dict(e) for e in expected]
    by = {e["identifier"]: e for e in out}
    for a, b in pairs:
        ea, eb = by.get(a), by.get(b)
        if not ea or not eb:
            continue
        if not adjacent:
            eb["text_chars"] = eb["text_chars_alt"] = None
            continue
        for key in ("text_chars", "text_chars_alt"):
            if ea.get(key) and eb.get(key):
                ea[key] = ea[key] + eb[key]
            elif key == "text_chars_alt":
                ea[key] = None
        eb["text_chars"] = eb["text_chars_alt"] = None
        eb["html_chars"] = max(eb["html_chars"], ea["html_chars"]) if ea["html_chars"] > 0 else eb["html_chars"]
    return out

