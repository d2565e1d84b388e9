"""tesseract hOCR -> PageLayout: words with boxes in PDF points, visual lines, a font-size proxy.

Pure functions over hOCR bytes, so the TOC parser and headings detector see OCR'd
pages exactly like born-digital ones. Contents pages get one repair: dot leaders,
which tesseract reads as noise ("0.0...", "eee"), become one "..." word between the
title and its page number.
"""

from __future__ import annotations

import re
import statistics
import xml.etree.ElementTree as ET

from parsers.layout import Line, PageLayout, Word

_XHTML = "{http://www.w3.org/1999/xhtml}"
_LINE_CLASSES = {"ocr_line", "ocr_header", "ocr_caption", "ocr_textfloat"}
_BBOX = re.compile(r"bbox (-?\d+) (-?\d+) (-?\d+) (-?\d+)")
_WCONF = re.compile(r"x_wconf (\d+)")
_XSIZE = re.compile(r"x_size ([\d.]+)")

LEADER_NOISE_CONF = 70.0  # leader dots come back as low-confidence junk; real words rarely score this low
_PAGE_NO = re.compile(r"^(?:\d{1,4}|[ivxlcdm]{1,7}|[A-Z]-\d{1,3})$", re.I)
_DOTTED = re.compile(r"\.{2,}|(?:\.\s?){3,}|…")
_TRAILING_DOTS = re.compile(r"^(.*[^.\s])(\.{3,}.*)$")


def _title(el: ET.Element, pattern: re.Pattern[str]) -> re.Match[str] | None:
    return pattern.search(el.get("title", ""))


def layout_from_hocr(hocr: bytes, number: int, scale: float, width: float, height: float,
                     label: str | None = None) -> tuple[PageLayout, list[float]]:
    """Build a PageLayout from tesseract hOCR; ``scale`` turns pixels into points (72/dpi).

    Returns the layout and the confidences (0-100) of the words kept. ``lines`` are visual
    lines (tesseract lines sharing a baseline are merged, e.g. a TOC title and its
    right-aligned page number). ``text`` follows the visual lines, except on multi-column
    pages where tesseract's block order is the reading order.
    """
    root = ET.fromstring(hocr)
    ocr_lines: list[Line] = []
    conf: dict[int, tuple[Word, float]] = {}  # id(word) -> (word, confidence); holding the word keeps its id unique
    for el in root.iter():
        if el.tag != _XHTML + "span" or el.get("class") not in _LINE_CLASSES:
            continue
        words: list[Word] = []
        for w in el:
            if w.get("class") != "ocrx_word":
                continue
            text = "".join(w.itertext()).strip()
            box = _title(w, _BBOX)
            if not text or box is None:
                continue
            x0, y0, x1, y1 = (int(v) * scale for v in box.groups())
            word = Word(text, x0, y0, x1, y1)
            c = _title(w, _WCONF)
            conf[id(word)] = (word, float(c.group(1)) if c else 0.0)
            words.extend(_split_trailing_dots(word, conf))
        if not words:
            continue
        xsize = _title(el, _XSIZE)
        # x_size is tesseract's fitted ascender-to-descender height: ~0.97 x the font size in points once scaled.
        size = round(float(xsize.group(1)) * scale, 1) if xsize else round(max(w.y1 - w.y0 for w in words), 1)
        ocr_lines.append(_line(words, size))
    snap_sizes(ocr_lines)
    groups = group_lines(ocr_lines)
    lines = [_clean_leaders(_merge(g), conf) for g in groups]
    columns = any(sum(1 for ln in g if ln.x1 - ln.x0 > 0.25 * width) >= 2 for g in groups)
    reading = [_clean_leaders(ln, conf) for ln in ocr_lines] if columns else lines
    kept = [conf[id(w)][1] for ln in lines for w in ln.words if id(w) in conf]  # leader words are not in conf
    layout = PageLayout(number=number, width=width, height=height, label=label, lines=lines,
                        text="\n".join(ln.text for ln in reading), text_source="ocr" if lines else "none",
                        ocr_confidence=round(statistics.fmean(kept), 2) if kept else None)
    return layout, kept


def snap_sizes(lines: list[Line], tolerance: float = 0.1) -> None:
    """Give lines of one font one size: x_size wobbles by ~10% with the letters a line happens to
    contain, and the TOC parser and headings detector compare rounded sizes. Greedy: the most
    common size absorbs every size within ``tolerance`` of it, then the next most common."""
    todo = [ln for ln in lines if ln.size > 0]
    while todo:
        counts: dict[float, int] = {}
        for ln in todo:
            key = round(ln.size * 2) / 2
            counts[key] = counts.get(key, 0) + len(ln.text)
        mode = max(counts, key=lambda k: (counts[k], -k))
        members = [ln for ln in todo if abs(ln.size - mode) <= tolerance * mode]
        size = round(statistics.median(ln.size for ln in members), 1)
        for ln in members:
            ln.size = size
        todo = [ln for ln in todo if ln not in members]


def _line(words: list[Word], size: float) -> Line:
    return Line(text=" ".join(w.text for w in words), x0=min(w.x0 for w in words), y0=min(w.y0 for w in words),
                x1=max(w.x1 for w in words), y1=max(w.y1 for w in words), size=size, words=words)


def _split_trailing_dots(word: Word, conf: dict[int, tuple[Word, float]]) -> list[Word]:
    """"Unpacking.........." -> "Unpacking" + "..........", boxes split by character share."""
    m = _TRAILING_DOTS.match(word.text)
    if not m:
        return [word]
    head, tail = m.group(1), m.group(2)
    cut = word.x0 + (word.x1 - word.x0) * len(head) / len(word.text)
    a = Word(head, word.x0, word.y0, cut, word.y1)
    b = Word(tail, cut, word.y0, word.x1, word.y1)
    c = conf[id(word)][1]
    conf[id(a)], conf[id(b)] = (a, c), (b, c)
    return [a, b]


def group_lines(lines: list[Line]) -> list[list[Line]]:
    """Group lines whose vertical extents overlap by more than half; groups top to bottom, members left to right."""
    groups: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ((ln.y0 + ln.y1) / 2, ln.x0)):
        if groups:
            last = groups[-1]
            gy0, gy1 = min(g.y0 for g in last), max(g.y1 for g in last)
            overlap = min(gy1, line.y1) - max(gy0, line.y0)
            if overlap > 0.5 * max(1e-3, min(gy1 - gy0, line.y1 - line.y0)):
                last.append(line)
                continue
        groups.append([line])
    for group in groups:
        group.sort(key=lambda ln: ln.x0)
    return groups


def _merge(group: list[Line]) -> Line:
    main = max(group, key=lambda ln: len(ln.text))
    return _line([w for g in group for w in g.words], main.size)


def _clean_leaders(line: Line, conf: dict[int, tuple[Word, float]]) -> Line:
    """Title, leader junk, page number -> title, "...", page number (only when the junk is dotted or unsure)."""
    words = line.words
    if len(words) < 3 or not _PAGE_NO.match(words[-1].text):
        return line
    start = next((i for i, w in enumerate(words[:-1]) if i > 0 and _DOTTED.search(w.text)), None)
    if start is None:
        return line
    between = words[start:-1]
    if not all(_DOTTED.search(w.text) or w.text == "..." or conf.get(id(w), (w, 0.0))[1] < LEADER_NOISE_CONF for w in between):
        return line
    leader = Word("...", between[0].x0, min(w.y0 for w in between), between[-1].x1, max(w.y1 for w in between))
    kept = words[:start] + [leader, words[-1]]
    return Line(text=" ".join(w.text for w in kept), x0=line.x0, y0=line.y0, x1=line.x1, y1=line.y1,
                size=line.size, bold=line.bold, font=line.font, words=kept)
