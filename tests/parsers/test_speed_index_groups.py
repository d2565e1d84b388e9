"""An index's letter groups are read without making the word boxes of lines that hold no letter (parsers/index_groups:
a line's words are its text's words until they are built), which must not change the groups found."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.index_groups import index_heading, letter_groups
from parsers.pdf import PdfSource
from tests.parsers.test_headings_recall import _index_manual


def _groups(path: Path, built_first: bool) -> tuple[list[tuple], list]:
    with PdfSource(path) as pdf:
        layouts = [pdf.layout(n) for n in range(1, pdf.page_count + 1)]
        if built_first:  # every line's words made before: the path that reads each line's words
            for lay in layouts:
                for ln in lay.lines:
                    assert ln.words_follow_text() and ln.words is not None and not ln.words_follow_text()
        heads = outline_headings(detect_headings(layouts))
        at = index_heading(heads)
        assert at is not None and heads[at].title == "Index"
        groups = letter_groups(layouts, heads[at])
        unbuilt = [ln.text for lay in layouts[3:] for ln in lay.lines if ln.words_follow_text()]
    return [(h.page, h.title, h.size, h.y0, h.level) for h in groups], unbuilt


def test_letter_groups_are_the_same_whether_or_not_every_line_s_words_were_made(tmp_path: Path) -> None:
    grouped = _index_manual(tmp_path / "grouped.pdf", groups=True)
    lazy, unbuilt = _groups(grouped, built_first=False)
    assert lazy == _groups(grouped, built_first=True)[0]
    assert [t for _, t, *_ in lazy] == ["Symbols", *"ABCDEFGHIK"]
    assert not any(line.split()[-1] in "ABCDEFGHIK" for line in unbuilt)
    plain = _index_manual(tmp_path / "plain.pdf", groups=False)
    lazy, unbuilt = _groups(plain, built_first=False)
    assert lazy == _groups(plain, built_first=True)[0] == []
    # An index without letters: none of its entry lines had its word boxes made.
    assert any("\\fbox" in t for t in unbuilt) and any("\\amp" in t for t in unbuilt)


def test_a_laid_out_line_s_words_are_its_text_split_at_spaces(tmp_path: Path) -> None:
    """What reading the text first rests on, for the layout's own lines: runs of spaces, tabs, no-break spaces,
    fragments of two columns on one baseline, single letters standing alone."""
    path = tmp_path / "spaces.pdf"
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    rows = ["A   \\addtolength    3", "Symbols\t\\@ifstar", "B\u00a0\u00a0\\bf  . . . 12", "  Z  ", "x y  z"]
    for k, row in enumerate(rows):
        page.insert_text((72, 100 + 14 * k), row, fontsize=10, fontname="helv")
        page.insert_text((330, 100 + 14 * k), f"C {k} \\kern", fontsize=10, fontname="cour")
    doc.save(path)
    with PdfSource(path) as pdf:
        lines = pdf.layout(1).lines
        assert len(lines) == len(rows)
        for ln in lines:
            assert ln.words_follow_text()
            texts = ln.text.split()
            assert [w.text for w in ln.words] == texts and not ln.words_follow_text()
