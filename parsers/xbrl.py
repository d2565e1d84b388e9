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
from parsers.html_doc import FactMark, _attrs, _fact_value, _tag

_ZERO_FORMATS = ("fixed-zero", "zerodash", "fixed-empty")


def _text(el: Any) -> str:
    return " ".join("".join(el.itertext()).split())


def contexts_and_units(header: Any) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Contexts {id: {period_start, period_end, instant, dimensions}} and units {id: "iso4217:USD/shares"}."""
    contexts: dict[str, dict[str, Any]] = {}
    units: dict[str, str] = {}
    if header is None:
        return contexts, units
    for el in header.iter():
        tag = _tag(el)
        local = tag.rsplit(":", 1)[-1]
        if local == "context":
            ctx: dict[str, Any] = {"period_start": None, "period_end": None, "instant": None, "dimensions": {}}
            for sub in el.iter():
                name = _tag(sub).rsplit(":", 1)[-1]
                if name == "startdate":
                    ctx["period_start"] = _text(sub)
                elif name == "enddate":
                    ctx["period_end"] = _text(sub)
                elif name == "instant":
                    ctx["instant"] = _text(sub)
                elif name in ("explicitmember", "typedmember"):
                    ctx["dimensions"][_attrs(sub).get("dimension", "")] = _text(sub)
            contexts[_attrs(el).get("id", "")] = ctx
        elif local == "unit":
            measures = [_text(m) for m in el.iter() if _tag(m).rsplit(":", 1)[-1] == "measure"]
            parts = [_tag(d).rsplit(":", 1)[-1] for d in el.iter()]
            if "divide" in parts and len(measures) == 2:
                units[_attrs(el).get("id", "")] = f"{measures[0]}/{measures[1]}"
            else:
                units[_attrs(el).get("id", "")] = "*".join(measures)
    return contexts, units


def hidden_marks(header: Any) -> list[FactMark]:
    """Facts in ``ix:hidden`` (cover-page flags and values not shown in the text)."""
    out = []
    if header is None:
        return out
    for el in header.iter():
        tag = _tag(el)
        if tag in ("ix:nonfraction", "ix:nonnumeric"):
            out.append(FactMark(tag, _attrs(el), _fact_value(el, tag), None))
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
