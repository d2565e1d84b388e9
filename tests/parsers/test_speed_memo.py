"""Work the headings fallback no longer repeats, which must not change what it finds: answers of pure text functions
kept for one document (parsers/memo.py: a line's numbering, a title's key, a page's characters by font size), and
running text turned away before its numbering is parsed (headings._is_candidate)."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers import memo
from parsers.headings import _page_sizes, body_size, detect_headings, outline_headings
from parsers.numbering import parse_numbering
from parsers.offsets import title_key
from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "This line is running text of the document and it goes on"


def _book(path: Path, chapters: int = 6, pages_each: int = 3, deep: bool = False) -> Path:
    """Chapters of several pages: a numbered 16-pt bold head, a body-size bold head, a numbered head in capitals at
    body size ("2. METHODS", no weight), a line of prose opening with a number, a code line, and prose in 10 pt."""
    doc = pymupdf.open()
    for c in range(1, chapters + 1):
        for p in range(pages_each):
            page = doc.new_page(width=612, height=792)
            y = 90.0
            if p == 0:
                page.insert_text((72, y), f"{c} Chapter about topic {chr(64 + c)}", fontsize=16, fontname="hebo")
                y += 40
            for k in range(30):
                if k == 6:
                    y += 14
                    page.insert_text((72, y), f"Bold head {chr(64 + c)}{chr(97 + p)}", fontsize=10, fontname="hebo")
                elif k == 14 and deep:  # a head numbered deeper than 1.2.3: not in the outline, found in a leaf
                    y += 14
                    page.insert_text((72, y), f"{c}.1.1.{p + 1} Deep topic {chr(65 + p)}", fontsize=12, fontname="hebo")
                    y += 6
                elif k == 14:
                    y += 14
                    page.insert_text((72, y), f"{c}.{p + 1}. METHODS OF PART {chr(65 + p)}", fontsize=10)
                elif k == 20:
                    page.insert_text((72, y), f"{c + 10} apples were counted on this page of prose", fontsize=10)
                elif k == 24:
                    page.insert_text((90, y), f"x = f({c}, {p})", fontsize=9, fontname="cour")
                else:
                    page.insert_text((72, y), f"{PROSE} {c} {p} {k}", fontsize=10)
                y += 14
    doc.save(path)
    return path


def _layouts(pdf: PdfSource) -> list:
    for n in range(1, pdf.page_count + 1):
        pdf.text(n)
    return [pdf.layout(n) for n in range(1, pdf.page_count + 1)]


def _heads(found: list) -> list[tuple]:
    return [(h.page, h.title, h.size, h.bold, h.level, h.numbering, h.run_in, h.after) for h in found]


def test_running_text_is_turned_away_before_its_numbering_is_parsed_and_the_heads_stay(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "book.pdf")) as pdf:
        layouts = _layouts(pdf)
        with memo.document_scope():
            found = detect_headings(layouts)
            parsed = set(memo.asked(parse_numbering))
        with memo.uncached():
            again = detect_headings(layouts)
    assert _heads(found) == _heads(again)
    titles = [h.title for h in found]
    assert "1 Chapter about topic A" in titles and "Bold head Aa" in titles and "1.1. METHODS OF PART A" in titles
    assert not any(t.startswith(PROSE) or t.startswith("x =") for t in titles)
    # Lines neither larger than the body nor bold nor opening with a digit: never parsed for a number.
    assert parsed and not any(t.startswith(PROSE) for t in parsed)
    assert "11 apples were counted on this page of prose" in parsed  # a number: parsed, and no head
    assert "11 apples were counted on this page of prose" not in titles


def test_only_text_opening_with_a_decimal_digit_has_decimal_numbering() -> None:
    """What turning running text away early rests on: a head at body size and without weight is taken only with
    decimal numbering (_capitals_head), which no text gets unless its first character is a decimal digit, in any
    script (str.isdecimal: Unicode's Nd, as the patterns' \\d)."""
    texts = ["1. INTRODUCTION", "2.3 METHODS", "\u0663. RESULTS", "\uff13. TABLES", "\u00b2. SQUARED", "(1) INTRO",
             "A.1 ANNEX", "IV. PARTS", "Chapter 3 Intro", "Section 2 Scope", "Note 7 Taxes", "12 Monkeys", "\u2460 ONE",
             " 4 LEADING SPACE", "\u20075 FIGURE SPACE"]
    for text in texts:
        numbering = parse_numbering(text)
        if numbering is not None and numbering.kind == "decimal":
            assert text.strip()[:1].isdecimal(), text
        if not text.strip()[:1].isdecimal():
            assert numbering is None or numbering.kind != "decimal", text


def test_run_in_heads_are_looked_for_only_in_lines_opening_with_a_digit() -> None:
    """The headings detector asks for a run-in head only where the line opens with a decimal digit, as both patterns
    require: a pattern that let another opening through would need that test changed with it."""
    from parsers.headings import _NUMBERED_START, _RUN_IN

    for pattern in (_RUN_IN, _NUMBERED_START):
        assert pattern.pattern.startswith((r"^(\d", r"^\d")), pattern.pattern
        assert pattern.match("4.1 Degrees. To disable the") and not pattern.match("A.1 Degrees. To disable the")
        assert pattern.match("\u0664.1 Degrees. To disable it")  # \d is any decimal digit, as str.isdecimal


def test_a_document_is_read_in_one_scope_of_answers_that_ends_with_it(tmp_path: Path) -> None:
    path = tmp_path / "plain.pdf"
    doc = pymupdf.open()
    for n in range(3):
        page = doc.new_page(width=612, height=792)
        for k in range(20):
            page.insert_text((72, 90 + 14 * k), f"{k + 1} {PROSE} on page {chr(97 + n)}", fontsize=10)
    doc.save(path)
    seen: list[int] = []

    def hook(_pdf: PdfSource) -> tuple[list, dict]:  # the chain's model seam: asked when nothing else gave a tree
        seen.append(memo.answers_kept())
        return [], {"reason": "no model"}

    with PdfSource(path) as pdf:
        result = recover_structure(pdf, llm_hook=hook)
    assert result.source == "pages" and len(seen) == 1
    assert seen[0] > 0  # the numbered lines' answers, kept while the document was read
    assert memo.answers_kept() == 0  # and gone with it: nothing carried over to the next document
    with PdfSource(path) as pdf, memo.uncached():
        seen.clear()
        recover_structure(pdf, llm_hook=hook)
    assert seen == [0]


def test_the_same_tree_with_and_without_kept_answers_when_long_leaves_are_split(tmp_path: Path) -> None:
    """Leaf splitting asks the headings detector and the body size again over each long leaf's pages."""
    path = _book(tmp_path / "book.pdf", chapters=4, pages_each=5, deep=True)
    with PdfSource(path) as pdf:
        kept = recover_structure(pdf, max_leaf_pages=2)
    with PdfSource(path) as pdf, memo.uncached():
        fresh = recover_structure(pdf, max_leaf_pages=2)
    assert kept.source == fresh.source == "headings"
    assert kept.decisions["split"]["by_headings"] > 0
    assert kept.entries == fresh.entries


def test_a_pages_sizes_are_counted_once_and_every_range_gets_the_same_body(tmp_path: Path) -> None:
    with PdfSource(_book(tmp_path / "book.pdf")) as pdf:
        layouts = _layouts(pdf)
        ranges = [layouts, layouts[2:9], layouts[::4], layouts[5:6], layouts]
        with memo.uncached():
            fresh = [body_size(r) for r in ranges]
        with memo.document_scope():
            kept = [body_size(r) for r in ranges]
            counted = memo.asked(_page_sizes)
            assert _page_sizes(layouts[3]) is _page_sizes(layouts[3])
    assert kept == fresh == [10.0] * 5
    assert len(counted) == len(layouts) and {id(x) for x in counted} == {id(x) for x in layouts}


def test_kept_answers_are_the_functions_answers_and_end_with_their_scope() -> None:
    titles = ["2.3 Installing the Package", "Part II", "Index", "4.1. Degrees", "Appendix B Tables", "", "  7  "]
    with memo.document_scope():
        first = [(parse_numbering(t), title_key(t)) for t in titles]
        assert [parse_numbering(t) for t in titles] == [n for n, _ in first]
        assert parse_numbering(titles[0]) is parse_numbering(titles[0])  # asked once
        assert sorted(memo.asked(title_key)) == sorted(set(titles))
        with memo.document_scope():  # a scope inside one: the outer one's answers
            assert memo.answers_kept() > 0
    assert memo.answers_kept() == 0 and memo.asked(parse_numbering) == []
    assert first == [(parse_numbering.uncached(t), title_key.uncached(t)) for t in titles]
    assert parse_numbering(titles[0]) is not parse_numbering(titles[0])  # outside a scope: computed each time
    assert outline_headings([]) == []
