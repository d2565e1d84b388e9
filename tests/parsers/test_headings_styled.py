"""Headings fallback, heads told by their style where a rule on their text would keep them out: a word processor's
heads ending in a full stop or opening with a program's lower-case name, manual pages headed by their names set
large, Texinfo's unnumbered sections, a title page's list of authors."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.pdf import PdfSource
from parsers.structure import recover_structure

PROSE = "The logger reads every sensor on the bus and writes the values to the configured database tables. " * 3


def _entries(path: Path) -> list[tuple[int, str, int]]:
    with PdfSource(path) as pdf:
        result = recover_structure(pdf, max_leaf_pages=0)
    assert result.source == "headings", result.decisions
    return [(e.level, e.title, e.page) for e in result.entries]


def _book(path: Path, pages: list[list[tuple[str, float, bool]]]) -> Path:
    """One page per list of heads (text, size, bold), each head followed by a paragraph of 10.5-pt prose."""
    doc = pymupdf.open()
    for heads in pages:
        page = doc.new_page(width=595, height=842)
        y = 90.0
        for text, size, bold in heads:
            page.insert_text((72, y), text, fontname="hebo" if bold else "helv", fontsize=size)
            page.insert_textbox(pymupdf.Rect(72, y + 6, 520, y + 110), PROSE, fontname="helv", fontsize=10.5)
            y += 125
    doc.save(path)
    doc.close()
    return path


def test_heads_ending_in_a_full_stop_or_lower_case_count_where_their_style_heads_others(tmp_path: Path) -> None:
    # An OpenOffice export (w1retap's guide, Faust's Bela readme): the author's heads keep their full stop
    # ("Viewing the data.") and a program's name opens some ("w1retap dependencies"), in the 12-pt bold of the rest.
    heads = ["Overview", "Choosing the logging method", "Build and install", "Configuring the w1retap software.",
             "Running w1retap", "Rate Limiting", "w1retap dependencies", "Viewing the data.", "Credits"]
    path = _book(tmp_path / "guide.pdf", [[(h, 12, True)] for h in heads])
    assert [t for _, t, _ in _entries(path)] == heads


def test_a_larger_line_ending_in_a_full_stop_in_a_style_of_its_own_is_no_head(tmp_path: Path) -> None:
    heads = ["Overview", "Choosing the logging method", "Build and install", "Running the logger", "Credits"]
    path = _book(tmp_path / "guide.pdf", [[(h, 12, True)] for h in heads[:3]]
                 + [[("Remember to back up the database first.", 14, False)]] + [[(h, 12, True)] for h in heads[3:]])
    assert "Remember to back up the database first." not in [t for _, t, _ in _entries(path)]


def test_a_larger_line_opening_lower_case_and_ending_in_a_full_stop_is_the_tail_of_a_sentence(tmp_path: Path) -> None:
    # A filing's exhibit (AMD's award terms): a bold title's sentence runs on to a line of its own,
    # "attached (the "Terms and Conditions")." in the style of the document's heads; a head may keep its full stop or
    # open lower-case, never both.
    heads = ["Overview", "Choosing the logging method", "Build and install", "Running the logger", "Credits"]
    tail = "attached (the \u201cTerms and Conditions\u201d)."
    path = _book(tmp_path / "award.pdf", [[(h, 12, True)] for h in heads[:3]]
                 + [[(tail, 12, True)]] + [[(h, 12, True)] for h in heads[3:]])
    titles = [t for _, t, _ in _entries(path)]
    assert tail not in titles and titles == heads


def test_the_text_starting_on_the_title_page_keeps_its_first_chapter(tmp_path: Path) -> None:
    # The title, then "Introduction" and its first section on page 1; "Installation" in the chapter style on page 2.
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((400, 95), "LOGGER", fontname="hebo", fontsize=18)
    page.insert_text((280, 122), "A sensor logging application", fontname="helv", fontsize=14)
    for y, (text, size) in ((180, ("Introduction", 16)), (205, ("Overview", 12))):
        page.insert_text((72, y), text, fontname="hebo", fontsize=size)
    page.insert_textbox(pymupdf.Rect(72, 212, 520, 320), PROSE, fontname="helv", fontsize=10.5)
    # The guide's only other chapter: its style is used on page 2 alone; its sections go on over later pages.
    for chapter, sections in (("Installation", ["Build process", "Creating the database"]),
                              ("", ["Sensors", "Storage strategies"]), ("", ["Running", "Viewing"]),
                              ("", ["Rate limiting", "Credits"])):
        page = doc.new_page(width=595, height=842)
        if chapter:
            page.insert_text((72, 90), chapter, fontname="hebo", fontsize=16)
        y = 120.0
        for s in sections:
            page.insert_text((72, y), s, fontname="hebo", fontsize=12)
            page.insert_textbox(pymupdf.Rect(72, y + 6, 520, y + 110), PROSE, fontname="helv", fontsize=10.5)
            y += 125
    doc.save(tmp_path / "guide.pdf")
    doc.close()
    entries = _entries(tmp_path / "guide.pdf")
    assert entries[:3] == [(1, "Introduction", 1), (2, "Overview", 1), (1, "Installation", 2)]
    assert "LOGGER" not in [t for _, t, _ in entries]


def test_manual_pages_headed_by_their_names_keep_their_sections_in_capitals(tmp_path: Path) -> None:
    # Man pages typeset one after the other by a word processor (Raster3D's manual): each page's name at 18 pt bold,
    # then SYNOPSIS, EXAMPLES, OPTIONS ... in bold capitals at the body's size; no header line names the pages.
    pages = {"AVS2PS": ["SYNOPSIS", "EXAMPLES", "OPTIONS", "AUTHORS"],
             "BALLS": ["SYNOPSIS", "DESCRIPTION", "OPTIONS", "AUTHORS"],
             "LABEL3D": ["SYNOPSIS", "EXAMPLES", "BUGS", "AUTHORS"],
             "RENDER": ["SYNOPSIS", "EXAMPLES", "OPTIONS", "AUTHORS"]}
    doc = pymupdf.open()
    for name, sections in pages.items():
        page = doc.new_page(width=612, height=792)
        page.insert_text((90, 80), name, fontname="tibi", fontsize=18)
        y = 120.0
        for s in sections:
            page.insert_text((90, y), s, fontname="tibi", fontsize=10)
            page.insert_textbox(pymupdf.Rect(90, y + 8, 520, y + 140), PROSE * 2, fontname="tiro", fontsize=10)
            y += 150
    doc.save(tmp_path / "r3d.pdf")
    doc.close()
    assert _entries(tmp_path / "r3d.pdf") == [
        entry for i, (name, sections) in enumerate(pages.items())
        for entry in [(1, name, i + 1)] + [(2, s, i + 1) for s in sections]]


def test_texinfo_unnumbered_sections_under_an_unnumbered_chapter_stay(tmp_path: Path) -> None:
    # Texinfo's @unnumbered "Preface" with @unnumberedsec sections set as the numbered chapters' sections are; a
    # release's notes ("News for Version 4.4", "... 4.3") differ only in their numbers and are no reference family.
    chapters = [("Preface", ["News for Version 4.4", "News for Version 4.3", "News for Version 4.2",
                             "News for Version 4.1", "Credits"]),
                ("1 Introducing the prover", ["1.1 Installing it", "1.2 Quick start guide", "1.3 Features"]),
                ("2 Basic script management", ["2.1 Walkthrough example", "2.2 Proof scripts", "2.3 Script buffers"])]
    doc = pymupdf.open()
    for chapter, sections in chapters:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), chapter, fontname="tibo", fontsize=17.2)
        y = 120.0
        for s in sections:
            if y > 700:
                page, y = doc.new_page(width=595, height=842), 90.0
            page.insert_text((72, y), s, fontname="tibo", fontsize=14.3)
            page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), PROSE[:150], fontname="tiro", fontsize=10.9)
            y += 80
    doc.save(tmp_path / "pg.pdf")
    doc.close()
    titles = [(lv, t) for lv, t, _ in _entries(tmp_path / "pg.pdf")]
    assert titles == [(lv, t) for c, ss in chapters for lv, t in [(1, c)] + [(2, s) for s in ss]]


def test_a_title_page_list_of_authors_by_initials_is_no_head(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 220), "Prover Manual", fontname="tibo", fontsize=20.7)
    page.insert_text((72, 730), "D. Aspinall, P. Courtieu, E. Martin-Dorel, T. Kleymann", fontname="tibo", fontsize=14.3)
    for n in range(1, 6):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), f"{n} Chapter number {n}", fontname="tibo", fontsize=17.2)
        page.insert_text((72, 130), f"{n}.1 A section of it", fontname="tibo", fontsize=14.3)
        page.insert_textbox(pymupdf.Rect(72, 140, 520, 300), PROSE, fontname="tiro", fontsize=10.9)
    doc.save(tmp_path / "pg.pdf")
    doc.close()
    assert not [t for _, t, _ in _entries(tmp_path / "pg.pdf") if "Aspinall" in t]


def test_a_head_in_capitals_over_a_family_of_entries_is_their_section(tmp_path: Path) -> None:
    # "OBJECT TYPES" over "Object type 1 triangle", "Object type 2 sphere" ...: the entries share its first word and
    # style, but the head in capitals is the section they belong to, which the outline lists.
    # An entry with a longer description ("Object type 7 explicit surface normals ...") is one of them.
    entries = ["Object type 1 triangle", "Object type 2 sphere", "Object type 3 cylinder", "Object type 5 plane",
               "Object type 7 explicit surface normals at vertices"]
    path = _book(tmp_path / "render.pdf", [[("HEADER RECORDS", 12, True)], [("SAMPLE HEADERS", 12, True)],
                                           [("OBJECT TYPES", 12, True)] + [(e, 12, True) for e in entries],
                                           [("ERROR MESSAGES", 12, True)], [("FILE INDIRECTION", 12, True)]])
    titles = [t for _, t, _ in _entries(path)]
    assert "OBJECT TYPES" in titles and not set(entries) & set(titles)


def test_lists_under_a_contents_heading_are_no_unnumbered_sections(tmp_path: Path) -> None:
    # An OpenOffice book whose contents page is headed "Index" (French), the lists of figures and tables under it set
    # as the numbered sections are: front matter, which its outline leaves out.
    chapters = [("Index", ["Index des illustrations", "Index des tables"]),
                ("1 Starting up", ["1.1 Introduction", "1.2 Audience", "1.3 Software"]),
                ("2 Language concepts", ["2.1 Rule", "2.2 Models", "2.3 Views"])]
    doc = pymupdf.open()
    for chapter, sections in chapters:
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 90), chapter, fontname="hebo", fontsize=18)
        y = 120.0
        for s in sections:
            page.insert_text((72, y), s, fontname="hebo", fontsize=16)
            page.insert_textbox(pymupdf.Rect(72, y + 8, 520, y + 60), PROSE[:150], fontname="tiro", fontsize=12)
            y += 80
    doc.save(tmp_path / "tutorial.pdf")
    doc.close()
    assert not {"Index des illustrations", "Index des tables"} & {t for _, t, _ in _entries(tmp_path / "tutorial.pdf")}


def test_a_lower_case_program_name_on_the_title_page_is_no_head(tmp_path: Path) -> None:
    # gnuplot's title page: "gnuplot 5.4" in the bold 20.7 pt its Parts use, lower-case as the program is named.
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((250, 170), "gnuplot 5.4", fontname="tibo", fontsize=20.7)
    page.insert_text((200, 200), "An Interactive Plotting Program", fontname="tiro", fontsize=14.3)
    for part in ("I Gnuplot", "II Plotting styles", "III Commands", "IV Terminals"):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), part, fontname="tibo", fontsize=20.7)
        page.insert_text((72, 130), f"Introduction to {part.split()[1]}", fontname="tibo", fontsize=14.3)
        page.insert_textbox(pymupdf.Rect(72, 140, 520, 300), PROSE, fontname="tiro", fontsize=10)
    doc.save(tmp_path / "gnuplot.pdf")
    doc.close()
    assert "gnuplot 5.4" not in [t for _, t, _ in _entries(tmp_path / "gnuplot.pdf")]


def test_a_list_of_names_in_the_heads_style_is_no_run_of_heads(tmp_path: Path) -> None:
    # A filing's plan exhibit (Corning's "Exhibit A"): the participants' names, one a line in the type of the
    # document's heads, one ending in "Jr."; a line in a run of lines set alike is no head told by its style.
    heads = ["Overview", "Choosing the logging method", "Build and install", "Running the logger"]
    path = _book(tmp_path / "plan.pdf", [[(h, 12, False)] for h in heads])
    doc = pymupdf.open(path)
    page = doc.new_page(width=595, height=842)
    page.insert_text((250, 90), "Exhibit A", fontname="hebo", fontsize=12)
    for i, name in enumerate(["Larry Aiello, Jr.", "Pierce Baker", "Robert Brown", "William Eggers"]):
        page.insert_text((250, 120 + 30 * i), name, fontname="helv", fontsize=12)
    doc.saveIncr()
    doc.close()
    titles = [t for _, t, _ in _entries(path)]
    assert titles[:4] == heads
    assert "Larry Aiello, Jr." not in titles


def test_a_document_numbering_its_chapters_only_keeps_its_unnumbered_sections(tmp_path: Path) -> None:
    # An HTMLDOC book (FLTK's programming manual): "1 - Introduction to FLTK", never a "1.1"; its sections are set
    # unnumbered in one smaller bold style, under the numbered chapters as under the unnumbered "Preface", and its
    # outline lists them. They are no starred sections: the document numbers nothing below its chapters.
    chapters = [("Preface", ["Organization", "Conventions"])] + [
        (f"{n} - {t}", [f"{w} of {t.lower()}" for w in ("Overview", "Details")])
        for n, t in enumerate(["Introduction", "Basics", "Common Widgets", "Drawing Things", "Handling Events"], 1)]
    path = _book(tmp_path / "book.pdf", [[(c, 19, True)] + [(s, 15.8, True) for s in ss] for c, ss in chapters])
    assert [(lv, t) for lv, t, _ in _entries(path)] == [
        (lv, t) for c, ss in chapters for lv, t in [(1, c)] + [(2, s) for s in ss]]


def test_an_epigraph_in_quotation_marks_is_no_head(tmp_path: Path) -> None:
    # Raster3D's manual: a motto in quotation marks, set as the heads are, over its attribution; a head quoting a
    # term keeps its other words and stays. (PyMuPDF's built-in Unicode font: the base-14 ones have no curly quotes.)
    quote = "\u201cNo substance can be comprehended without light and shade\u201d"
    heads = ["Header records", "Sample headers", "\u2018Valid\u2019 means \u2018probably valid\u2019", "Object types",
             "Error messages"]
    doc = pymupdf.open()
    for head in heads:
        page = doc.new_page(width=595, height=842)
        page.insert_font(fontname="uni", fontbuffer=pymupdf.Font("cjk").buffer)
        y = 90.0
        for text in [head] + ([quote] if head == heads[1] else []):
            page.insert_text((72, y), text, fontname="uni", fontsize=13)
            page.insert_textbox(pymupdf.Rect(72, y + 6, 520, y + 110), PROSE, fontname="helv", fontsize=10.5)
            y += 125
    doc.save(tmp_path / "m.pdf")
    doc.close()
    assert [t for _, t, _ in _entries(tmp_path / "m.pdf")] == heads
