"""Financial facts from inline XBRL (iXBRL 1.1): the tagged values of a filing with their contexts.

Each ``ix:nonFraction`` (a number) and ``ix:nonNumeric`` (text, dates, flags) becomes one row: the concept,
the value as the reader sees it and as a number (``scale`` and ``sign`` applied, the
``ixt:``/``ixt-sec:`` number formats read), the unit, the period and the dimensions of its context, and
where it appears (node and page; hidden facts from ``ix:hidden`` have neither). Pure over the parsed header
and the fact marks the HTML reader collected.
"""

from __future__ import annotations

import bisect
import json
import re
from typing import Any

from index_store.model import FactRow
from parsers.html_doc import FactMark, element_attrs, element_tag, fact_value

_ZERO_FORMATS = ("fixed-zero", "zerodash", "fixed-empty")
_IX = "http://www.xbrl.org/2013/inlineXBRL"
# Fact elements by name, for libxml2 to find: as the specification spells them, in lower case, and as the HTML
# parser names them (prefix kept, lower case).
_FACT_SELECTORS = tuple(f"{{{_IX}}}{n}" for n in ("nonFraction", "nonNumeric", "nonfraction", "nonnumeric")) + \
    ("ix:nonfraction", "ix:nonnumeric")


def _text(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


_LOCAL: dict[Any, str] = {}


def _local(el: Any) -> str:
    """An element's lower-case local name ("context", "measure"): the header is read by local names, whatever
    prefixes the filer bound (cached by tag: no prefix look-up per element)."""
    tag = el.tag
    name = _LOCAL.get(tag)
    if name is None:
        name = tag.rsplit("}", 1)[-1].rsplit(":", 1)[-1].lower() if isinstance(tag, str) else ""
        if len(_LOCAL) < 10_000:
            _LOCAL[tag] = name
    return name


def contexts_and_units(header: Any) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Contexts {id: {period_start, period_end, instant, dimensions}} and units {id: "iso4217:USD/shares"}."""
    contexts: dict[str, dict[str, Any]] = {}
    units: dict[str, str] = {}
    if header is None:
        return contexts, units
    # libxml2 picks the contexts and units out of the header's thousands of elements; a header read by the HTML
    # parser (prefixes kept in the names) is walked element by element.
    found = list(header.iter("{*}context", "{*}unit"))
    for el in found or header.iter():
        local = _local(el)
        if local == "context":
            ctx: dict[str, Any] = {"period_start": None, "period_end": None, "instant": None, "dimensions": {}}
            for sub in el.iter():
                name = _local(sub)
                if name == "startdate":
                    ctx["period_start"] = _text(sub)
                elif name == "enddate":
                    ctx["period_end"] = _text(sub)
                elif name == "instant":
                    ctx["instant"] = _text(sub)
                elif name in ("explicitmember", "typedmember"):
                    ctx["dimensions"][element_attrs(sub).get("dimension", "")] = _text(sub)
            contexts[element_attrs(el).get("id", "")] = ctx
        elif local == "unit":
            measures = [_text(m) for m in el.iter() if _local(m) == "measure"]
            parts = [_local(d) for d in el.iter()]
            if "divide" in parts and len(measures) == 2:
                units[element_attrs(el).get("id", "")] = f"{measures[0]}/{measures[1]}"
            else:
                units[element_attrs(el).get("id", "")] = "*".join(measures)
    return contexts, units


def hidden_marks(header: Any) -> list[FactMark]:
    """Facts in ``ix:hidden`` (cover-page flags and values not shown in the text)."""
    out = []
    if header is None:
        return out
    for el in header.iter(*_FACT_SELECTORS):
        tag = element_tag(el)
        out.append(FactMark(tag, element_attrs(el), fact_value(el, tag), None))
    return out


def number(value: str, fmt: str, scale: str | None, sign: str | None) -> float | None:
    """The value of a displayed number under its iXBRL format, scale and sign; None when it is not one."""
    fmt = fmt.rsplit(":", 1)[-1].lower()
    raw = value.strip()
    if any(z in fmt for z in _ZERO_FORMATS) or raw in ("-", "\u2014", "\u2013", ""):
        n = 0.0
    else:
        if "comma-decimal" in fmt or "numcommadecimal" in fmt:
            raw = raw.replace(".", "").replace(" ", "").replace(",", ".")
        else:
            raw = raw.replace(",", "").replace(" ", "")
        m = re.search(r"\d+(?:\.\d+)?", raw)
        if not m:
            return None
        n = float(m.group(0))
    try:
        n *= 10 ** int(scale or 0)
    except ValueError:
        pass
    return -n if sign == "-" else n


def fact_rows(marks: list[FactMark], header: Any, block_pages: list[int], head_blocks: list[int],
              head_nodes: list[str], root_id: str) -> list[FactRow]:
    """One row per fact; ``head_blocks``/``head_nodes`` map a block to the node whose own text holds it."""
    contexts, units = contexts_and_units(header)
    rows: list[FactRow] = []
    for mark in hidden_marks(header) + marks:
        a = mark.attrs
        ctx = contexts.get(a.get("contextref", ""), {})
        numeric = mark.tag == "ix:nonfraction"
        node_id = page = None
        if mark.block is not None and block_pages:
            b = min(mark.block, len(block_pages) - 1)
            page = block_pages[b]
            k = bisect.bisect_right(head_blocks, b) - 1
            node_id = head_nodes[k] if k >= 0 else root_id
        rows.append(FactRow(
            concept=a.get("name", ""),
            value=mark.value,
            number=number(mark.value, a.get("format", ""), a.get("scale"), a.get("sign")) if numeric else None,
            unit=units.get(a.get("unitref", ""), a.get("unitref")) if numeric else None,
            period_start=ctx.get("period_start"), period_end=ctx.get("period_end"), instant=ctx.get("instant"),
            decimals=a.get("decimals"), context_id=a.get("contextref", ""),
            dimensions=json.dumps(dict(sorted(ctx["dimensions"].items()))) if ctx.get("dimensions") else None,
            node_id=node_id, page_number=page, fact_id=a.get("id"),
        ))
    return rows


# -- the cover page as the filer tagged it (dei) -------------------------------------------------------------

_MONTH_NAMES = ("January February March April May June July August September October November December").split()
_PERIOD_OF_FORM = {"10-K": "fiscal year", "10-Q": "quarter", "20-F": "fiscal year", "40-F": "fiscal year",
                   "10-KT": "transition period", "10-QT": "transition period", "8-K": "report date", "6-K": "report date"}
_DEI_FIELDS = {"entityregistrantname": "company", "documenttype": "form", "documentperiodenddate": "period_end",
               "documentfiscalyearfocus": "fiscal_year", "documentfiscalperiodfocus": "fiscal_period",
               "tradingsymbol": "symbols", "entitycentralindexkey": "cik"}


def _long_date(value: str) -> str:
    """"2024-03-31", "03/31/2024", "31 March 2024" or "March 31, 2024" -> "March 31, 2024" (else as given)."""
    v = " ".join(value.replace("\xa0", " ").split())
    if (m := re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", v)):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif (m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{4})", v)):
        mo, d, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
    elif (m := re.fullmatch(r"(\d{1,2})\s+([A-Za-z]+)\.?,?\s+(\d{4})", v)):
        names = [n.casefold() for n in _MONTH_NAMES]
        word = m.group(2).casefold()
        mo = next((k + 1 for k, n in enumerate(names) if n.startswith(word[:3])), 0)
        d, y = int(m.group(1)), int(m.group(3))
    else:
        return v
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return v
    return f"{_MONTH_NAMES[mo - 1]} {d}, {y}"


def dei_cover(marks: list[FactMark], header: Any) -> dict[str, Any]:
    """Registrant, form, period end, fiscal year and period, trading symbols and CIK from the inline-XBRL
    ``dei:`` facts (the cover page as the filer tagged it), in the shape of parsers.describe.cover_facts,
    with ``source: "inline_xbrl"``. {} when the document tags no form (dei:DocumentType)."""
    found: dict[str, Any] = {}
    for mark in hidden_marks(header) + marks:
        prefix, _, local = mark.attrs.get("name", "").partition(":")
        key = _DEI_FIELDS.get(local.lower()) if prefix.lower().startswith("dei") else None
        if not key:  # most facts: their values (text blocks of 4,000 characters) are not read
            continue
        value = " ".join(mark.value.replace("\xa0", " ").split())
        if not value:
            continue
        if key == "symbols":
            if value not in found.setdefault("symbols", []) and len(found["symbols"]) < 4:
                found["symbols"].append(value)
        else:
            found.setdefault(key, value)  # the first in document order: co-registrants come after the filer
    form = str(found.get("form", "")).upper()
    if not form:
        return {}
    out: dict[str, Any] = {"form": form, "source": "inline_xbrl"}
    period = _PERIOD_OF_FORM.get(form.split("/")[0])
    if "period_end" in found and period:
        out["period"] = period
        out["period_end"] = _long_date(found["period_end"])
    year = str(found.get("fiscal_year", ""))
    if re.fullmatch(r"\d{4}", year):
        out["fiscal_year"] = int(year)
    for key in ("fiscal_period", "company", "symbols", "cik"):
        if found.get(key):
            out[key] = found[key]
    return out
