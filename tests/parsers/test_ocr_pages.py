"""OCR of scanned pages with real tesseract, through the pipeline; every PDF is built here in code.

Resolutions are kept low (100-200 dpi) where the case allows, to keep the suite fast.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from PIL import Image

from index_store.publish import publish_document
from index_store.store import Store
from index_store.tables import read_table
from parsers.pdf import PdfSource
from parsers.pipeline import PipelineSettings, index_document
from tests.parsers.test_classify_pages import garbage_layer_pdf

pytestmark = pytest.mark.integration

MEMO = ("Maintenance report for pump station seven. The shaft seal was replaced and the pressure transducer "
        "was calibrated against the reference gauge.")


def text_image(text: str, *, width: float = 612, height: float = 792, size: float = 14, dpi: int = 150,
               rotate: int = 0) -> bytes:
    """A grayscale PNG 'scan' of ``text`` set on a page of the given size; ``rotate`` turns it counter-clockwise."""
    with pymupdf.open() as src:
        page = src.new_page(width=width, height=height)
        page.insert_textbox(pymupdf.Rect(72, 72, width - 72, height - 72), text, fontsize=size, fontname="helv")
        pix = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        img = Image.frombytes("L", (pix.width, pix.height), pix.samples)
    if rotate:
        img = img.rotate(rotate, expand=True, fillcolor=255)
    from io import BytesIO

    out = BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def image_pdf(path: Path, images: list[bytes], sizes: list[tuple[float, float]] | None = None) -> Path:
    """One image-only page per PNG, each image filling its page."""
    doc = pymupdf.open()
    for i, png in enumerate(images):
        w, h = sizes[i] if sizes else (612, 792)
        page = doc.new_page(width=w, height=h)
        page.insert_image(page.rect, stream=png)
    doc.save(path)
    return path


def words(text: str) -> set[str]:
    return {w.strip(".,:;").lower() for w in text.split()}


def test_scanned_sample_page_is_read_by_ocr(samples_dir: Path) -> None:
    index = index_document(samples_dir / "scanned.pdf", "scanned")
    page = index.pages[2]
    assert page.text_source == "ocr"
    assert {"e42", "seal", "technician", "sk-220"} <= words(page.text)
    assert page.ocr_confidence is not None and page.ocr_confidence > 80
    assert [p.text_source for p in index.pages] == ["text", "text", "ocr", "text"]
    assert index.stats["ocr_pages"] == 1 and index.stats["ocr_calls"] == 1  # born-digital pages cost no OCR call
    assert index.decisions["ocr"]["classes"] == {"born_digital": "1-2,4", "needs_ocr": "3"}


def test_born_digital_documents_are_never_ocrd(samples_dir: Path) -> None:
    for name in ("manual.pdf", "filing.pdf"):
        index = index_document(samples_dir / name, name[:-4])
        assert index.stats["ocr_calls"] == 0
        assert set(index.stats["page_classes"]) == {"born_digital"}


def test_rotated_scans_are_read_upright(tmp_path: Path) -> None:
    pdf = image_pdf(tmp_path / "rotated.pdf", [text_image(MEMO * 3, rotate=90), text_image(MEMO * 3, rotate=180)],
                    sizes=[(792, 612), (612, 792)])
    index = index_document(pdf, "rotated", PipelineSettings(ocr_dpi=150), ocr_workers=2)
    for page in index.pages:
        assert page.text_source == "ocr"
        assert {"transducer", "calibrated", "reference"} <= words(page.text)
    assert index.decisions["ocr"]["ocr"]["rotated"] == {1: 90, 2: 180}


def test_blank_pages_cost_no_tesseract_call(tmp_path: Path) -> None:
    white = Image.new("L", (300, 400), 255)
    from io import BytesIO

    buf = BytesIO()
    white.save(buf, format="PNG")
    path = image_pdf(tmp_path / "blank.pdf", [buf.getvalue()])
    with pymupdf.open(path) as doc:
        doc.new_page(width=612, height=792)  # and a page with nothing at all
        doc.saveIncr()
    index = index_document(path, "blank", PipelineSettings(ocr_dpi=100))
    assert index.stats["ocr_calls"] == 0
    assert [p.text_source for p in index.pages] == ["none", "none"]
    assert index.decisions["ocr"]["classes"] == {"needs_ocr": "1", "blank": "2"}
    assert index.decisions["ocr"]["ocr"]["blank"] == "1"


def test_huge_page_is_rendered_under_the_pixel_cap(tmp_path: Path) -> None:
    side = 3000.0  # points: a 42-inch square poster, 156 Mpx at 300 dpi
    png = text_image("POSTER SESSION HALL", width=side, height=side, size=160, dpi=20)
    pdf = image_pdf(tmp_path / "huge.pdf", [png], sizes=[(side, side)])
    cap = 1_500_000
    index = index_document(pdf, "huge", PipelineSettings(ocr_max_pixels=cap))
    dpi = index.decisions["ocr"]["ocr"]["downscaled_dpi"][1]
    assert (side * dpi / 72) ** 2 <= cap
    assert {"poster", "session", "hall"} <= words(index.pages[0].text)


def corrupt_image_pdf(path: Path) -> Path:
    """An image-only page whose JPEG stream is garbage (the dictionary still says DCTDecode)."""
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_image(page.rect, stream=text_image(MEMO, dpi=50))
    xref = doc.get_page_images(0)[0][0]
    doc.update_stream(xref, b"\xff\xd8\xff\xe0 not a jpeg " * 20, compress=0)
    doc.xref_set_key(xref, "Filter", "/DCTDecode")
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "A readable born-digital page after the broken scan.", fontsize=12)
    doc.save(path)
    return path


def test_corrupt_embedded_image_is_recorded_and_the_document_indexed(tmp_path: Path) -> None:
    index = index_document(corrupt_image_pdf(tmp_path / "corrupt.pdf"), "corrupt", PipelineSettings(ocr_dpi=100))
    assert [p.text_source for p in index.pages] == ["none", "text"]
    assert "could not be decoded" in index.decisions["ocr"]["ocr"]["errors"][1]
    assert index.stats["ocr_calls"] == 0


def test_page_over_the_timeout_is_recorded_and_the_document_published(samples_dir: Path, tmp_path: Path) -> None:
    settings = PipelineSettings(ocr_timeout=0.01)
    index = index_document(samples_dir / "scanned.pdf", "scanned", settings)
    assert index.pages[2].text_source == "none"
    assert index.decisions["ocr"]["ocr"]["errors"] == {3: "ocr timeout after 0.01s"}
    store = Store(str(tmp_path / "store"))
    publish_document(store, tree=index.tree, nodes=index.nodes, pages=index.pages, source={"sha256": index.sha256},
                     pipeline={"fingerprint": settings.fingerprint()}, stats=index.stats, decisions=index.decisions)
    pages = read_table(store.read_file("scanned", index.tree.version, "pages.parquet")).to_pylist()
    assert [p["text_source"] for p in pages] == ["text", "text", "none", "text"]
    assert store.manifest("scanned")["decisions"]["ocr"]["ocr"]["errors"] == {"3": "ocr timeout after 0.01s"}


def test_garbage_text_layer_is_replaced_by_ocr(tmp_path: Path) -> None:
    index = index_document(garbage_layer_pdf(tmp_path / "garbage.pdf"), "garbage", PipelineSettings(ocr_dpi=150))
    assert index.pages[0].text_source == "ocr"
    assert {"pump", "controller", "pressure"} <= words(index.pages[0].text)


def test_language_pack_is_used(tmp_path: Path) -> None:
    text = "Größe der Überdruckventile prüfen und die Dichtungsmaße für Wärmetauscher notieren."
    with pymupdf.open() as src:
        page = src.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 400), text, fontsize=16, fontname="dejavu",
                            fontfile="/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
        png = page.get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
    index = index_document(image_pdf(tmp_path / "de.pdf", [png]), "de", PipelineSettings(ocr_lang="deu", ocr_dpi=150))
    assert {"größe", "überdruckventile", "prüfen", "wärmetauscher"} <= words(index.pages[0].text)


def test_scanned_contents_page_keeps_positions_and_right_aligned_numbers(samples_dir: Path, tmp_path: Path) -> None:
    """The TOC parser needs each title with its page number as a separate word at the right margin."""
    with pymupdf.open(samples_dir / "manual.pdf") as doc:
        toc_page = doc[3]
        truth = []  # (title, printed page number, x1 of the number) read from the born-digital text layer
        titles = []
        for block in toc_page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                text = "".join(s["text"] for s in line["spans"]).strip()
                if text.isdigit():
                    truth.append((text, line["bbox"][2], (line["bbox"][1] + line["bbox"][3]) / 2))
                elif text[:1].isdigit() or text.startswith("Appendix"):
                    titles.append(text)
        png = toc_page.get_pixmap(dpi=200, colorspace=pymupdf.csGRAY).tobytes("png")
    pdf = image_pdf(tmp_path / "toc.pdf", [png])
    with PdfSource(pdf) as src:
        from parsers.ocr_stage import run_ocr_stage

        stage = run_ocr_stage(src, dpi=200, bold=True)
        layout = src.layout(1)
    with PdfSource(samples_dir / "manual.pdf") as born:
        weights = {ln.text.split(" . ")[0].strip(): ln.bold for ln in born.layout(4).lines}
    assert stage.sources == {1: "ocr"} and layout.text_source == "ocr"
    assert len(truth) >= 15
    found = 0
    for number, x1, ymid in truth:
        line = next((ln for ln in layout.lines if ln.y0 - 2 <= ymid <= ln.y1 + 2), None)
        if line and line.words[-1].text == number and abs(line.words[-1].x1 - x1) < 6:
            found += 1
    assert found >= len(truth) - 1
    # Dot leaders are erased before the block re-read and come back as one "..." word: titles keep
    # their spaces and no leader junk sits between a title and its number.
    entries = {ln.text for ln in layout.lines}
    # Bold from stroke width agrees with the fonts of the born-digital page (chapter entries and the heading).
    read = {ln.text.split(" ... ")[0]: ln.bold for ln in layout.lines if ln.text.split(" ... ")[0] in weights}
    assert len(read) >= 15 and sum(read.values()) >= 5
    assert read == {t: weights[t] for t in read}
    assert len(titles) >= 15
    assert all(any(e.startswith(t + " ... ") for e in entries) for t in titles), sorted(entries)
    heading = next(ln for ln in layout.lines if ln.text == "Contents")
    body = [ln.size for ln in layout.lines if "Installation" in ln.text]
    assert heading.size > 1.4 * body[0]  # font-size proxy from tesseract's x-height: 20 pt vs 11 pt
    assert 16 <= heading.size <= 24
    entry_sizes = {ln.size for ln in layout.lines if ln.words[-1].text.isdigit()}
    assert len(entry_sizes) == 1  # all entries are set in 11 pt: one size, so the TOC parser sees one style
