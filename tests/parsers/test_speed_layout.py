"""Speed shortcuts of the layout and the contents screen that must not change what they return: the cycle collector
paused while a page's "dict" is read (and left as it was found), and listing_like's test of lines ending in a digit."""

from __future__ import annotations

import gc
from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource, extract_layout
from parsers.toc import listing_like


def _many_spans_pdf(path: Path) -> Path:
    """A page of 64 lines, each of 16 words alternating regular and bold: 1,024 spans, each a dict with two tuples."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    words = " ".join(f"word{i}" if i % 2 else f"<b>bold{i}</b>" for i in range(16))
    html = "".join(f"<p style='font-size:7pt;margin:0'>{words}</p>" for _ in range(64))
    page.insert_htmlbox(pymupdf.Rect(36, 36, 576, 756), html)
    doc.save(path)
    return path


def test_no_cycle_collection_runs_while_a_page_is_laid_out_and_the_collector_is_left_as_found(tmp_path: Path) -> None:
    path = _many_spans_pdf(tmp_path / "spans.pdf")
    runs: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        with PdfSource(path) as pdf:
            pdf.text(1)
            assert gc.isenabled()
            gc.collect()
            runs.clear()
            lay = pdf.layout(1)
            during = list(runs)
            assert gc.isenabled()  # switched back on by the call that switched it off
            gc.disable()
            try:
                with pymupdf.open(path) as doc:
                    again = extract_layout(doc[0], 1, links=False)
                assert not gc.isenabled()  # a caller that runs without the collector keeps it off
            finally:
                gc.enable()
    finally:
        gc.callbacks.remove(count)
    # Reading the page's "dict" with the collector on runs it every 700 new objects (5 times here); paused, it runs
    # once, on the first object made after it is switched back on.
    assert len(during) <= 1
    assert len(lay.lines) == 64 and lay.lines[0].text.startswith("bold0 word1 bold2")
    assert [ln.text for ln in again.lines] == [ln.text for ln in lay.lines]


def test_the_collector_is_switched_back_on_when_the_text_layer_cannot_be_read(tmp_path: Path) -> None:
    path = _many_spans_pdf(tmp_path / "spans.pdf")
    with pymupdf.open(path) as doc:
        page = doc[0]
        textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
        other = pymupdf.open(path)
        try:
            # A TextPage of another page: PyMuPDF refuses it ("not a textpage of this page"), the layout says so.
            lay = extract_layout(other[0], 1, links=False, textpage=textpage)
        finally:
            other.close()
    assert lay.lines == [] and lay.error and "unreadable" in lay.error
    assert gc.isenabled()


def test_listing_like_reads_titles_ending_in_a_page_number_and_nothing_else() -> None:
    listing = "\n".join(f"Chapter title number {n} {n * 7}" for n in range(1, 9))
    assert listing_like(listing, 100)
    # The same lines with a letter, a superscript two (a digit to str.isdigit, not to the pattern's \d) or a
    # number of five digits at the end are not titles with a page number.
    for tail in ("x", "\u00b2", "12345"):
        assert not listing_like("\n".join(f"Chapter title number {n} {n * 7}{tail}" for n in range(1, 9)), 100)
    # Titles with their numbers on the next line still count.
    names = ("one", "two", "three", "four", "five", "six", "seven", "eight")
    assert listing_like("\n".join(f"Chapter {name}\n{n * 7}" for n, name in enumerate(names, 1)), 100)
