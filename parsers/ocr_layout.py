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
from typing import TYPE_CHECKING

from parsers.layout import Line, PageLayout, Word

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

BOLD_STROKE_FACTOR = 1.35  # bold stems measure ~1.4-2x the body median, regular lines stay under ~1.25x

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
                     label: str | None = None,
                     leaders: list[tuple[int, int, int, int]] | None = None) -> tuple[PageLayout, list[float]]:
    """Build a PageLayout from tesseract hOCR; ``scale`` turns pixels into points (72/dpi).

    Returns the layout and the confidences (0-100) of the words kept. ``lines`` are visual
    lines (tesseract lines sharing a baseline are merged, e.g. a TOC title and its
    right-aligned page number). ``text`` follows the visual lines, except on multi-column
    pages where tesseract's block order is the reading order. ``leaders`` are pixel boxes of
    dot leaders erased from the image before this read (``leader_boxes``): each comes back as
    a "..." word on its line, as the text layer of a born-digital contents page has them.
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
    dots = [_line([Word("...", x0 * scale, y0 * scale, x1 * scale, y1 * scale)], 0.0) for x0, y0, x1, y1 in leaders or []]
    groups = group_lines(ocr_lines + dots)
    lines = [_clean_leaders(_merge(g), conf) for g in groups]
    columns = any(sum(1 for ln in g if ln.x1 - ln.x0 > 0.25 * width and ln.size > 0) >= 2 for g in groups)
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
    main = max(group, key=lambda ln: (ln.size > 0, len(ln.text)))  # an inserted leader has no size of its own
    words = [w for g in group for w in g.words]
    if len(group) > 1:  # an inserted leader lies inside the span of the title-and-number line
        words.sort(key=lambda w: w.x0)
    return _line(words, main.size)


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


def stroke_ratio(image: "Image.Image", line: Line, scale: float) -> float:
    """Mean horizontal run of dark pixels (≈ stem width) over the line's size, both in pixels; 0 if no ink.

    Scale-free, so one threshold separates bold from regular lines of any size. Measured over the
    line's words, leaving out dot leaders ("..."), whose dots would dilute the stems of the title."""
    from PIL import ImageChops

    dark = runs = 0
    for word in [w for w in line.words if w.text != "..."] or [Word(line.text, line.x0, line.y0, line.x1, line.y1)]:
        box = tuple(int(round(v / scale)) for v in (word.x0, word.y0, word.x1 + scale, word.y1 + scale))
        ink = image.crop(box).point(lambda v: 255 if v < 128 else 0)
        left = ink.transform(ink.size, 0, (1, 0, -1, 0, 1, 0), fillcolor=0)  # shifted one pixel right: each pixel's left neighbour
        dark += ink.histogram()[255]
        runs += ImageChops.subtract(ink, left).histogram()[255]  # dark pixels whose left neighbour is light: run starts
    if not dark or line.size <= 0:
        return 0.0
    return dark / max(1, runs) / (line.size / scale)


def mark_bold(lines: list[tuple[Line, float]], factor: float = BOLD_STROKE_FACTOR, min_chars: int = 200) -> int:
    """Set ``bold`` on lines whose stroke ratio exceeds ``factor`` x the character-weighted median of
    all lines given (one document's OCR pages); returns how many. Too little text: nothing marked."""
    scored = sorted((r, len(ln.text)) for ln, r in lines if r > 0)
    total = sum(n for _, n in scored)
    if total < min_chars:
        return 0
    half, seen, median = total / 2, 0, 0.0
    for r, n in scored:
        seen += n
        if seen >= half:
            median = r
            break
    marked = 0
    for ln, r in lines:
        ln.bold = r > factor * median
        marked += ln.bold
    return marked


def leader_boxes(pixels: "np.ndarray", line_height: float, min_dots: int = 4) -> list[tuple[int, int, int, int]]:
    """Dot leaders in a grayscale page image: in each text row (a run of inked pixel rows no taller
    than 2.5 x ``line_height``, the page's typical line height in pixels), runs of ``min_dots`` or
    more small ink blobs sitting in the lower half of the row. Returns one box per run, as high as
    its row, so callers can erase the dots (tesseract's LSTM drops the spaces of a title followed by
    leaders: "Wheretoaskforhelp") and put a "..." word back in their place. Rows come from the image,
    not from tesseract's lines, which sometimes fuse two contents entries into one."""
    import numpy as np

    ink = pixels < 160
    rows = np.flatnonzero(np.diff(np.concatenate(([0], ink.any(axis=1).astype(np.int8), [0]))))
    found = []
    for y0, y1 in zip(rows[::2].tolist(), (rows[1::2] - 1).tolist()):
        h = y1 - y0 + 1
        if h < 8 or h > 2.5 * line_height:
            continue
        band = ink[y0:y1 + 1]
        edges = np.flatnonzero(np.diff(np.concatenate(([0], band.any(axis=0).astype(np.int8), [0]))))
        blobs = list(zip(edges[::2].tolist(), edges[1::2].tolist()))  # runs of inked columns
        size = min(h, line_height)
        dots = []
        for a, b in blobs:
            inked = np.flatnonzero(band[:, a:b].any(axis=1))
            dots.append(b - a <= 0.3 * size and inked[-1] - inked[0] + 1 <= 0.3 * size and inked[-1] >= h - 0.5 * size)
        i = 0
        while i < len(blobs):
            j = i
            while dots[i] and j + 1 < len(blobs) and dots[j + 1]:
                j += 1
            if dots[i] and j - i + 1 >= min_dots:
                found.append((blobs[i][0], y0, blobs[j][1], y1))
            i = j + 1
    return found
