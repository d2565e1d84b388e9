"""A contents line's reading (parsers.toc.parse_toc_line) is kept for one document only (parsers.memo), as a line's
numbering and a title's key are: a process reading many documents keeps nothing of one into the next, and the answers
are the function's own."""

from __future__ import annotations

from parsers import memo
from parsers.toc import parse_toc_line

LINES = ["1.2 Installing the package . . . . . 17", "Preface xiv", "Appendix B Tables 210", "12 34 56", "",
         "2.7 (2022-12-03) . . . . 30", "Item 7. Management's discussion Page"]


def test_a_contents_lines_reading_is_kept_while_one_document_is_read_and_goes_with_it() -> None:
    with memo.document_scope():
        first = [parse_toc_line(t) for t in LINES]
        assert parse_toc_line(LINES[0]) is parse_toc_line(LINES[0])  # read once in the scope
        assert sorted(memo.asked(parse_toc_line)) == sorted(set(LINES))
    assert memo.answers_kept() == 0 and memo.asked(parse_toc_line) == []
    assert first == [parse_toc_line.uncached(t) for t in LINES]  # type: ignore[attr-defined]
    # Outside a document's scope nothing is kept: no answer waits in a process-wide cache for the next document.
    assert parse_toc_line(LINES[0]) is not parse_toc_line(LINES[0])
    assert parse_toc_line(LINES[0]) == first[0]
