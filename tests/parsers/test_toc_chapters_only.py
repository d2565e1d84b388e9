"""A contents that lists only the numbered chapters: each chapter's numbered sections, headed "2.1 ..." in the body
in sequence, become its children, as the author's outline lists them; cross-references, another chapter's numbers
and a chapter's own listing of its sections do not."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

W, H = 612, 792
PROSE = ("The controller keeps the outlet pressure between the limits set in the parameters, and the pump stops "
         "when the pressure stays above the upper limit for ten seconds, which the log then records. ")


def _book(path: Path, rows: list[tuple[str, str]], body: list[list[str]]) -> Path:
    """Page 1: a dotted contents of ``rows``; then one page per list of lines ("!" starts a bold head, "=" a plain
    line, anything else a paragraph), each with its printed folio 1, 2, 3 ... at the foot."""
    doc = pymupdf.open()
    toc = doc.new_page(width=W, height=H)
    toc.insert_text((72, 90), "Contents", fontname="hebo", fontsize=18)
    for i, (title, num) in enumerate(rows):
        y = 130 + 18 * i
        toc.insert_text((72, y), title, fontname="hebo", fontsize=11)
        toc.insert_text((320, y), " ." * 45, fontsize=11)
        toc.insert_text((520 - pymupdf.get_text_length(num, fontsize=11), y), num, fontsize=11)
    for k, lines in enumerate(body):
        page = doc.new_page(width=W, height=H)
        y = 90.0
        for ln in lines:
            if ln[:1] in "!=":
                page.insert_text((72, y), ln[1:], fontname="hebo" if ln[0] == "!" else "helv", fontsize=13)
                y += 24
            else:
                page.insert_textbox(pymupdf.Rect(72, y - 10, 540, y + 120), ln, fontsize=10)
                y += 130
        page.insert_text((W / 2, H - 40), str(k + 1), fontsize=9)
    doc.save(path)
    return path


ROWS = [("1 Getting Started", "1"), ("2 Daily Operation", "3"), ("3 Safety Rules", "5"), ("Index", "6")]


def test_a_chapters_only_contents_gets_the_numbered_sections_of_the_body(tmp_path: Path) -> None:
    body = [
        ["!1 Getting Started", PROSE, "!1.1 Unpacking", PROSE, "!1.2 Wiring the controller", PROSE],
        [PROSE, "!1.2.1 Mains supply", PROSE, "=2.1 GHz radio module in the second slot", PROSE],  # another chapter's number
        ["!2 Daily Operation", PROSE, "!2.1 Start-up", PROSE],
        ["=See 2.1 for the start-up.", "!2.2 Shutting down", PROSE],
        ["!3 Safety Rules", "=3.1 Protective gear", "=3.2 Lockout", PROSE, "!3.1 Protective gear", PROSE],
        ["!Index", "pump, 1, 3"],
    ]
    with PdfSource(_book(tmp_path / "c.pdf", ROWS, body)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (1, "1 Getting Started", 2), (2, "1.1 Unpacking", 2), (2, "1.2 Wiring the controller", 2),
        (3, "1.2.1 Mains supply", 3),
        (1, "2 Daily Operation", 4), (2, "2.1 Start-up", 4), (2, "2.2 Shutting down", 5),
        (1, "3 Safety Rules", 6), (2, "3.1 Protective gear", 6),
        (1, "Index", 7)]
    assert result.decisions["toc"]["body_sections"] == 6


def test_a_contents_that_lists_sections_is_taken_as_it_is(tmp_path: Path) -> None:
    rows = [("1 Getting Started", "1"), ("1.1 Unpacking", "1"), ("2 Daily Operation", "3"), ("3 Safety Rules", "5")]
    body = [
        ["!1 Getting Started", PROSE, "!1.1 Unpacking", PROSE, "!1.2 Wiring the controller", PROSE],
        [PROSE],
        ["!2 Daily Operation", PROSE, "!2.1 Start-up", PROSE],
        [PROSE],
        ["!3 Safety Rules", PROSE, "!3.1 Protective gear", PROSE],
    ]
    with PdfSource(_book(tmp_path / "s.pdf", rows, body)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert [e.title for e in result.entries] == [t for t, _ in rows]
    assert "body_sections" not in result.decisions["toc"]
