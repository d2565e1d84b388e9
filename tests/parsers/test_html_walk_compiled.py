"""The compiled walk (parsers/html_walk.pyx) reads exactly what the Python walk reads: every block with its
style shares, tag, ids, links, table and page break, every fact mark, the ix:header and the decisions, on the
sample filing, the test suites' filings, markup written to hit each rule, and random markup."""

from __future__ import annotations

import logging
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from parsers import html_doc
from parsers.html_doc import read_html
from parsers.samples_markup import filing_10q_html
from tests.parsers.test_html_describe import _fact, _filing
from tests.parsers.test_html_filing_kinds import _report
from tests.parsers.test_html_filing_structure import TENK_ITEMS, _tenk

XHTML = "http://www.w3.org/1999/xhtml"
IX = "http://www.xbrl.org/2013/inlineXBRL"


def _fields(doc) -> tuple:
    header = None if doc.header is None else doc.header.getroottree().getpath(doc.header)
    return ([(b.text, b.tag, b.style, b.ids, b.links, b.page, b.in_table, b.break_before, b.table_id) for b in doc.blocks],
            [(f.tag, f.attrs, f.value, f.block) for f in doc.facts], header, doc.title, doc.decisions)


def _same(path: Path) -> tuple:
    slow = _fields(read_html(path, 10**7, compiled=False))
    fast = _fields(read_html(path, 10**7))
    for name, a, b in zip(("blocks", "facts", "header", "title", "decisions"), slow, fast):
        if name in ("blocks", "facts"):
            for k, (x, y) in enumerate(zip(a, b)):
                assert x == y, f"{name}[{k}]"
        assert a == b, name
    return slow


def _write(tmp_path: Path, text: str, name: str = "doc.htm") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_compiled_walk_is_built_and_in_use():
    # CI builds it (make setup); a checkout where it is missing would compare the Python walk with itself.
    assert html_doc.walk_in_use().startswith("compiled walk"), html_doc.walk_in_use()


def test_the_compiled_walk_is_used_only_with_the_lxml_it_was_built_for():
    assert html_doc.same_lxml_release("6.1.3", "6.1.3")
    assert not html_doc.same_lxml_release("6.1.3", "6.1.4")
    assert not html_doc.same_lxml_release("5.3.0", "6.1.3")


def test_the_walk_in_use_is_logged_once_at_debug_level(caplog):
    html_doc.compiled_walk.cache_clear()
    with caplog.at_level(logging.DEBUG, logger="parsers.html_doc"):
        html_doc.compiled_walk()
        html_doc.compiled_walk()
    lines = [r.getMessage() for r in caplog.records if r.name == "parsers.html_doc"]
    assert lines == [f"html reader: {html_doc.walk_in_use()}"]


def test_sample_filing_and_its_variants(tmp_path):
    for k, kwargs in enumerate(({}, {"part_lines": False}, {"toc_links": False})):
        blocks, facts, header, _, _ = _same(_write(tmp_path, filing_10q_html(**kwargs), f"f{k}.htm"))
        assert len(blocks) > 40 and len(facts) > 5 and header is not None


def test_the_test_suites_filings(tmp_path):
    docs = [_tenk(TENK_ITEMS), _tenk(TENK_ITEMS, part2_after_item5=True),
            _report("10-K", [["Business"], ["Risk Factors", "Properties"]], [("Item 1.", "Business", "1")]),
            _filing([_fact("dei:DocumentType", "10-K"), "<p>Annual report</p>"], [_fact("dei:EntityRegistrantName", "Acme")])]
    for k, text in enumerate(docs):
        assert _same(_write(tmp_path, text, f"t{k}.htm"))[0]


RULES = f"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html [<!ENTITY corp "Acme Co">]>
<html xmlns="{XHTML}" xmlns:ix="{IX}" xmlns:x="urn:other"><head><title> Annual
 Report </title><style>p {{color: red}}</style></head>
<body>
  <div style="display:none"><ix:header><ix:hidden><ix:nonNumeric name="dei:DocumentType" contextRef="c1">10-K</ix:nonNumeric></ix:hidden></ix:header></div>
  <p style="font-weight:bold;font-size:14pt;text-align:center" id="top">Item&#160;1.\u2003Business&#8203; of &corp; <a name="n1" href="#item7">see</a></p>
  <p style="text-transform:uppercase">capitals <i>and</i> <u>under</u> <em>em</em> <strong>strong</strong></p>
  <div style="page-break-before:always"><font size="5">Big</font> <font size="x">odd</font> text<br/>line</div>
  <center>Centred <span style="font-size:120%">grown</span> <span style="font-size:1.5em">em</span> <span style="font-size:16px">px</span></center>
  <pre>  keep   these
    spaces | and | pipes  </pre>
  <table id="t1"><tr><td/><td>Revenue</td><td style="width:1pt"/><td></td><td>1,234</td><td/></tr>
    <tr><td style="PAGE-BREAK-BEFORE: always"/><td>|</td><td> | </td><td>Net <ix:nonFraction name="us-gaap:NetIncome" contextRef="c1" unitRef="usd" scale="6" sign="-">5</ix:nonFraction></td></tr>
    <tr><th>Head</th><td><table><tr><td>inner</td><td>cell</td></tr></table></td></tr></table>
  <x:custom>other namespace <x:b>text</x:b></x:custom>
  <ix:nonNumeric name="us-gaap:PolicyTextBlock" contextRef="c1"><p>Policy <b>text</b></p><div>more\u00a0text</div></ix:nonNumeric>
  <div hidden="hidden">hidden attribute</div>
  <p><img src="a.png" alt="chart.png"/><img alt=" A chart of revenue "/>tail<![CDATA[ cdata & text ]]></p>
  <ul><li>one</li><li style="break-after:page">two</li></ul>
  <h2>Heading\u3000two</h2><h6>small</h6>
  <script>var x = 1;</script><noscript>no</noscript>
  <p style="font-weight:600">semi\u0085bold</p><p style="font-weight:300;font-style:oblique">light</p>
  <p style="text-decoration: underline">under\u2028lined</p><p>\u200b</p><p>   </p>
</body></html>"""


def test_markup_written_to_hit_each_rule(tmp_path):
    blocks, facts, header, title, _ = _same(_write(tmp_path, RULES))
    assert title == "Annual Report" and header is not None and len(facts) == 2
    assert any(b[0].startswith("Item 1. Business of") for b in blocks)  # the unexpanded entity is no text


def test_html_parser_documents(tmp_path):
    # Not XHTML: libxml2's HTML parser (lower-case names, no namespaces, broken markup repaired).
    html = ("<html><head><title>T</title></head><body><P ALIGN=center>Upper <B>case<TD>cell<p>unclosed"
            "<table><tr><td>a<td>b</table><font size=2>small</font><ix:nonfraction name='x'>7</ix:nonfraction>"
            "<div style='display: none'>gone</div><br>after<img alt='pic'></body></html>")
    assert _same(_write(tmp_path, html, "plain.html"))[0]


def test_markup_nested_near_libxml2s_limit(tmp_path):
    html = "<html><body>" + "<div><span>x</span>" * 1000 + "</div>" * 1000 + "</body></html>"
    assert len(_same(_write(tmp_path, html, "deep.html"))[0]) > 900


_TAGS = ["div", "p", "span", "b", "i", "u", "td", "th", "tr", "table", "br", "img", "a", "font", "center", "pre",
         "h1", "h3", "li", "hr", "script", "ix:nonNumeric", "ix:nonFraction", "sup"]
_STYLES = ["", "font-weight:bold", "font-weight:700;font-size:12pt", "font-style:italic", "text-align:center",
           "text-transform:uppercase", "display:none", "page-break-before:always", "break-after:page",
           "text-decoration:underline", "font-size:8px", "font-size:150%", "white-space:pre"]
_TEXT = st.lists(st.sampled_from(list("ab |Z\u00e9\n\t") + ["\u00a0", "\u200b", "\u2003", "\u3000", "\u0085", " | ",
                                                              "&amp;"]), max_size=8).map("".join)


@st.composite
def _markup(draw, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 4 else 0))):
        if draw(st.booleans()):
            parts.append(draw(_TEXT))
            continue
        tag = draw(st.sampled_from(_TAGS))
        attrs = ""
        style = draw(st.sampled_from(_STYLES))
        if style:
            attrs += f' style="{style}"'
        if draw(st.integers(0, 5)) == 0:
            attrs += f' id="i{depth}"'
        if tag == "a":
            attrs += draw(st.sampled_from(['', ' href="#x"', ' href="#"', ' name="n"', ' href="http://x"']))
        if tag == "img":
            attrs += draw(st.sampled_from(['', ' alt="a.png"', ' alt=" Picture "']))
        if tag == "font":
            attrs += draw(st.sampled_from(['', ' size="6"', ' size="+1"']))
        if tag.startswith("ix:"):
            attrs += ' name="us-gaap:X" contextRef="c"'
        if tag in ("br", "img", "hr") or draw(st.integers(0, 6)) == 0:
            parts.append(f"<{tag}{attrs}/>")
        else:
            parts.append(f"<{tag}{attrs}>{draw(_markup(depth + 1))}</{tag}>")
    return "".join(parts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(body=_markup(), xhtml=st.booleans())
def test_random_markup(tmp_path, body, xhtml):
    head = f"<html xmlns='{XHTML}' xmlns:ix='{IX}'>" if xhtml else "<html>"
    _same(_write(tmp_path, f"{head}<body>{body}</body></html>", "r.htm"))


def test_more_tag_names_and_styles_than_the_walks_caches_hold(tmp_path):
    # Past 2,048 names the compiled walk stops caching them by pointer and Python's tag cache stops growing.
    body = "".join(f"<t{i} style='font-size:{i % 40}px'>w{i}</t{i}><p>x</p>" for i in range(3000))
    assert len(_same(_write(tmp_path, f"<html xmlns='{XHTML}'><body>{body}</body></html>"))[0]) == 6000
