"""HTML pages (physical from page breaks with printed folios, virtual otherwise), what is text and what is not,
headings of HTML manuals, and format detection by content."""

from __future__ import annotations

from pathlib import Path

import pytest

from parsers.errors import DocumentError
from parsers.formats import sniff
from parsers.pipeline import PipelineSettings, index_document

PARA = "The controller keeps the pressure within a tenth of a bar of the target by adjusting the motor speed. "


def _index(tmp_path: Path, html: str, name: str = "doc.html", **settings) -> object:
    path = tmp_path / name
    path.write_text(html, encoding="utf-8")
    return index_document(path, "doc", PipelineSettings(**settings))


def test_page_breaks_make_physical_pages_labelled_by_their_folios(tmp_path):
    pages = []
    for n, folio in enumerate(["F-1", "F-2", "F-3"]):
        brk = "page-break-before:always" if n % 2 else "break-before:page"
        pages.append(f'<div style="{brk}"><p>Statement page {n + 1}. {PARA}</p><p>{folio}</p></div>')
    index = _index(tmp_path, "<html><body>" + "".join(pages) + "</body></html>")
    assert index.tree.page_kind == "physical" and index.stats["pages"] == 3
    assert [p.label for p in index.pages] == ["F-1", "F-2", "F-3"]
    assert index.pages[1].text.startswith("Statement page 2.")


def test_hr_page_break_with_folio_inside_a_running_footer(tmp_path):
    body = "".join(f"<p>{PARA * 3}</p><p>Acme Corp 2023 Annual Report {n}</p><hr style='page-break-after:always'/>"
                   for n in range(1, 5))
    index = _index(tmp_path, f"<html><body>{body}</body></html>")
    assert [p.label for p in index.pages] == ["1", "2", "3", "4"]


def test_stray_numbers_are_not_folios(tmp_path):
    # Only one page of four ends with a number: not a run of folios, so no labels.
    body = "".join(f"<p>{PARA}</p><p>{'7' if n == 2 else 'See the next page.'}</p><hr style='page-break-after:always'/>"
                   for n in range(4))
    index = _index(tmp_path, f"<html><body>{body}</body></html>")
    assert all(p.label is None for p in index.pages)


def test_no_breaks_gives_virtual_pages_of_about_the_set_size_at_block_boundaries(tmp_path):
    paras = [f"<p>Paragraph {i}. {PARA * 4}</p>" for i in range(40)]  # ~16,000 characters
    index = _index(tmp_path, "<html><body>" + "".join(paras) + "</body></html>", virtual_page_chars=3000)
    assert index.tree.page_kind == "virtual"
    assert 5 <= index.stats["pages"] <= 7
    assert all(len(p.text) <= 3000 for p in index.pages)
    assert all(p.text.startswith("Paragraph ") for p in index.pages)  # cut between blocks, never inside one
    assert all(p.label is None for p in index.pages)


def test_scripts_styles_navigation_hidden_and_xbrl_header_are_not_text(tmp_path):
    html = ("<html><head><title>Manual</title><style>p{color:red}</style><script>var secret='s3cr3t';</script></head>"
            "<body><nav><a href='#a'>Home</a> | <a href='#b'>Contact</a></nav>"
            "<div style='display:none'><ix:header><ix:hidden>HIDDENFACT</ix:hidden></ix:header></div>"
            "<noscript>enable javascript</noscript><template>TEMPLATE</template>"
            f"<h1 id='a'>Overview</h1><p>{PARA}</p><script>document.write('late')</script></body></html>")
    index = _index(tmp_path, html)
    text = "\n".join(p.text for p in index.pages)
    for junk in ("s3cr3t", "color:red", "Home", "HIDDENFACT", "enable javascript", "TEMPLATE", "late"):
        assert junk not in text
    assert "Overview" in text and "tenth of a bar" in text


def test_html_manual_headings_keep_their_levels_and_anchors(tmp_path):
    html = ("<html><body><h1 id='top'>Guide</h1><p>Intro.</p><h2 id='install'>Installation</h2><p>Mount it.</p>"
            "<h3>Wiring</h3><p>Connect U, V and W.</p><h2 id='ops'>Operation</h2><p>Press START.</p>"
            "<h4>Deep note</h4><p>Skipped level.</p></body></html>")
    index = _index(tmp_path, html)
    got = [(n.level, n.title, n.extra.get("anchor")) for n in index.tree.root.walk()][1:]
    assert got == [(1, "Guide", "top"), (2, "Installation", "install"), (3, "Wiring", None),
                   (2, "Operation", "ops"), (3, "Deep note", None)]
    assert index.tree.structure_source == "headings"
    rows = {r.title: r.text for r in index.nodes}
    assert rows["Wiring"] == "Wiring\nConnect U, V and W."


def test_headingless_html_gets_page_group_nodes(tmp_path):
    paras = [f"<p>{PARA * 4}</p>" for _ in range(30)]
    index = _index(tmp_path, "<html><body>" + "".join(paras) + "</body></html>", page_group_size=2)
    kinds = {n.extra.get("kind") for n in index.tree.root.nodes}
    assert kinds == {"page_group"} and index.tree.structure_source == "pages"


@pytest.mark.parametrize("head, name, expected", [
    (b"%PDF-1.7\n", "x.bin", "pdf"),
    (b"<!DOCTYPE html><html><body>x</body></html>", "x.dat", "html"),
    (b"\xef\xbb\xbf<?xml version='1.0'?><html xmlns='http://www.w3.org/1999/xhtml'>", "x", "html"),
    (b"<SEC-DOCUMENT>0001.txt<TEXT><div><p>Item 1</p></div><table><tr><td>x</td></tr></table>", "a.txt", "html"),
    (b"# Title\n\nSome text.\n", "notes", "markdown"),
    (b"Title\n=====\n\ntext\n", "README", "markdown"),
    (b"plain words without markup\n", "plain.md", "markdown"),
    (b"plain words without markup\n", "plain.txt", None),
    (b"\x00\x01\x02binary", "x.htm", None),
])
def test_format_is_read_from_the_bytes(head, name, expected):
    assert sniff(head, name) == expected


def test_unsupported_content_is_one_clear_error(tmp_path):
    path = tmp_path / "photo.htm"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(DocumentError) as err:
        index_document(path, "photo")
    assert err.value.kind == "unsupported_format" and "\n" not in str(err.value)


def test_table_rows_are_lines_of_their_outermost_table_and_text_after_a_table_is_not(tmp_path):
    from parsers.html_doc import read_html

    html = ("<html><body><p>Intro text</p>"
            "<table><tr><td>| Revenue |</td><td>10</td><td></td></tr>"
            "<tr><td><table><tr><td>nested</td><td>row</td></tr></table></td></tr></table>"
            "<p>Between <b>the</b> tables</p>"
            "<table><tr><td>Second</td><td>table</td></tr></table><p>After</p></body></html>")
    path = tmp_path / "t.html"
    path.write_text(html)
    blocks = read_html(path, 10**6).blocks
    got = [(b.text, b.in_table, b.table_id) for b in blocks]
    first = got[1][2]
    assert got == [("Intro text", False, 0), ("Revenue | 10", True, first), ("nested | row", True, first),
                   ("Between the tables", False, 0), ("Second | table", True, got[4][2]), ("After", False, 0)]
    assert got[4][2] not in (0, first)
