"""A contents that lists only the numbered chapters: each chapter's numbered sections, headed "2.1 ..." in the body
in sequence, become its children, as the author's outline lists them; cross-references, another chapter's numbers
and a chapter's own listing of its sections do not."""

from __future__ import annotations

from pathlib import Path

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import BookStyle, contents_book

PROSE = ("The controller keeps the outlet pressure between the limits set in the parameters, and the pump stops "
         "when the pressure stays above the upper limit for ten seconds, which the log then records. ")


# Chapters head in 13 pt bold over 10 pt paragraphs; plain lines at the heads' size.
STYLE = BookStyle(row_font="hebo", leader_x=320, leaders=45, head_size=13, head_step=24, plain_size=13,
                  plain_step=24, prose_size=10, prose_height=120)


def _book(path: Path, rows: list[tuple[str, str]], body: list[list[str]]) -> Path:
    return contents_book(path, rows, body, STYLE)


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
