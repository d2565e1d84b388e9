"""Sample documents that are not PDFs: a small inline-XBRL 10-Q in HTML and a Markdown manual.

Built as text in code (deterministic), like the PDF samples: the demo ingests them beside the PDFs and tests
use them. The filing carries what EDGAR filings carry: a cover page naming the form, a table of contents whose
rows link to the Item headings, CSS page breaks with printed folios, headings set in bold spans, and
inline-XBRL facts (a hidden header with contexts and units, tagged values in the text and tables).
"""

from __future__ import annotations

from html import escape
from pathlib import Path

_IX_NS = ('xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
          'xmlns:xbrli="http://www.xbrl.org/2003/instance" xmlns:xbrldi="http://xbrl.org/2006/xbrldi" '
          'xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:dei="http://xbrl.sec.gov/dei/2023" '
          'xmlns:iso4217="http://www.xbrl.org/2003/iso4217" xmlns:ixt="http://www.xbrl.org/inlineXBRL/transformation/2020-02-12"')

_HEADER = """<div style="display:none"><ix:header><ix:hidden>
<ix:nonNumeric name="dei:AmendmentFlag" contextRef="c-1" id="h-1">false</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalYearFocus" contextRef="c-1" id="h-2">2024</ix:nonNumeric>
<ix:nonNumeric name="dei:DocumentFiscalPeriodFocus" contextRef="c-1" id="h-3">Q1</ix:nonNumeric></ix:hidden>
<ix:resources>
<xbrli:context id="c-1"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-03-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:context id="c-2"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:instant>2024-03-31</xbrli:instant></xbrli:period></xbrli:context>
<xbrli:context id="c-3"><xbrli:entity><xbrli:identifier scheme="http://www.sec.gov/CIK">0000000001</xbrli:identifier>
<xbrli:segment><xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">nw:FreightMember</xbrldi:explicitMember></xbrli:segment></xbrli:entity>
<xbrli:period><xbrli:startDate>2024-01-01</xbrli:startDate><xbrli:endDate>2024-03-31</xbrli:endDate></xbrli:period></xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="usdPerShare"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator>
<xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header></div>"""

BOLD = "font-weight:700"


def _p(text: str, style: str = "", ident: str = "") -> str:
    attr = f' id="{ident}"' if ident else ""
    return f'<div{attr}><span style="font-family:Arial;font-size:10pt;{style}">{text}</span></div>\n'


def _break(folio: str) -> str:
    return (f'<div style="text-align:center"><span style="font-size:9pt">{folio}</span></div>\n'
            '<hr style="page-break-after:always"/>\n')


# (Part, Item number, title, anchor, paragraphs, sub-sections [(title, paragraphs)])
FILING_10Q = [
    ("I", "1", "Financial Statements", "item1", [], [
        ("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS", [
            'Revenues were $<ix:nonFraction name="us-gaap:Revenues" contextRef="c-1" unitRef="usd" decimals="-6" '
            'scale="6" format="ixt:num-dot-decimal" id="f-1">1,284</ix:nonFraction> million for the quarter, of which '
            'freight was $<ix:nonFraction name="us-gaap:Revenues" contextRef="c-3" unitRef="usd" decimals="-6" scale="6" '
            'format="ixt:num-dot-decimal" id="f-2">702</ix:nonFraction> million.',
            'Net loss per share was $(<ix:nonFraction name="us-gaap:EarningsPerShareBasic" contextRef="c-1" '
            'unitRef="usdPerShare" decimals="2" sign="-" format="ixt:num-dot-decimal" id="f-3">0.12</ix:nonFraction>).']),
        ("CONDENSED CONSOLIDATED BALANCE SHEETS", [
            'Cash and cash equivalents were $<ix:nonFraction name="us-gaap:CashAndCashEquivalentsAtCarryingValue" '
            'contextRef="c-2" unitRef="usd" decimals="-6" scale="6" format="ixt:num-dot-decimal" id="f-4">640'
            '</ix:nonFraction> million at March 31, 2024.']),
        ("Note 1 \u2014 Basis of Presentation", [
            "The condensed consolidated financial statements are unaudited and follow the annual report's policies."]),
    ]),
    ("I", "2", "Management's Discussion and Analysis of Financial Condition and Results of Operations", "item2", [
        "Freight volumes grew 6 percent in the quarter while contract logistics revenue was flat.",
    ], [("Liquidity and Capital Resources", ["Operating cash flow funded capital expenditures of $48 million."])]),
    ("I", "3", "Quantitative and Qualitative Disclosures About Market Risk", "item3", [
        "A 100 basis point rise in interest rates would raise quarterly interest expense by $3 million."], []),
    ("I", "4", "Controls and Procedures", "item4", [
        "Disclosure controls and procedures were effective as of March 31, 2024."], []),
    ("II", "1", "Legal Proceedings", "p2item1", ["There were no material legal proceedings in the quarter."], []),
    ("II", "1A", "Risk Factors", "p2item1a", ["There were no material changes to the risk factors in the annual report."], []),
    ("II", "6", "Exhibits", "p2item6", ["Exhibit 31.1 Certification of the Chief Executive Officer."], []),
]


def filing_10q_html(*, part_lines: bool = True, toc_links: bool = True, company: str = "Northwind Logistics, Inc.") -> str:
    """The sample 10-Q as XHTML; ``part_lines``/``toc_links`` off give the harder variants tests need."""
    out = [f"<?xml version='1.0' encoding='ASCII'?>\n<html {_IX_NS}><head><title>nwl-20240331</title>",
           "<style>.x{color:red}</style></head><body>", _HEADER]
    out.append(_p("UNITED STATES SECURITIES AND EXCHANGE COMMISSION", BOLD + ";text-align:center"))
    out.append(_p('FORM <ix:nonNumeric name="dei:DocumentType" contextRef="c-1" id="f-0">10-Q</ix:nonNumeric>', BOLD))
    out.append(_p(f'<ix:nonNumeric name="dei:EntityRegistrantName" contextRef="c-1" id="f-00">{escape(company)}'
                  '</ix:nonNumeric> \u2014 Quarterly report for the period ended <ix:nonNumeric '
                  'name="dei:DocumentPeriodEndDate" contextRef="c-1" format="ixt:date-monthname-day-year-en" '
                  'id="f-01">March 31, 2024</ix:nonNumeric>'))
    out.append(_break("i"))
    out.append(_p("TABLE OF CONTENTS", BOLD, "toc"))
    rows = []
    for n, (part, number, title, anchor, _, _) in enumerate(FILING_10Q, start=1):
        if number == "1":
            rows.append(f"<tr><td colspan='3'><span style='{BOLD}'>PART {part}</span></td></tr>")
        link = f'<a href="#{anchor}">{escape(title)}</a>' if toc_links else escape(title)
        rows.append(f"<tr><td>Item {number}.</td><td>{link}</td><td>{n}</td></tr>")
    out.append("<table>" + "".join(rows) + "</table>\n")
    out.append(_break("ii"))
    page = 1
    for part, number, title, anchor, paras, subs in FILING_10Q:
        if number == "1" and part_lines:
            name = "FINANCIAL INFORMATION" if part == "I" else "OTHER INFORMATION"
            out.append(_p(f"PART {part}. {name}", BOLD + ";text-align:center"))
        out.append(_p(f"Item {number}. {escape(title)}", BOLD, anchor))
        for text in paras:
            out.append(_p(text.replace("'", "&#8217;")))
        for sub, sub_paras in subs:
            out.append(_p(escape(sub), BOLD))
            out.extend(_p(t) for t in sub_paras)
        out.append(_break(str(page)))
        page += 1
    out.append(_p("SIGNATURES", BOLD + ";text-align:center"))
    out.append(_p("Pursuant to the requirements of the Securities Exchange Act of 1934, the registrant has duly caused "
                  "this report to be signed on its behalf."))
    out.append(_p(str(page), "text-align:center"))
    out.append("</body></html>\n")
    return "".join(out)


MANUAL_MD = """---
title: AquaFlow PC-400 Quick Start Guide
version: 3.2
---

# AquaFlow PC-400 Quick Start Guide

This guide gets a PC-400 pump controller running in under an hour.

## Installation

Mount the controller on a vertical wall with four M5 screws, at least 10 cm from any obstacle.

### Wiring

Connect the pump motor to terminals U, V and W. The maximum motor current is 9.5 A.

```
# This is not a heading: it is a comment in a configuration file
P01 = 3.0   # target pressure in bar
```

## Operation

Press START. The display shows the measured pressure and the motor frequency.

Troubleshooting
---------------

Error code E42 indicates overpressure: the measured pressure exceeded the limit set in parameter P03.
Hold STOP and SET for five seconds to clear an error.
"""


def make_filing_html(path: Path) -> None:
    path.write_text(filing_10q_html(), encoding="ascii", errors="xmlcharrefreplace")


def make_manual_md(path: Path) -> None:
    path.write_text(MANUAL_MD, encoding="utf-8")
