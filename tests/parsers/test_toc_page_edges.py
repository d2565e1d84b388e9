"""Lines at the top and foot of contents pages: running heads set under a deep top margin, listing rows that happen
to sit in the margin band, the wrapped tail of a run-in paragraph, and contents headings in Nordic languages.

The layouts are those heldout11's manuals showed (a running head "Surface Evolver Manual 3" ending at 11 % of the page;
massXpert's contents continuing at 7 % of the page; its run-in subsections wrapped with a line that opens with a page
number); the expected entries come from the construction, never from the code under test."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.layout import Line, PageLayout
from parsers.pdf import PdfSource
from parsers.toc import credible_entries, find_toc, is_heading, read_page_entries

W, H = 612, 792


def _row(page: pymupdf.Page, y: float, title: str, num: str, x: float = 90) -> None:
    page.insert_text((x, y), title, fontsize=10)
    page.insert_text((330, y), " ." * 34, fontsize=10)
    page.insert_text((540 - pymupdf.get_text_length(num, fontsize=10), y), num, fontsize=10)


def _contents(path: Path, edge_rows: bool) -> Path:
    """Pages 2-4 a contents: a running head "Widget Manual", its folio right-aligned in the page-number
    column, 84 pt from the top of pages 3 and 4 (its box ends below the 9 % band), 30 rows a page numbered 1.1, 1.2 ...; with ``edge_rows`` the last row of page 2 and the
    first of page 3 are both "Examples" (listed 46 and 47, body pages), and no running head is set."""
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 100), "Widget Manual", fontsize=24)
    n = 0
    for p in (2, 3, 4):
        page = doc.new_page(width=W, height=H)
        y = 110.0
        if p == 2:
            page.insert_text((72, 90), "Contents", fontname="hebo", fontsize=20)
        elif not edge_rows:
            page.insert_text((72, 84), "Widget Manual", fontsize=10)  # its folio in the page-number column
            page.insert_text((540 - pymupdf.get_text_length(str(p), fontsize=10), 84), str(p), fontsize=10)
        rows = []
        for _ in range(30):
            n += 1
            rows.append((f"{n // 10 + 1}.{n % 10 + 1} Topic {chr(65 + n % 26)}{chr(65 + n // 26)}", str(5 + n)))
        if edge_rows and p == 2:
            rows[-1] = ("Examples", "46")
        if edge_rows and p == 3:
            rows[0] = ("Examples", "47")
        for title, num in rows:
            _row(page, y, title, num)
            y += 20
    for _ in range(50):
        doc.new_page(width=W, height=H).insert_text((72, 100), "Body text.", fontsize=10)
    doc.save(path)
    return path


def test_a_running_head_below_the_margin_band_that_repeats_with_the_folio_is_no_entry(tmp_path: Path) -> None:
    with PdfSource(_contents(tmp_path / "c.pdf", edge_rows=False)) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    titles = [e.title for e in toc.entries]
    assert toc.pages == [2, 3, 4]
    assert not any("Widget Manual" in t for t in titles)
    assert len(titles) == 90


def test_listing_rows_opening_and_closing_pages_stay_entries(tmp_path: Path) -> None:
    # "Examples 46" ends page 2 and "Examples 47" opens page 3: the same words at the pages' edges, with numbers one
    # page apart, but they list body pages, far past the contents' own.
    with PdfSource(_contents(tmp_path / "c.pdf", edge_rows=True)) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    examples = [e.page.value for e in toc.entries if e.title == "Examples"]
    assert examples == [46, 47]


def _one_page_contents(path: Path) -> Path:
    """Page 3 a one-page contents of 20 rows, every page from 2 on with a running foot "9/9/2013 Widget Reference
    Page <roman folio>" at 91 % of the page's height (above the 92 % margin band)."""
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 100), "Widget Reference", fontsize=24)
    for p in range(2, 30):
        page = doc.new_page(width=W, height=H)
        folio = "i ii iii iv v vi vii".split()[p - 1] if p <= 7 else str(p - 7)
        page.insert_text((50, 722), "9/9/2013", fontsize=9)  # the date left, the title centred, the folio right
        page.insert_text((260, 722), "Widget Reference", fontsize=9)
        page.insert_text((540 - pymupdf.get_text_length(f"Page {folio}", fontsize=9), 722), f"Page {folio}", fontsize=9)
        if p == 3:
            page.insert_text((72, 90), "Table of Contents", fontname="hebo", fontsize=18)
            for i in range(20):
                _row(page, 130 + 20 * i, f"widget call{i}", str(i + 1), x=110)
        else:
            page.insert_text((72, 100), "Body text of the reference.", fontsize=10)
    doc.save(path)
    return path


def test_a_one_page_contents_running_foot_told_by_the_pages_beside_it_is_no_entry(tmp_path: Path) -> None:
    with PdfSource(_one_page_contents(tmp_path / "o.pdf")) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert toc.pages == [3]
    assert [e.title for e in toc.entries] == [f"widget call{i}" for i in range(20)]


def _line(text: str, x0: float, y0: float, size: float = 11.4, font: str = "EBGaramond") -> Line:
    return Line(text, x0, y0, 500.0, y0 + size, size, False, font)


def test_a_numbered_row_in_the_top_margin_set_like_the_rows_below_is_an_entry() -> None:
    lines = [_line("4.4 Editing Polymer Sequences 46", 114, 54)]
    lines += [_line(f"4.{i} Section number {i} {46 + 2 * i}", 114, 80 + 26 * i) for i in range(5, 12)]
    lines.append(_line("iii massXpert2 User Manual", 64, 772, size=8.7, font="Helvetica"))
    page = PageLayout(number=9, width=W, height=H, lines=lines)
    titles = [r.parsed.title for r in credible_entries(read_page_entries(page))]
    assert titles[0] == "4.4 Editing Polymer Sequences"
    assert len(titles) == 8


def test_an_unnumbered_running_head_in_the_top_margin_is_still_dropped() -> None:
    lines = [_line("Widget Manual 9", 72, 40)]
    lines += [_line(f"4.{i} Section number {i} {46 + 2 * i}", 114, 80 + 26 * i) for i in range(5, 12)]
    page = PageLayout(number=9, width=W, height=H, lines=lines)
    titles = [r.parsed.title for r in credible_entries(read_page_entries(page))]
    assert "Widget Manual" not in titles and len(titles) == 7


def test_a_run_in_paragraph_wrapped_onto_a_line_left_of_the_one_before_stays_one_paragraph() -> None:
    # The second line opens with a page number and sits 5 pt right of the paragraph's first and third lines.
    lines = [_line("3.2 The polymer chemical entities 25", 116, 100),
             _line("The monomers 26 \u2022 The modifications 28 \u2022 The cross-linkers", 145, 120, size=10.2),
             _line("29 \u2022 The cleavage specifications 31 \u2022 The fragmentation", 150, 137, size=10.2),
             _line("specifications 34", 145, 155, size=10.2),
             _line("3.3 Saving the definition 39", 116, 180)]
    page = PageLayout(number=8, width=W, height=H, lines=lines)
    titles = [r.parsed.title for r in credible_entries(read_page_entries(page))]
    assert "The fragmentation specifications" in titles
    assert "specifications" not in titles
    assert titles[-1] == "3.3 Saving the definition"


def test_nordic_contents_headings() -> None:
    for word in ("Indhold", "Indholdsfortegnelse", "Innhold", "Innehåll", "Innehållsförteckning", "Sisällys",
                 "Sisällysluettelo", "Obsah"):
        assert is_heading(word), word
    assert not is_heading("Indholdet af pakken")


def _class_index(path: Path, head: str | None) -> Path:
    """Page 2 a reference manual's class index continued from a page before: under a running head ``head`` (36 pt
    from the top, set apart from the rows), 24 rows "Widgets::ClassNN <page>" with their page numbers right-aligned,
    in page order; 60 body pages after it."""
    doc = pymupdf.open()
    doc.new_page(width=W, height=H).insert_text((72, 100), "Widgets Reference Manual", fontsize=24)
    page = doc.new_page(width=W, height=H)
    if head:
        page.insert_text((72, 44), head, fontname="hebo", fontsize=9)
    for i in range(24):
        y = 82 + 22 * i
        page.insert_text((99, y), f"Widgets::Class{chr(65 + i)}{chr(70 + i)}", fontname="hebo", fontsize=9)
        num = str(10 + 2 * i)
        page.insert_text((540 - pymupdf.get_text_length(num, fontname="hebo", fontsize=9), y), num, fontname="hebo",
                         fontsize=9)
    for _ in range(60):
        doc.new_page(width=W, height=H).insert_text((72, 100), "Body text.", fontsize=10)
    doc.save(path)
    return path


def test_a_page_under_a_class_index_running_head_is_not_the_contents(tmp_path: Path) -> None:
    with PdfSource(_class_index(tmp_path / "i.pdf", "4.1 Class Hierarchy 3")) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert toc.entries == []
    # The same rows under a running head that names no index are read as a contents: the head decides.
    with PdfSource(_class_index(tmp_path / "c.pdf", "Widgets Reference Manual 3")) as pdf:
        toc = find_toc(pdf.page_count, pdf.text, pdf.layout)
    assert len(toc.entries) == 24
