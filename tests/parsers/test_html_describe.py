"""Titles, kind and catalog description of HTML filings: the inline-XBRL dei facts (the cover as the filer
tagged it) first, the cover page's text where they are missing. Filings are built as small HTML strings here."""

from __future__ import annotations

from pathlib import Path

from parsers.html_doc import FactMark
from parsers.pipeline import index_document
from parsers.samples_markup import filing_10q_html
from parsers.xbrl import dei_cover

_NS = ('xmlns="http://www.w3.org/1999/xhtml" xmlns:ix="http://www.xbrl.org/2013/inlineXBRL" '
       'xmlns:dei="http://xbrl.sec.gov/dei/2023"')
BODY = "This paragraph explains the matter in enough words to be ordinary body text of the filing."


def _fact(name: str, value: str, **attrs: str) -> str:
    extra = "".join(f' {k}="{v}"' for k, v in attrs.items())
    return f'<ix:nonNumeric name="{name}" contextRef="c-1"{extra}>{value}</ix:nonNumeric>'


def _filing(cover: list[str], hidden: list[str] = ()) -> str:
    header = f'<div style="display:none"><ix:header><ix:hidden>{"".join(hidden)}</ix:hidden></ix:header></div>'
    items = "".join(f'<div><b>Item {n}. {t}</b></div><div>{BODY}</div>' for n, t in
                    (("1", "Business"), ("1A", "Risk Factors"), ("2", "Properties"), ("7", "Management's Discussion")))
    return (f"<?xml version='1.0' encoding='utf-8'?>\n<html {_NS}><head><title>acme-20231231</title></head><body>"
            + header + "".join(f"<div>{c}</div>" for c in cover) + '<hr style="page-break-after:always"/>'
            + items + "</body></html>")


def _index(tmp_path: Path, html: str):
    path = tmp_path / "acme-20231231.htm"
    path.write_text(html, encoding="utf-8")
    return index_document(path, "acme")


def test_the_sample_10q_is_titled_from_its_dei_facts(tmp_path: Path):
    index = _index(tmp_path, filing_10q_html())
    extra = index.tree.extra
    assert index.tree.root.title == extra["title"] == \
        "Northwind Logistics, Inc. Form 10-Q for the quarter ended March 31, 2024"
    assert extra["doc_kind"] == "filing"
    assert extra["facts"]["company"] == "Northwind Logistics, Inc." and extra["facts"]["source"] == "inline_xbrl"
    assert "Company: Northwind Logistics, Inc." in extra["description"] and "Q1 2024" in extra["description"]


def test_tagged_cover_wins_over_the_title_element_and_reads_iso_dates(tmp_path: Path):
    cover = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM " + _fact("dei:DocumentType", "10-K"),
             "For the fiscal year ended " + _fact("dei:DocumentPeriodEndDate", "December 31, 2023"),
             _fact("dei:EntityRegistrantName", "ACME WIDGETS CORP"),
             "Trading Symbol(s) " + _fact("dei:TradingSymbol", "ACMW")]
    # A co-registrant's name comes after the filer's (another context); the filer's is the title.
    hidden = [_fact("dei:DocumentFiscalYearFocus", "2023"), _fact("dei:DocumentFiscalPeriodFocus", "FY")]
    index = _index(tmp_path, _filing(cover + [_fact("dei:EntityRegistrantName", "Acme Finance LLC")], hidden))
    assert index.tree.root.title == "ACME WIDGETS CORP Form 10-K for the fiscal year ended December 31, 2023"
    facts = index.tree.extra["facts"]
    assert facts["symbols"] == ["ACMW"] and facts["fiscal_year"] == 2023 and facts["fiscal_period"] == "FY"


def test_untagged_registrant_comes_from_the_cover_text(tmp_path: Path):
    cover = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM " + _fact("dei:DocumentType", "10-Q"),
             "For the quarterly period ended June 30, 2023", "Globex Holdings, Inc.",
             "(Exact name of registrant as specified in its charter)"]
    index = _index(tmp_path, _filing(cover))
    assert index.tree.root.title == "Globex Holdings, Inc. Form 10-Q for the quarter ended June 30, 2023"


def test_dei_cover_dates_and_documents_without_a_form():
    def mark(name: str, value: str) -> FactMark:
        return FactMark("ix:nonnumeric", {"name": name}, value, 0)

    got = dei_cover([mark("dei:DocumentType", "10-Q"), mark("dei:DocumentPeriodEndDate", "2024-06-29"),
                     mark("dei:EntityRegistrantName", "Initech\xa0Inc.")], None)
    assert got == {"form": "10-Q", "source": "inline_xbrl", "period": "quarter", "period_end": "June 29, 2024",
                   "company": "Initech Inc."}
    assert dei_cover([mark("dei:DocumentPeriodEndDate", "06/29/2024")], None) == {}  # no form tagged: not a cover
    assert dei_cover([mark("dei:DocumentType", "8-K"), mark("dei:DocumentPeriodEndDate", "5 March 2024")],
                     None)["period_end"] == "March 5, 2024"


def test_a_summaries_only_rebuild_keeps_the_tagged_title_and_description(tmp_path: Path):
    from parsers.pipeline import PipelineSettings, resummarize

    index = _index(tmp_path, filing_10q_html())
    again = resummarize(index.tree, index.nodes, index.pages, PipelineSettings(), sha256=index.sha256,
                        size=index.size, stats=index.stats, decisions=index.decisions)
    assert again.tree.extra["description"] == index.tree.extra["description"]
    assert "Company: Northwind Logistics, Inc." in again.tree.extra["description"]
