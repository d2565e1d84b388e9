"""Damaged PDFs: truncated or garbled files publish marked `repaired` with the pages lost, or fail as `corrupt`;
markup that mentions %PDF- is `not_pdf`."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pymupdf
import pytest

from parsers.errors import DocumentError
from parsers.pipeline import PipelineSettings, index_document
from tests.pdfs import text_pdf

NO_OCR = PipelineSettings(ocr=False)


def _book(path: Path, pages: int = 20) -> Path:
    return text_pdf(path, [f"Chapter {i}\n" + "Some body text on this page. " * 40 for i in range(1, pages + 1)],
                    toc=[[1, f"Chapter {i}", i] for i in range(1, pages + 1)])


def test_a_pdf_truncated_at_half_publishes_marked_repaired_with_the_lost_pages(tmp_path: Path) -> None:
    data = _book(tmp_path / "book.pdf").read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    index = index_document(cut, "cut", NO_OCR)
    (warning,) = index.stats["warnings"]
    assert warning["kind"] == "repaired" and warning["pages"].endswith("-20")
    lost = int(warning["pages"].split("-")[0])
    assert 1 < lost < 20 and all(not p.text.strip() for p in index.pages[lost - 1:])
    assert "20" in warning["message"]


def test_garbage_in_the_middle_is_marked_too(tmp_path: Path) -> None:
    data = bytearray(_book(tmp_path / "book.pdf").read_bytes())
    n = len(data)
    data[n // 3: n // 3 + n // 5] = random.Random(7).randbytes(n // 5)
    bad = tmp_path / "garbled.pdf"
    bad.write_bytes(bytes(data))
    index = index_document(bad, "garbled", NO_OCR)
    assert [w["kind"] for w in index.stats["warnings"]] == ["repaired"] and index.stats["warnings"][0]["pages"]


def test_garbage_over_page_objects_is_marked_although_the_file_needs_no_repair(tmp_path: Path) -> None:
    # Same length, so the cross-reference table still points right: MuPDF repairs nothing, but the page
    # objects under the garbage cannot be parsed and those pages come out empty.
    doc = pymupdf.open()
    for n in range(1, 21):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 740), f"Chapter {n}\n" + "Body text. " * 150, fontsize=10)
    data = bytearray(doc.tobytes())
    n = len(data)
    data[n // 3: n // 3 + n // 5] = random.Random(7).randbytes(n // 5)
    bad = tmp_path / "garbled.pdf"
    bad.write_bytes(bytes(data))
    index = index_document(bad, "garbled", NO_OCR)
    (warning,) = index.stats["warnings"]
    assert warning["kind"] == "repaired" and warning["pages"]
    lost = [p.page_number for p in index.pages if not p.text.strip()]
    assert lost and warning["pages"] == (f"{lost[0]}-{lost[-1]}" if len(lost) > 1 else str(lost[0]))


def test_an_intact_pdf_has_no_warnings(tmp_path: Path) -> None:
    doc = pymupdf.open()
    doc.new_page()  # a blank page by design is not damage
    doc.new_page().insert_text((72, 72), "text")
    doc.save(tmp_path / "blank.pdf")
    assert index_document(tmp_path / "blank.pdf", "blank", NO_OCR).stats["warnings"] == []
    assert index_document(_book(tmp_path / "book.pdf", 3), "ok", NO_OCR).stats["warnings"] == []


def test_every_truncation_publishes_marked_or_fails_as_corrupt(tmp_path: Path) -> None:
    # Uncompressed objects: some cuts leave a page tree MuPDF can only fail on ("code=7: Invalid number of pages").
    doc = pymupdf.open(_book(tmp_path / "book.pdf", 30))
    doc.save(tmp_path / "plain.pdf", garbage=1)
    data = (tmp_path / "plain.pdf").read_bytes()
    outcomes = set()
    for percent in range(2, 100, 3):
        cut = tmp_path / f"cut{percent}.pdf"
        cut.write_bytes(data[: len(data) * percent // 100])
        try:
            index = index_document(cut, "cut", NO_OCR)
        except DocumentError as exc:
            assert exc.kind == "corrupt", (percent, str(exc))
            outcomes.add("corrupt")
        else:
            assert [w["kind"] for w in index.stats["warnings"]] == ["repaired"], percent
            outcomes.add("repaired")
    assert outcomes == {"corrupt", "repaired"}


@pytest.mark.parametrize("head", [b"<!DOCTYPE html><html><body><p>Get the %PDF-1.7 file here</p>",
                                  b"\xef\xbb\xbf\n  <?xml version='1.0'?><doc>%PDF-1.4</doc>"])
def test_markup_that_mentions_the_pdf_header_is_not_a_pdf(tmp_path: Path, head: bytes) -> None:
    page = tmp_path / "page.pdf"
    page.write_bytes(head + b"x" * 2000 + b"</body></html>")
    with pytest.raises(DocumentError) as info:
        index_document(page, "page", NO_OCR)
    assert info.value.kind == "not_pdf"


def test_junk_before_the_header_is_still_read(tmp_path: Path) -> None:
    data = _book(tmp_path / "book.pdf", 2).read_bytes()
    prefixed = tmp_path / "prefixed.pdf"
    prefixed.write_bytes(b"HTTP/1.1 200 OK\r\n\r\n" + data)
    assert index_document(prefixed, "p", NO_OCR).stats["pages"] == 2
