"""The headings fallback's recall on manuals without a printed contents, on real PDFs built with PyMuPDF:
prose set larger than its code listings, sections sharing a topic word, an index's letter groups."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from parsers.headings import body_size, detect_headings, outline_headings
from parsers.pdf import PdfSource, extract_layout
from parsers.structure import recover_structure

PROSE = "CoDi structures diagrams into layers implemented with TikZ, and each layer can be styled."


def _manual(path: Path, heads: list[str], code_lines: int = 8) -> Path:
    """One page per head (17 pt), two lines of 12 pt prose and ``code_lines`` lines of 8 pt Courier code."""
    doc = pymupdf.open()
    for head in heads:
        page = doc.new_page(width=595, height=842)
        page.insert_text((80, 90), head, fontname="helv", fontsize=17)
        y = 130
        for _ in range(2):
            page.insert_text((80, y), PROSE, fontname="helv", fontsize=12)
            y += 16
        for i in range(code_lines):
            page.insert_text((90, y + 6), f"\\obj [layout keylist] {{ |[object keylist]| a & b \\\\ }}; % {i}",
                             fontname="cour", fontsize=8)
            y += 10
    doc.save(path)
    doc.close()
    return path


def test_code_listings_do_not_set_the_body_size(tmp_path: Path) -> None:
    pdf = _manual(tmp_path / "codi.pdf", ["Quick tour", "Alternatives", "Gallery"])
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    assert any(ln.mono for ln in layouts[0].lines)  # the font's fixed-pitch flag, whatever its name
    assert body_size(layouts) == 12.0  # the prose, although the 8 pt code has more characters
    assert [h.title for h in outline_headings(detect_headings(layouts))] == ["Quick tour", "Alternatives", "Gallery"]


def test_sections_sharing_a_topic_word_one_to_a_page_are_sections(tmp_path: Path) -> None:
    heads = ["Names", "Names: shortcuts", "Names: expansion", "Names: replacement", "Names: overwriting", "Gallery"]
    pdf = _manual(tmp_path / "names.pdf", heads)
    with PdfSource(pdf) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    assert [h.title for h in outline_headings(detect_headings(layouts))] == heads


def _index_manual(path: Path, groups: bool) -> Path:
    """Three numbered sections, then a two-column index with (or without) centred bold letter groups."""
    doc = pymupdf.open()
    for n, title in enumerate(["Introduction", "Usage", "Implementation"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), f"{n} {title}", fontname="hebo", fontsize=14)
        y = 130
        for _ in range(20):
            page.insert_text((72, y), "Numbers written in italic refer to the page where the entry is described.",
                             fontname="helv", fontsize=10)
            y += 13
    columns = {0: ["Symbols", "\\@ifstar", "\\&", "A", "\\addtolength", "\\amp", "B", "\\baselinestretch"],
               1: ["\\bf@bitbox", "C", "\\CurrentOption", "M register", "D", "\\dimen", "E", "\\endwordgroup"]}
    for page_no in range(2):
        page = doc.new_page(width=612, height=792)
        top = 100
        if page_no == 0:
            page.insert_text((72, 100), "Index", fontname="hebo", fontsize=14)
            top = 140
        for col, x in ((0, 72), (1, 330)):
            y = top
            for item in columns[col]:
                if (item[:1].isupper() and len(item.split()) == 1) and not groups:
                    continue
                if item[:1].isupper() and len(item.split()) == 1:
                    page.insert_text((x + 100, y), item, fontname="hebo", fontsize=9)  # centred in its column
                else:
                    page.insert_text((x, y), f"{item} . . . . . . . {page_no * 7 + 3}", fontname="cour", fontsize=9)
                y += 12
        columns = {0: ["F", "\\fbox", "G", "\\gdef", "H", "\\hbox"], 1: ["I", "\\ifx", "K", "\\kern"]}
    doc.save(path)
    doc.close()
    return path


def test_index_letter_groups_become_the_index_children(tmp_path: Path) -> None:
    with PdfSource(_index_manual(tmp_path / "grouped.pdf", groups=True)) as src:
        result = recover_structure(src, max_leaf_pages=0)
    assert result.source == "headings"
    got = [(e.level, e.title, e.page) for e in result.entries]
    assert got[:4] == [(1, "1 Introduction", 1), (1, "2 Usage", 2), (1, "3 Implementation", 3), (1, "Index", 4)]
    assert got[4:] == [(2, t, 4) for t in ("Symbols", "A", "B", "C", "D", "E")] + [(2, t, 5) for t in "FGHIK"]


def test_an_index_without_letter_groups_gets_no_children(tmp_path: Path) -> None:
    with PdfSource(_index_manual(tmp_path / "plain.pdf", groups=False)) as src:
        result = recover_structure(src, max_leaf_pages=0)
    assert [e.title for e in result.entries] == ["1 Introduction", "2 Usage", "3 Implementation", "Index"]


def test_fixed_pitch_flag_is_read_from_the_font(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "int main(void) { return 0; }", fontname="cour", fontsize=10)
    page.insert_text((72, 130), "Prose in a proportional font.", fontname="helv", fontsize=10)
    assert [(ln.text[:3], ln.mono) for ln in extract_layout(page, 1).lines] == [("int", True), ("Pro", False)]


def test_a_numbered_chapter_title_wrapped_inside_wide_margins_is_one_heading() -> None:
    from parsers.layout import Line, PageLayout

    body = "The finite element method solves the problem on a mesh of triangles in two dimensions."
    lines = [Line("Chapter 5", 126, 180, 230, 200, 20.7, True, "CMBX12"),
             Line("GNU Free Documentation", 126, 248, 449, 273, 24.8, True, "CMBX12"),
             Line("License", 126, 280, 230, 305, 24.8, True, "CMBX12")]
    lines += [Line(body, 126, 340 + 13 * i, 486, 350 + 13 * i, 10.9, False, "CMR10") for i in range(20)]
    page = PageLayout(number=39, width=612, height=792, lines=lines)  # a 360-pt text block on 612-pt paper
    assert [h.title for h in detect_headings([page])] == ["5 GNU Free Documentation License"]


def _amsart(path: Path, stray_paragraph: bool = False) -> Path:
    """amsart's look: sections "1. INTRODUCTION" in capitals at body size, subsections run in ("2.1. Trees. ...")."""
    doc = pymupdf.open()
    text = "The commands in this section are listed below together with the options that disable them."
    for n, (section, subs) in enumerate([("INTRODUCTION", []), ("COMMANDS", ["Priority Trees", "Degrees", "Set Notation"]),
                                         ("RELEASE NOTES", [])], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((250, 120), f"{n}. {section}", fontname="tiro", fontsize=10.9)
        y = 150
        for k, sub in enumerate([""] + subs):
            if sub:
                y += 14
                page.insert_text((127, y), f"{n}.{k}. {sub}. {text[:60]}", fontname="tiro", fontsize=10.9)
                y += 13
            for _ in range(4):
                page.insert_text((127, y), text, fontname="tiro", fontsize=10.9)
                y += 13
        if stray_paragraph and n == 3:
            y += 14
            page.insert_text((127, y), f"7.2. The licensee shall keep records. {text[:50]}", fontname="tiro", fontsize=10.9)
    doc.save(path)
    doc.close()
    return path


def test_capitals_sections_and_run_in_subsections_at_body_size_are_headings(tmp_path: Path) -> None:
    with PdfSource(_amsart(tmp_path / "amsart.pdf", stray_paragraph=True)) as src:
        layouts = [src.layout(n) for n in range(1, src.page_count + 1)]
    heads = outline_headings(detect_headings(layouts))
    assert [(h.level, h.title, h.page) for h in heads] == [
        (1, "1. INTRODUCTION", 1), (1, "2. COMMANDS", 2), (2, "2.1. Priority Trees", 2), (2, "2.2. Degrees", 2),
        (2, "2.3. Set Notation", 2), (1, "3. RELEASE NOTES", 3)]  # "7.2. The licensee shall ..." continues nothing


def test_index_letter_groups_in_three_columns_are_read_column_by_column(tmp_path: Path) -> None:
    # LaTeX's doc package sets its index in three columns: a group starting high in the middle column comes after
    # the left column's groups, whatever their heights.
    doc = pymupdf.open()
    for n, title in enumerate(["Introduction", "Usage", "Implementation"], start=1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 100), f"{n} {title}", fontname="hebo", fontsize=14)
        page.insert_textbox(pymupdf.Rect(72, 120, 540, 400), "The entries refer to the pages of the code. " * 20,
                            fontname="helv", fontsize=10)
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 100), "Index", fontname="hebo", fontsize=14)
    columns = {72: [("Symbols", 150), ("A", 260), ("B", 420)], 250: [("C", 140), ("D", 300), ("E", 480)],
               430: [("F", 200), ("G", 360), ("H", 520)]}
    for x, groups in columns.items():
        for letter, y in groups:
            page.insert_text((x + 40, y), letter, fontname="hebo", fontsize=9)
            for k in range(1, 5):
                page.insert_text((x, y + 12 * k), f"\\{letter.lower()}macro{k}, 1{k}", fontname="cour", fontsize=9)
    path = tmp_path / "three.pdf"
    doc.save(path)
    doc.close()
    with PdfSource(path) as src:
        result = recover_structure(src, max_leaf_pages=0)
    assert result.source == "headings"
    got = [(e.level, e.title, e.page) for e in result.entries]
    assert got[3] == (1, "Index", 4)
    assert got[4:] == [(2, t, 4) for t in ("Symbols", "A", "B", "C", "D", "E", "F", "G", "H")]
