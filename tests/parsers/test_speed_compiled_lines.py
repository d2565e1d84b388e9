"""The compiled visual lines (parsers/layout_lines.pyx) give exactly what the Python functions of parsers/pdf.py give:
the same fragments, lines and word boxes, value for value and float for float, on PyMuPDF's own "dict" of pages built
in code (fonts of every kind, sizes, rotated text, white space, ligatures, two columns on one baseline, leaders,
superscripts), and the Python path on anything the compiled one is not written for."""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path

import pymupdf
import pytest

from parsers import pdf as pdfmod
from parsers.pdf import PdfSource, extract_layout
from tests.pdfs import BookStyle, chapter_pages, contents_book


def _busy_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    y = 60.0
    for font in ("helv", "hebo", "heit", "tiro", "tibo", "cour", "cobo", "symb", "zadb"):
        for size in (7, 9.5, 14):
            page.insert_text((72, y), f"{font} {size} The quick brown fox 1.2.3", fontname=font, fontsize=size)
            y += size * 1.5
    # White space of every kind MuPDF keeps: runs of spaces (spans of their own), tabs, no-break spaces, a line of
    # spaces only; ligature characters and accents; leaders and a page number on the contents' right edge.
    page.insert_text((72, y), "spaced     out\twords\u00a0and\u2003em", fontsize=10)
    page.insert_text((72, y + 14), "     ", fontsize=10)
    page.insert_text((72, y + 28), "e\ufb01cient \ufb02ow, \ufb00ort, caf\u00e9 na\u00efve", fontsize=10)
    page.insert_text((72, y + 42), "2.4 Leaders . . . . . . . . . . . . . . . . 17", fontsize=10)
    page.insert_text((500, y + 42), "17", fontname="hebo", fontsize=10)
    # Two columns sharing a baseline, and fragments on nearly the same baseline (they merge) or not quite.
    page.insert_text((72, y + 70), "Left column", fontsize=10)
    page.insert_text((330, y + 70), "Right column", fontname="hebo", fontsize=10)
    page.insert_text((200, y + 72), "low", fontsize=10)
    page.insert_text((72, y + 84), "x", fontsize=10)
    page.insert_text((72, y + 84), "y", fontsize=10)  # the same place twice: a tie in the sort
    # Rotated text (its own lines, boxes tall and narrow) and a line in several sizes and weights.
    for angle, x in ((90, 560), (270, 40), (180, 300)):
        page.insert_text((x, 700), f"Rotated {angle} text", fontsize=9, rotate=angle)
    page.insert_htmlbox(pymupdf.Rect(72, y + 100, 540, y + 140),
                        "<p style='font-size:10pt'>E = mc<sup>2</sup> and <b>Bold</b> <i>italic</i> "
                        "<code>mono_word</code> <span style='font-size:16pt'>Big</span> \u00bd</p>")
    page.insert_htmlbox(pymupdf.Rect(72, y + 150, 540, y + 260),
                        "<h1>1 Heading</h1><p>office affine ﬁne <b>ﬂoor</b> text flowing on to a second line of "
                        "the box, and a third one perhaps.</p>")
    # Set as TeX sets text: each word placed on its own, so MuPDF adds the spaces between them (flagged as its own,
    # a span each): lines of many spans, some words bold or larger, a line of leader dots and its page number.
    page = doc.new_page(width=612, height=792)
    for row in range(30):
        x = 72.0
        for k in range(9):
            word, font = (f"w{row}x{k}", "helv") if (row + k) % 7 else ("Strong", "hebo")
            size = 10 if row % 5 else 12
            page.insert_text((x, 80 + 20 * row), word, fontname=font, fontsize=size)
            x += pymupdf.get_text_length(word, fontname=font, fontsize=size) + 3.5
    for k in range(30):
        page.insert_text((300 + 6 * k, 720), ".", fontsize=10)
    page.insert_text((490, 720), "123", fontsize=10)
    doc.new_page(width=612, height=792)  # empty: no blocks
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _busy_pdf(tmp_path_factory.mktemp("busy") / "busy.pdf")


def _pages(tmp_path: Path, busy: Path) -> list[pymupdf.Page]:
    rows = [(f"{k} Chapter number {k}", str(3 * k)) for k in range(1, 12)]
    files = [busy,
             contents_book(tmp_path / "book.pdf", rows, [["!1 Intro", "=plain", "Prose " * 80]] * 3,
                           BookStyle(row_font="tibo", plain_font="cour"))]
    doc = pymupdf.open()
    chapter_pages(doc, [["1 Introduction", "", "1.1 Scope"], ["2 Use"]])
    doc.save(tmp_path / "chapters.pdf")
    files.append(tmp_path / "chapters.pdf")
    return [page for f in files for page in pymupdf.open(f)]


def _as_read(lines: list) -> str:
    # repr tells 0.0 from -0.0 and 1 from 1.0, which == does not; asdict reads the word boxes too.
    return repr([asdict(line) for line in lines])


def test_the_compiled_lines_are_built_and_in_use() -> None:
    # CI builds them (make setup); a checkout where they are missing would compare the Python code with itself.
    assert pdfmod.lines_in_use() == "compiled"


def test_compiled_fragments_lines_and_words_equal_the_python_ones_on_real_dicts(tmp_path: Path, busy: Path) -> None:
    pages = _pages(tmp_path, busy)
    assert len(pages) > 8
    spans = mixed = 0
    for page in pages:
        data = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT).extractDICT()
        spans += sum(len(ln["spans"]) for b in data["blocks"] for ln in b.get("lines", ()))
        mixed += sum(len({(s["size"], s["font"]) for s in ln["spans"]}) > 1 for b in data["blocks"]
                     for ln in b.get("lines", ()))
        want, got = pdfmod._page_fragments(data, compiled=False), pdfmod._page_fragments(data)
        assert repr(got) == repr(want)
        assert _as_read(pdfmod._visual_lines(got)) == _as_read(pdfmod._visual_lines(want, compiled=False))
    assert spans > 600 and mixed > 10  # lines whose main span is scored
    busy = extract_layout(pages[0], 1, links=False)
    texts = [ln.text for ln in busy.lines]
    assert "Left column low Right column" in texts and sum(t.count("Rotated") for t in texts) == 3
    assert any("\ufb03ce" in t for t in texts)  # the ligature character kept as MuPDF gives it
    assert any(t.startswith("spaced     out\twords") for t in texts)


def test_whole_layouts_are_the_same_either_way(busy: Path) -> None:
    with PdfSource(busy) as pdf:
        compiled = [_as_read(pdf.layout(n).lines) for n in (1, 2)]
    with pymupdf.open(busy) as doc:
        for page, got in zip(doc, compiled):
            data = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT).extractDICT()
            assert got == _as_read(pdfmod.merge_visual_lines(pdfmod._fragments(data)))


def test_fragments_the_compiled_merge_is_not_written_for_go_the_python_way() -> None:
    from parsers import layout_lines

    plain = [(72.0, 100.0, 200.0, 110.0, "Title", 12.0, True, "Helvetica-Bold", False),
             (300.0, 101.0, 320.0, 111.0, "7", 10.0, False, "Helvetica", False),
             (72.0, 130.0, 200.0, 140.0, "Body", 10.0, False, "Helvetica", False)]
    assert layout_lines.merge_visual_lines(plain) is not None
    odd = [
        [(72, 100, 200, 110, "Integer boxes", 12.0, True, "F", False)],  # OCR-like ints: returned as given
        [(72.0, math.nan, 200.0, 110.0, "NaN", 12.0, True, "F", False)],
        [(72.0, 100.0, 200.0, 110.0, "Eight items", 12.0, True, "F")],  # no mono flag: accepted
        [[72.0, 100.0, 200.0, 110.0, "a list", 12.0, True, "F", False]],
        (tuple(plain[0]),),
    ]
    assert [layout_lines.merge_visual_lines(raw) is None for raw in odd] == [True, True, False, True, True]
    for raw in odd:
        assert _as_read(pdfmod._visual_lines(raw)) == _as_read(pdfmod.merge_visual_lines(raw))
    assert pdfmod._visual_lines(odd[0])[0].x0 == 72 and isinstance(pdfmod._visual_lines(odd[0])[0].x0, int)


def test_compiled_lines_leave_the_cycle_collector_one_object_per_line(busy: Path) -> None:
    # Every page's lines stay alive while a document is read, and every collection walks each tracked object: the
    # compiled lines' word builders hold only atomic data and are not tracked (the Python path's partial, group list
    # and instance dict are: five objects a line).
    import gc

    with pymupdf.open(busy) as doc:
        data = doc[1].get_textpage(flags=pymupdf.TEXTFLAGS_TEXT).extractDICT()
    added = {}
    for compiled in (False, True):
        raw = pdfmod._page_fragments(data, compiled)
        gc.collect()
        before = len(gc.get_objects())
        lines = pdfmod._visual_lines(raw, compiled)
        del raw
        gc.collect()
        added[compiled] = (len(gc.get_objects()) - before) / len(lines)
        assert len(lines) > 20 and lines[3].words  # the words are still built when read
    assert added[True] <= 1.0 < added[False]


def test_compiled_word_boxes_are_the_words_the_dataclass_makes() -> None:
    from parsers import layout_lines
    from parsers.layout import Word

    frags = ((72.0, 100.0, 172.0, 110.0, "ab  cde\tf", 10.0, True, "F", False),
             (180.0, 100.5, 200.0, 110.5, "g", 10.0, False, "F", False), (200.0, 100.0, 210.0, 110.0, " ", 9.0, None, "F", False))
    got, want = layout_lines.fragment_words(frags), pdfmod._fragment_words(list(frags))
    assert repr(got) == repr(want) and [hash(w) for w in got] == [hash(w) for w in want]
    assert [list(vars(w).items()) for w in got] == [list(vars(w).items()) for w in want]
    assert [w.text for w in got] == ["ab", "cde", "f", "g"] and got[0] == Word("ab", 72.0, 100.0, 97.0, 110.0, True)
