"""A chapters-only contents: the body's numbered sections that are titles, not a table's cell over a sentence, and
titles ending in a number that is no page of the chapter ("New in Version 4.0 beta 1") or opening with a version
("5.0.0 / 5.0.1 - All systems")."""

from __future__ import annotations

from pathlib import Path

from parsers.pdf import PdfSource
from parsers.structure import recover_structure
from tests.pdfs import BookStyle, contents_book

PROSE = ("The controller keeps the outlet pressure between the limits set in the parameters, and the pump stops "
         "when the pressure stays above the upper limit for ten seconds, which the log then records. ")
STYLE = BookStyle(row_font="hebo", leader_x=320, leaders=45, head_size=13, head_step=24, plain_size=10,
                  plain_step=16, prose_size=10, prose_height=90)


def test_body_sections_are_titles_not_cells_and_may_end_or_open_with_numbers(tmp_path: Path) -> None:
    rows = [("1 Models", "1"), ("2 Release Notes", "3"), ("3 Known Issues", "5"), ("Index", "6")]
    body = [
        ["!1 Models", PROSE, "!1.1 Cylinder", PROSE],
        # A parameter table's last cell, "1.2", then the sentence under the table; the real 1.2 follows.
        ["=width of the well", "=1.2", "=The returned value is a dimensionless structure factor.", PROSE,
         "!1.2 Menu Bar", PROSE],
        ["!2 Release Notes", "!2.1 New in Version 5.0", PROSE, "!2.2 New in Version 4.0 beta 1", PROSE],
        ["!2.3 New in Version 3.1.2", PROSE],
        ["!3 Known Issues", "!3.1 All systems", PROSE, "!3.2 5.0.0 / 5.0.1 - All systems", PROSE],
        ["!Index", "pump, 1, 3"],
    ]
    with PdfSource(contents_book(tmp_path / "c.pdf", rows, body, STYLE)) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "toc"
    assert [(e.level, e.title, e.page) for e in result.entries] == [
        (1, "1 Models", 2), (2, "1.1 Cylinder", 2), (2, "1.2 Menu Bar", 3),
        (1, "2 Release Notes", 4), (2, "2.1 New in Version 5.0", 4), (2, "2.2 New in Version 4.0 beta 1", 4),
        (2, "2.3 New in Version 3.1.2", 5),
        (1, "3 Known Issues", 6), (2, "3.1 All systems", 6), (2, "3.2 5.0.0 / 5.0.1 - All systems", 6),
        (1, "Index", 7)]
