"""extract_layout's shortcuts (the main span of a line whose spans share one style, word boxes built when first read)
give the lines an eager reading gives: same text, boxes, style and words, field by field."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import pymupdf

from parsers.layout import Line, Word
from parsers.pdf import OpenLimits, PdfSource, extract_layout
from tests.pdfs import chapter_pages


def _eager(page: pymupdf.Page) -> list[dict]:
    """The lines as extract_layout read them before its shortcuts: every line's main span scored, every word built."""
    raw = []
    for block in page.get_text("dict", flags=pymupdf.TEXTFLAGS_TEXT)["blocks"]:
        for line in block.get("lines", []):
            spans = [s for s in line["spans"] if s["text"].strip()]
            if not spans:
                continue
            main = max(spans, key=lambda s: sum(map(str.isalpha, s["text"])) * 1000 + len(s["text"].strip()))
            bold = bool(main["flags"] & 16) or any(k in main["font"].lower() for k in ("bold", "black", "heavy", "demi"))
            raw.append((*line["bbox"], "".join(s["text"] for s in line["spans"]).strip(), round(main["size"], 1), bold,
                        main["font"], bool(main["flags"] & pymupdf.TEXT_FONT_MONOSPACED)))
    groups: list[list[tuple]] = []
    for frag in sorted(raw, key=lambda r: ((r[1] + r[3]) / 2, r[0])):
        if groups:
            gy0, gy1 = min(f[1] for f in groups[-1]), max(f[3] for f in groups[-1])
            if min(gy1, frag[3]) - max(gy0, frag[1]) > 0.5 * max(1e-3, min(gy1 - gy0, frag[3] - frag[1])):
                groups[-1].append(frag)
                continue
        groups.append([frag])
    out = []
    for group in groups:
        group.sort(key=lambda f: f[0])
        words = []
        for x0, y0, x1, y1, text, *style in group:
            parts = text.split()
            total, pos = max(sum(map(len, parts)) + len(parts) - 1, 1), 0
            for part in parts:
                left = x0 + (x1 - x0) * pos / total
                pos += len(part)
                words.append({"text": part, "x0": left, "y0": y0, "x1": x0 + (x1 - x0) * pos / total, "y1": y1,
                              "bold": style[1]})
                pos += 1
        main = max(group, key=lambda f: (sum(map(str.isalpha, f[4])), len(f[4])))
        out.append({"text": " ".join(f[4] for f in group), "x0": min(f[0] for f in group), "y0": min(f[1] for f in group),
                    "x1": max(f[2] for f in group), "y1": max(f[3] for f in group), "size": main[5], "bold": main[6],
                    "font": main[7], "words": words, "max_gap": max((b[0] - a[2] for a, b in zip(group, group[1:])),
                                                                    default=0.0), "mono": main[8]})
    return out


def _mixed_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    # One line, three styles: the bold word has the most letters, so the line is bold; then a line whose longest
    # word is set in monospace; then a line in one style only.
    page.insert_htmlbox(pymupdf.Rect(72, 60, 540, 90), "<p style='font-size:11pt'>a <b>Supercalifragilistic</b> "
                        "<i>of</i> it</p>")
    page.insert_htmlbox(pymupdf.Rect(72, 100, 540, 130), "<p style='font-size:11pt'>call <code>configure_everything"
                        "</code> now</p>")
    page.insert_text((72, 160), "Plain body text in one style only.", fontname="helv", fontsize=10)
    # Two columns sharing a baseline (two blocks merged into one visual line), and a contents line with leaders.
    page.insert_text((72, 200), "Left column entry 7", fontname="helv", fontsize=10)
    page.insert_text((330, 200), "Right column entry 9", fontname="hebo", fontsize=10)
    page.insert_text((72, 230), "1.2 Getting started . . . . . . . . 14", fontname="helv", fontsize=10)
    page.insert_text((72, 260), "3 Installation", fontname="hebo", fontsize=14)
    doc.save(path)
    return path


def test_layout_lines_and_words_match_an_eager_reading(tmp_path: Path) -> None:
    path = _mixed_pdf(tmp_path / "mixed.pdf")
    with pymupdf.open(path) as doc:
        lay = extract_layout(doc[0], 1, links=False)
        want = _eager(doc[0])
    got = [asdict(ln) for ln in lay.lines]
    assert got == want
    by_text = {ln.text: ln for ln in lay.lines}
    assert by_text["a Supercalifragilistic of it"].bold  # scored: the bold word is the main span
    assert by_text["call configure_everything now"].mono
    assert not by_text["Plain body text in one style only."].bold
    assert by_text["Left column entry 7 Right column entry 9"].max_gap > 100
    assert [w.bold for w in by_text["Left column entry 7 Right column entry 9"].words] == [False] * 4 + [True] * 4


def test_words_built_on_first_read_behave_like_a_list_field(tmp_path: Path) -> None:
    path = _mixed_pdf(tmp_path / "mixed.pdf")
    with PdfSource(path) as pdf:
        line = next(ln for ln in pdf.layout(1).lines if ln.text.startswith("1.2"))
    first = line.words
    assert [w.text for w in first][-2:] == [".", "14"]
    assert line.words is first  # built once, then kept
    moved = replace(line, text="1.2 Getting started")  # replace passes the built words on
    assert moved.words == first
    line.words = first[:2]  # assigning replaces them, as on a plain field
    assert [w.text for w in line.words] == ["1.2", "Getting"]
    assert Line("x", 0, 0, 1, 1).words == [] and Line("x", 0, 0, 1, 1).words is not Line("x", 0, 0, 1, 1).words
    given = Line("y", 0, 0, 1, 1, words=[Word("y", 0, 0, 1, 1)])
    given.words_from(lambda: [])  # words given to the constructor win over a builder
    assert [w.text for w in given.words] == ["y"]


def test_a_layout_read_from_the_textpage_its_text_was_read_from_matches_a_fresh_reading(tmp_path: Path) -> None:
    path = _mixed_pdf(tmp_path / "mixed.pdf")
    with pymupdf.open(path) as doc:
        chapter_pages(doc, [["1 Introduction", "", "1.1 Scope"]])
        doc.save(tmp_path / "book.pdf")
    with pymupdf.open(tmp_path / "book.pdf") as doc:
        fresh_text = [page.get_text("text", sort=False) for page in doc]
        fresh = [[asdict(ln) for ln in extract_layout(page, n, links=False).lines] for n, page in enumerate(doc, 1)]
    # Every TextPage kept, none kept (a budget below one page), and some: the same text and the same lines.
    for budget in (1_000_000, 10, len(fresh_text[0]) + len(fresh_text[1])):
        with PdfSource(tmp_path / "book.pdf", OpenLimits(kept_textpage_chars=budget)) as pdf:
            assert [pdf.text(n) for n in range(1, 5)] == fresh_text
            assert [[asdict(ln) for ln in pdf.layout(n).lines] for n in range(1, 5)] == fresh
            assert pdf.layout(2).lines[0].text == "1 Introduction"
