"""A page's fragments read by the compiled walk over MuPDF's structured text (parsers/stext_walk.pyx) are exactly
those read from PyMuPDF's "dict" (parsers.pdf._fragments of TextPage.extractDICT()): the same tuples, value for value
and type for type, on pages built in code with what changes how PyMuPDF splits a line into spans (fonts, bold,
monospace, sizes, superscripts, colours, ligatures) or which characters and lines it keeps (text running off the
page, a rotated page, text at an angle, an image, empty pages), under both of PyMuPDF's quad-correction settings.
Where the walk cannot be used (not built, built for another MuPDF, small glyph heights asked for) the dict is read,
and the layouts are the same either way."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pymupdf
import pytest

from parsers import pdf as pdfmod
from parsers.pdf import PdfSource, extract_layout
from tests.parsers.test_speed_compiled_lines import _busy_pdf
from tests.pdfs import BookStyle, contents_book


def _styled_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    # One baseline written in pieces of different fonts, sizes and colours: one MuPDF line, several spans.
    writer = pymupdf.TextWriter(page.rect)
    pos = pymupdf.Point(72, 80)
    for text, font, size in (("Section ", "helv", 11), ("3.2", "hebo", 11), (" Mixed ", "tiro", 11),
                             ("mono_call()", "cour", 11), (" and ", "helv", 8), ("big", "helv", 15),
                             (" \ufb01nal ligature", "tiro", 11)):
        _, pos = writer.append(pos, text, font=pymupdf.Font(font), fontsize=size)
    writer.write_text(page)
    writer = pymupdf.TextWriter(page.rect, color=(0.8, 0, 0))
    writer.append((72, 110), "Red words ", font=pymupdf.Font("helv"), fontsize=11)
    writer.write_text(page)
    writer = pymupdf.TextWriter(page.rect, color=(0, 0, 0.7))
    writer.append((140, 110), "then blue", font=pymupdf.Font("helv"), fontsize=11)
    writer.write_text(page)
    page.insert_text((72, 140), "x", fontsize=11)
    page.insert_text((78, 135), "2", fontsize=7)  # a superscript beside its base
    page.insert_text((84, 140), " + y", fontsize=11)
    page.insert_text((560, 170), "Runs off the right edge of the page", fontsize=11)
    page.insert_text((72, 3), "Cut by the top edge", fontsize=11)
    # A diagonal watermark across the body (parsers.pdf leaves it out) and an image.
    page.insert_text((150, 600), "DRAFT COPY", fontsize=60, morph=(pymupdf.Point(150, 600), pymupdf.Matrix(45)))
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 20, 20), False)
    pix.clear_with(128)
    page.insert_image(pymupdf.Rect(400, 300, 480, 380), pixmap=pix)
    page.insert_text((72, 700), "Below the image and the watermark", fontname="heit", fontsize=9)
    doc.new_page()  # empty
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "1 A rotated page", fontname="hebo", fontsize=16)
    page.insert_text((72, 130), "Its body text, set as on any page.", fontsize=10)
    page.set_rotation(90)
    page = doc.new_page(width=612, height=792)
    page.insert_image(page.rect, pixmap=pix)  # an image only
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    where = tmp_path_factory.mktemp("walk")
    rows = [(f"{k} Chapter number {k}", str(3 * k)) for k in range(1, 12)]
    return [_busy_pdf(where / "busy.pdf"), _styled_pdf(where / "styled.pdf"),
            contents_book(where / "book.pdf", rows, [["!1 Intro", "=plain", "Prose " * 80]] * 3,
                          BookStyle(row_font="tibo", plain_font="cour"))]


def _same(a: list[tuple], b: list[tuple]) -> bool:
    # repr tells 0.0 from -0.0 and 1 from 1.0 or True, which == does not
    return repr(a) == repr(b) and [tuple(map(type, x)) for x in a] == [tuple(map(type, x)) for x in b]


@pytest.fixture
def quad_setting():
    was = bool(pymupdf.TOOLS.unset_quad_corrections())
    yield
    pymupdf.TOOLS.unset_quad_corrections(was)


def test_the_walk_is_built_and_in_use() -> None:
    # make setup builds it against the MuPDF of the PyMuPDF installed; a checkout without it would compare the
    # dict with itself below.
    assert pdfmod.fragments_in_use() == f"stext walk (MuPDF {pymupdf.VersionFitz})"


@pytest.mark.parametrize("skip_corrections", [True, False])
def test_walked_fragments_are_the_dicts(pdfs: list[Path], skip_corrections: bool, quad_setting: None) -> None:
    pymupdf.TOOLS.unset_quad_corrections(skip_corrections)
    pages = fragments = mixed = 0
    for path in pdfs:
        with pymupdf.open(path) as doc:
            for page in doc:
                textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
                data = textpage.extractDICT()
                want = pdfmod._fragments(data)
                got = pdfmod._walked_fragments(textpage)
                assert got is not None and _same(got, want), (path.name, page.number)
                pages += 1
                fragments += len(got)
                mixed += sum(len({(s["size"], s["flags"], s["font"]) for s in ln["spans"] if s["text"].strip()}) > 1
                             for b in data["blocks"] for ln in b.get("lines", ()))
    assert pages == 11 and fragments > 120 and mixed > 30  # lines whose main span is scored
    with pymupdf.open(pdfs[1]) as doc:
        texts = [f[4] for f in pdfmod._walked_fragments(doc[0].get_textpage(flags=pymupdf.TEXTFLAGS_TEXT))]
    assert "Section 3.2 Mixed mono_call() and big \ufb01nal ligature" in texts  # one line of seven spans
    assert not any("DRAFT" in t for t in texts)  # the diagonal watermark is left out, as from the dict
    assert "Runs off th" in texts  # the characters whose boxes miss the page are left out
    assert "x2 + y" in texts  # a superscript: a span of its own


def _as_read(lines: list) -> str:
    return repr([asdict(line) for line in lines])


def test_layouts_are_the_same_with_the_walk_or_the_dict(pdfs: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def layouts() -> list[str]:
        out = []
        for path in pdfs:
            with PdfSource(path) as pdf:
                out += [_as_read(pdf.layout(n).lines) + repr(pdf.layout(n).text) for n in range(1, pdf.page_count + 1)]
        return out

    walked = layouts()
    monkeypatch.setattr(pdfmod, "_stext_walk", None)  # as when it is not built
    assert pdfmod.fragments_in_use() == "dict"
    assert layouts() == walked


def test_a_walk_built_for_another_mupdf_is_not_used() -> None:
    from parsers import stext_walk

    assert stext_walk.BUILT_WITH_MUPDF == pymupdf.VersionFitz
    assert pdfmod.walk_for(stext_walk, pymupdf.VersionFitz) is stext_walk
    assert pdfmod.walk_for(stext_walk, "1.0.0") is None
    assert pdfmod.walk_for(None, pymupdf.VersionFitz) is None


def test_small_glyph_heights_are_read_from_the_dict(pdfs: list[Path]) -> None:
    # PyMuPDF then recomputes every character's box from its font: the walk leaves that to the dict.
    was = bool(pymupdf.TOOLS.set_small_glyph_heights())
    try:
        pymupdf.TOOLS.set_small_glyph_heights(True)
        with pymupdf.open(pdfs[1]) as doc:
            page = doc[0]
            textpage = page.get_textpage(flags=pymupdf.TEXTFLAGS_TEXT)
            assert pdfmod._walked_fragments(textpage) is None
            lay = extract_layout(page, 1, links=False, textpage=textpage)
            want = pdfmod.merge_visual_lines(pdfmod._fragments(textpage.extractDICT()))
            assert _as_read(lay.lines) == _as_read(want) and lay.lines
    finally:
        pymupdf.TOOLS.set_small_glyph_heights(was)


def test_a_rotated_pages_layout_measures_the_axes_its_lines_are_set_on(pdfs: list[Path]) -> None:
    # The page is 612 x 792 before its /Rotate 90 and is shown 792 x 612; its text stays positioned on the first.
    with PdfSource(pdfs[1]) as pdf:
        page = pdf.doc[2]
        assert page.rotation == 90 and (page.rect.width, page.rect.height) == (792, 612)
        lay = pdf.layout(3)
        assert (lay.width, lay.height) == (612, 792)
        assert [ln.text for ln in lay.lines] == ["1 A rotated page", "Its body text, set as on any page."]
        assert all(0 <= ln.x0 < ln.x1 <= lay.width and 0 <= ln.y0 < ln.y1 <= lay.height for ln in lay.lines)
        assert (pdf.layout(1).width, pdf.layout(1).height) == (612, 792)
