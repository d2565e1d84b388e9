"""The inline-XBRL header is read the same whether libxml2 parsed the filing as XML (namespaces) or as HTML
(prefixes kept in the element names): its contexts, units and hidden facts."""

from __future__ import annotations

from lxml import etree, html

from parsers.xbrl import contexts_and_units, hidden_marks

HEADER = """<ix:header><ix:hidden>
<ix:nonNumeric name="dei:DocumentType" contextRef="c1">10-K</ix:nonNumeric>
<ix:nonFraction name="dei:EntityPublicFloat" contextRef="c1" unitRef="usd" scale="6">1,234</ix:nonFraction>
</ix:hidden><ix:resources>
<xbrli:context id="c1"><xbrli:entity><xbrli:identifier scheme="x">1</xbrli:identifier></xbrli:entity>
<xbrli:period><xbrli:startDate>2023-01-01</xbrli:startDate><xbrli:endDate>2023-12-31</xbrli:endDate></xbrli:period>
</xbrli:context>
<xbrli:unit id="usd"><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unit>
<xbrli:unit id="eps"><xbrli:divide><xbrli:unitNumerator><xbrli:measure>iso4217:USD</xbrli:measure></xbrli:unitNumerator>
<xbrli:unitDenominator><xbrli:measure>xbrli:shares</xbrli:measure></xbrli:unitDenominator></xbrli:divide></xbrli:unit>
</ix:resources></ix:header>"""
NS = ('xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
      'xmlns:xbrli="http://www.xbrl.org/2003/instance"')


def _read(header) -> tuple:
    contexts, units = contexts_and_units(header)
    marks = [(m.tag, m.attrs.get("name"), m.value) for m in hidden_marks(header)]
    return contexts, units, marks


def test_the_header_reads_alike_through_the_xml_and_the_html_parser():
    xml_root = etree.fromstring(f"<html {NS}><body><div style='display:none'>{HEADER}</div></body></html>".encode())
    html_root = html.document_fromstring(f"<html><body><div style='display:none'>{HEADER}</div></body></html>")
    as_xml = _read(xml_root.find(".//{http://www.xbrl.org/2013/inlineXBRL}header"))
    as_html = _read(next(el for el in html_root.iter() if el.tag == "ix:header"))
    assert as_xml == as_html
    contexts, units, marks = as_xml
    assert contexts["c1"]["period_start"] == "2023-01-01" and contexts["c1"]["period_end"] == "2023-12-31"
    assert units == {"usd": "iso4217:USD", "eps": "iso4217:USD/xbrli:shares"}
    assert marks == [("ix:nonnumeric", "dei:DocumentType", "10-K"), ("ix:nonfraction", "dei:EntityPublicFloat", "1,234")]
