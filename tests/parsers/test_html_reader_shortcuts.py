"""The HTML reader's shortcuts read exactly what the plain walk reads: spacer cells of financial tables, and
text facts (whole notes tagged as text blocks) read only as far as the 4,000 characters kept."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from parsers.html_doc import MAX_FACT_TEXT, fact_value, read_html

XHTML = "http://www.w3.org/1999/xhtml"
IX = "http://www.xbrl.org/2013/inlineXBRL"


def _read(tmp_path: Path, body: str) -> list:
    path = tmp_path / "t.htm"
    path.write_text(f"<?xml version='1.0'?><html xmlns='{XHTML}' xmlns:ix='{IX}'><body>{body}</body></html>")
    return read_html(path, 10**6).blocks


def test_spacer_cells_add_no_separator_and_no_text(tmp_path):
    row = "<table><tr><td/>\n<td>Revenue</td>\n<td style='width:1pt'/>\n<td></td><td>10</td><td/></tr></table>"
    assert [b.text for b in _read(tmp_path, row)] == ["Revenue | 10"]


def test_text_between_an_empty_cell_and_the_next_keeps_its_separators(tmp_path):
    # Stray text between cells (not whitespace): the empty cell after "X" still separates it from "Y".
    row = "<table><tr><td>A</td>X<td/>Y<td>B</td></tr></table>"
    assert [b.text for b in _read(tmp_path, row)] == ["A | X | YB"]


def test_an_empty_cell_keeps_its_anchor_and_its_page_break(tmp_path):
    body = ("<p>Cover page text</p><table><tr><td id='item7'/><td>Item 7. Management's Discussion</td></tr>"
            "<tr><td style='PAGE-BREAK-BEFORE: always'/><td>Next page row</td></tr></table>")
    blocks = _read(tmp_path, body)
    item = next(b for b in blocks if b.text.startswith("Item 7"))
    assert "item7" in item.ids
    nxt = next(b for b in blocks if b.text == "Next page row")
    assert nxt.break_before


def _plain(el) -> str:
    return " ".join(" ".join("".join(el.itertext()).split()).split())[:MAX_FACT_TEXT]


def test_a_long_text_fact_reads_the_same_first_characters_as_its_whole_text():
    words = " ".join(f"word{i}" for i in range(6000))
    spaces = " \n\t\xa0" * 3000  # whitespace that normalising removes: the raw text runs far past the kept text
    inner = f"<ix:nonNumeric name='us-gaap:Policy'>{words[:5000]}</ix:nonNumeric>"
    xml = (f"<div xmlns='{XHTML}' xmlns:ix='{IX}'><ix:nonNumeric name='us-gaap:NoteTextBlock'>"
           f"<p>{spaces}</p>{inner}<span>{spaces}{words}</span></ix:nonNumeric></div>")
    fact = etree.fromstring(xml)[0]
    got = fact_value(fact, "ix:nonnumeric")
    assert got == _plain(fact) and len(got) == MAX_FACT_TEXT


def test_a_short_text_fact_and_a_number_are_read_whole():
    xml = (f"<div xmlns='{XHTML}' xmlns:ix='{IX}'><ix:nonNumeric name='dei:DocumentType'> 10-<b>K</b> </ix:nonNumeric>"
           f"<ix:nonFraction name='us-gaap:Revenues'> 1,234\n</ix:nonFraction></div>")
    root = etree.fromstring(xml)
    assert fact_value(root[0], "ix:nonnumeric") == "10-K"
    assert fact_value(root[1], "ix:nonfraction") == "1,234"


def test_the_title_comes_from_the_head_or_else_from_the_first_title_anywhere(tmp_path):
    path = tmp_path / "t.htm"
    path.write_text(f"<html xmlns='{XHTML}'><head><meta charset='utf-8'/><title> Annual\n Report </title></head>"
                    "<body><p>Text</p></body></html>")
    assert read_html(path, 10**6).title == "Annual Report"
    path.write_text(f"<html xmlns='{XHTML}'><body><p>Text</p><div><title>Filing 10-K</title></div>"
                    "<title>Second</title></body></html>")
    assert read_html(path, 10**6).title == "Filing 10-K"
