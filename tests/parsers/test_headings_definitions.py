"""The headings fallback on Sphinx-like manuals: a definition list's bold terms are not heads, and a long head wrapped
over lines that end in commas is one head; real PDFs built with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import detect_headings, outline_headings
from parsers.pdf import PdfSource

PROSE = "These fields describe the relationships of the package with other packages and how they are declared."

# (text, x, font, size, space above): one page's lines, top to bottom.
Row = tuple[str, float, str, float, float]


def _manual(path: Path, pages: list[list[Row]]) -> Path:
    doc = pymupdf.open()
    for rows in pages:
        page = doc.new_page(width=612, height=792)
        y = 80.0
        for text, x, font, size, above in rows:
            y += above + size
            page.insert_text((x, y), text, fontname=font, fontsize=size)
            y += 2
    doc.save(path)
    doc.close()
    return path


def _prose(n: int = 3) -> list[Row]:
    return [(PROSE, 72, "tiro", 10, 8 if i == 0 else 0) for i in range(n)]


def _titles(pdf: Path) -> list[tuple[str, int]]:
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    return [(h.title, h.level) for h in outline_headings(detect_headings(layouts))]


def test_definition_list_terms_are_not_heads(tmp_path: Path) -> None:
    def terms(n: int, w: str) -> list[Row]:  # words of their own: terms differing in digits only read as running heads
        return [(f"Encoding of {w}", 72, "tibo", 10, 12), ("The character encoding of the first 128 code points.", 97, "tiro", 10, 0),
                (f"{n}.9; {w}-policy", 72, "tibo", 10, 12), ("The perl policy is now part of the policy.", 97, "tiro", 10, 0),
                (f"Upstream {w}", 72, "tibo", 10, 12), ("The source of software that is being packaged,", 97, "tiro", 10, 0),
                ("and its releases.", 97, "tiro", 10, 0)]

    pages = [[(f"Chapter about {w}", 72, "hebo", 14, 20), *_prose(), (f"Notes on {w}", 72, "tibo", 10, 14), *_prose(),
              *terms(n, w), *_prose()] for n, w in enumerate(("cats", "dogs", "fish", "birds", "mice", "frogs"), start=1)]
    titles = _titles(_manual(tmp_path / "terms.pdf", pages))
    assert [t for t, _ in titles] == [t for w in ("cats", "dogs", "fish", "birds", "mice", "frogs")
                                      for t in (f"Chapter about {w}", f"Notes on {w}")]


def test_a_head_wrapped_over_lines_ending_in_commas_is_one_head(tmp_path: Path) -> None:
    pages = [[(f"{n}.{k} Topic {k} of chapter {n}", 72, "hebo", 12, 20) for k in range(1, 3)] + _prose() for n in (1, 2, 3)]
    pages.append([
        ("4.1 Package interrelationship fields: Depends, Pre-Depends,", 72, "hebo", 12, 20),
        ("Suggests, Breaks, Conflicts", 72, "hebo", 12, 0), *_prose(),
        ("4.2 Relationships between source and binary", 72, "hebo", 12, 20),
        ("packages - Build-Depends, Build-Conflicts,", 72, "hebo", 12, 0),
        ("Build-Conflicts-Arch", 72, "hebo", 12, 0), *_prose(),
    ])
    titles = _titles(_manual(tmp_path / "wrapped.pdf", pages))
    assert [t for t, _ in titles[-2:]] == [
        "4.1 Package interrelationship fields: Depends, Pre-Depends, Suggests, Breaks, Conflicts",
        "4.2 Relationships between source and binary packages - Build-Depends, Build-Conflicts, Build-Conflicts-Arch",
    ]
    assert len(titles) == 8


def test_man_page_subsection_heads_left_of_their_text_are_heads(tmp_path: Path) -> None:
    # groff's man macros set every paragraph to the right of the heads, with no space between: a head out of the
    # text's margin is no definition term.
    pages = [[("NAME", 72, "tibo", 11, 20), (f"tool{n} - convert a page for printer {n}", 108, "tiro", 10, 0),
              ("DESCRIPTION", 72, "tibo", 11, 8), *[(PROSE, 108, "tiro", 10, 0) for _ in range(4)],
              (f"{w} Options", 87, "tibo", 10, 14), *[(PROSE, 108, "tiro", 10, 0) for _ in range(4)]]
             for n, w in enumerate(("Normal", "Printer", "Color", "Debugging"), start=1)]
    titles = _titles(_manual(tmp_path / "man.pdf", pages))
    assert [t for t, _ in titles if t.endswith("Options")] == ["Normal Options", "Printer Options", "Color Options",
                                                                "Debugging Options"]


def test_a_bold_head_over_a_paragraph_indented_on_its_first_line_stays_a_head(tmp_path: Path) -> None:
    # A filing's notes: "20. Restructuring" in bold at the margin, its text indented on the first line only, then
    # back at the margin. The indent is the paragraph's, not a definition's.
    def note(n: int, w: str) -> list[Row]:
        return [(f"{n}. {w}", 72, "tibo", 10, 12), (PROSE, 90, "tiro", 10, 0), (PROSE, 72, "tiro", 10, 0),
                (PROSE, 72, "tiro", 10, 0)]

    names = ("Acquisitions", "Restructuring", "Leases", "Debt", "Income Taxes", "Pensions")
    pages = [note(2 * k + 1, names[k]) + _prose() + note(2 * k + 2, names[k] + " Continued") for k in range(6)]
    titles = [t for t, _ in _titles(_manual(tmp_path / "notes.pdf", pages))]
    assert titles == [f"{2 * k + m}. {names[k]}{' Continued' if m == 2 else ''}" for k in range(6) for m in (1, 2)]


def test_a_labelled_note_over_one_indented_line_and_a_table_stays_a_head(tmp_path: Path) -> None:
    # "Note 7: Property, Plant and Equipment" in bold at the margin, one indented line ("Presented in the table
    # below ...") and then a table, no paragraph coming back to the margin: still the note's head.
    def note(n: int, w: str) -> list[Row]:
        return [(f"Note {n}: {w}", 72, "tibo", 10, 12), ("Presented in the table below are the classes of assets:", 90, "tiro", 10, 0),
                ("Land 2020 2019", 300, "tibo", 9, 8), ("Buildings 1,200 1,150", 72, "tiro", 10, 0),
                ("Machinery 3,400 3,100", 72, "tiro", 10, 0)]

    names = ("Acquisitions", "Property", "Leases", "Debt", "Income Taxes", "Pensions", "Equity", "Segments")
    pages = [_prose() + note(k + 1, w) + _prose() for k, w in enumerate(names)]
    titles = [t for t, _ in _titles(_manual(tmp_path / "notes.pdf", pages))]
    assert titles == [f"Note {k + 1}: {w}" for k, w in enumerate(names)]


def test_a_manual_pages_tagged_options_are_not_heads(tmp_path: Path) -> None:
    # groff's tagged paragraphs: each option in bold at the paragraphs' indent, its description indented under it,
    # mostly right under it, some after a space (a description opening with a paragraph of its own). The
    # descriptions outnumber the paragraphs, so the main text margin is theirs; the paragraphs' indent is a margin
    # too. The subsection head left of the paragraphs stays a head.
    def option(n: int, w: str, spaced: bool) -> list[Row]:  # a configuration variable and its default
        return [(f"${w}_{('size', 'mode', 'dir', 'view')[n]} [{n}]", 108, "tibo", 10, 12),
                *[(PROSE, 144, "tiro", 10, 12 if spaced and k == 0 else 0) for k in range(3)]]

    words = ("cats", "dogs", "fish", "birds", "mice", "frogs")
    pages = [[(f"{w.upper()} OPTIONS", 72, "tibo", 11, 20), *[(PROSE, 108, "tiro", 10, 0) for _ in range(3)],
              (f"Options for {w}", 87, "tibo", 10, 12), *[(PROSE, 108, "tiro", 10, 0) for _ in range(2)],
              *[row for n in range(4) for row in option(n, w, spaced=n == 2)]] for w in words]
    titles = [t for t, _ in _titles(_manual(tmp_path / "options.pdf", pages))]
    assert titles == [t for w in words for t in (f"{w.upper()} OPTIONS", f"Options for {w}")]
