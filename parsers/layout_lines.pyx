# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A page's visual lines from PyMuPDF's "dict", compiled: parsers/pdf.py's ``_fragments``, ``merge_visual_lines``
and ``_fragment_words`` at C speed (they run once per span of every page the headings fallback lays out).

The Python functions are the reference: these must give the same fragments, lines and word boxes, object for object
(tests/parsers/test_speed_compiled_lines.py). The arithmetic is the same IEEE double arithmetic in the same order;
Python's ``min``/``max``/``sorted`` are followed exactly (first of equal items kept, stable order), and where a page
holds anything they were not written for (a coordinate that is not a float, or NaN; a fragment that is not a tuple
of str text) ``merge_visual_lines`` returns None and the caller takes the Python path.
"""

from cpython.float cimport PyFloat_AS_DOUBLE
from cpython.list cimport PyList_GET_ITEM, PyList_GET_SIZE
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.math cimport isnan
from cpython.object cimport PyObject_GenericSetAttr
from libc.stdlib cimport free, malloc, qsort

import dataclasses

cimport cython

from parsers.layout import Line, Word


cdef extern from "Python.h":
    void PyObject_GC_UnTrack(void* op)

# A Word is made as its dataclass __init__ makes it (object.__setattr__ of each field in order: the same instance,
# sharing its class's attribute keys), without the Python frame and the seven calls: contents pages build tens of
# thousands. Only while Word is still the frozen six-field dataclass with nothing run after __init__.
cdef bint _WORD_AS_INIT = (
    tuple(f.name for f in dataclasses.fields(Word)) == ("text", "x0", "y0", "x1", "y1", "bold")
    and Word.__dataclass_params__.frozen and Word.__dataclass_params__.init and not hasattr(Word, "__post_init__")
    and Word.__new__ is object.__new__)


# A Line is untracked by the cycle collector only while it is still the plain dataclass (no __slots__ or
# __post_init__ that could give it other references).
cdef bint _LINE_UNTRACKED = not hasattr(Line, "__post_init__") and not hasattr(Line, "__slots__")


cdef inline object _word(object text, object x0, object y0, object x1, object y1, object bold):
    if not _WORD_AS_INIT:
        return Word(text, x0, y0, x1, y1, bold)
    w = object.__new__(Word)
    PyObject_GenericSetAttr(w, "text", text)
    PyObject_GenericSetAttr(w, "x0", x0)
    PyObject_GenericSetAttr(w, "y0", y0)
    PyObject_GenericSetAttr(w, "x1", x1)
    PyObject_GenericSetAttr(w, "y1", y1)
    PyObject_GenericSetAttr(w, "bold", bold)
    # Its six fields are str, float, bool or None and it is frozen: it can never be part of a reference cycle, so
    # the cycle collector need not walk it. A contents page's lines hold thousands of words (each leader dot is one),
    # and every collection while they live walked them all: 9-13 % of the excerpts' structure step, a tenth of
    # gambit's (benchmarks/results/structure-speed.md, session 17ns).
    PyObject_GC_UnTrack(<void*>w)
    return w


cdef inline bint _space(Py_UCS4 c):
    return c.isspace()


cdef inline bint _blank(str text):
    """``not text or text.isspace()``: what str.strip() would empty."""
    cdef Py_UCS4 c
    for c in text:
        if not c.isspace():
            return False
    return True


cdef inline Py_ssize_t _score(str text):
    """The Python key ``sum(map(str.isalpha, text)) * 1000 + len(text.strip())``."""
    cdef Py_ssize_t n = len(text), alpha = 0, lead = 0, trail = 0, i
    cdef Py_UCS4 c
    for c in text:
        if c.isalpha():
            alpha += 1
    while lead < n and _space(text[lead]):
        lead += 1
    if lead < n:
        i = n - 1
        while _space(text[i]):
            trail += 1
            i -= 1
    return alpha * 1000 + (n - lead - trail)


cdef inline Py_ssize_t _alpha(str text):
    cdef Py_ssize_t alpha = 0
    cdef Py_UCS4 c
    for c in text:
        if c.isalpha():
            alpha += 1
    return alpha


cdef inline bint _differs(object a, object b):
    """One item of a tuple comparison: the same object, or equal."""
    return a is not b and not (a == b)


def fragments(dict data, object bold_search, object mono_flag):
    """``parsers.pdf._fragments``: one (x0, y0, x1, y1, text, size, bold, font, mono) per PyMuPDF line with text."""
    cdef list raw = []
    cdef dict bold_name = {}
    cdef dict line, main, s
    cdef list all_spans, spans, texts
    cdef str text, t
    cdef Py_ssize_t n, k, best, score
    cdef object size0, flags0, font0, flags, font, named, block
    for block in data.get("blocks", []):
        for line in block.get("lines", []):
            all_spans = line.get("spans", [])
            n = len(all_spans)
            if n == 1:
                main = all_spans[0]
                text = main.get("text", "")
                if _blank(text):
                    continue
                text = text.strip()
            else:
                texts = []
                spans = []
                for k in range(n):
                    s = <dict>PyList_GET_ITEM(all_spans, k)
                    t = s["text"]
                    texts.append(t)
                    if not _blank(t):
                        spans.append(s)
                if not spans:
                    continue
                text = "".join(texts).strip()
                main = spans[0]
                if len(spans) > 1:
                    size0, flags0, font0 = main["size"], main["flags"], main["font"]
                    for k in range(1, len(spans)):
                        s = <dict>PyList_GET_ITEM(spans, k)
                        if _differs(size0, s["size"]) or _differs(flags0, s["flags"]) or _differs(font0, s["font"]):
                            break
                    else:
                        k = -1
                    if k >= 0:
                        # the span with the most letters decides size / weight (first of equal ones, as max() keeps)
                        best = -1
                        for k in range(len(spans)):
                            s = <dict>PyList_GET_ITEM(spans, k)
                            score = _score(s["text"])
                            if best < 0 or score > best:
                                best, main = score, s
            flags, font = main.get("flags", 0), main.get("font", "")
            named = bold_name.get(font)
            if named is None:
                named = bold_name[font] = bool(bold_search(font))
            x0, y0, x1, y1 = line["bbox"]
            size = float(main.get("size", 0.0))
            if y1 - y0 > 2.5 * size and _diagonal(line.get("dir")):
                continue  # a watermark set across the page at an angle (parsers.pdf.diagonal)
            raw.append((x0, y0, x1, y1, text, round(size, 1), bool(flags & 16) or named, font, bool(flags & mono_flag)))
    return raw


cdef bint _diagonal(object direction):
    """``parsers.pdf.diagonal``."""
    if not direction:
        return False
    dx, dy = direction
    return abs(dx) > 0.2 and abs(dy) > 0.2


cdef struct Key:
    double mid
    double x0
    Py_ssize_t idx


cdef int _by_middle_then_left(const void* a, const void* b) noexcept nogil:
    """sorted(key=((y0 + y1) / 2, x0)): ties kept in input order (Python's sort is stable)."""
    cdef const Key* p = <const Key*>a
    cdef const Key* q = <const Key*>b
    if p.mid < q.mid:
        return -1
    if p.mid > q.mid:
        return 1
    if p.x0 < q.x0:
        return -1
    if p.x0 > q.x0:
        return 1
    return -1 if p.idx < q.idx else (1 if p.idx > q.idx else 0)


cdef inline double _coord(tuple frag, Py_ssize_t i):
    return PyFloat_AS_DOUBLE(<object>PyTuple_GET_ITEM(frag, i))


cdef bint _plain(list raw):
    """Every fragment a tuple of 8 or more items: four floats that are not NaN, a str, then only str, float, int
    (bool) or None (so a fragment can never lead back to a line: ``_WordsOf`` relies on it)."""
    cdef object frag, v
    cdef Py_ssize_t i
    for frag in raw:
        if type(frag) is not tuple or PyTuple_GET_SIZE(frag) < 8:
            return False
        for i in range(4):
            v = <object>PyTuple_GET_ITEM(frag, i)
            if type(v) is not float or isnan(PyFloat_AS_DOUBLE(v)):
                return False
        if type(<object>PyTuple_GET_ITEM(frag, 4)) is not str:
            return False
        for i in range(5, PyTuple_GET_SIZE(frag)):
            v = <object>PyTuple_GET_ITEM(frag, i)
            if not (v is None or type(v) is bool or type(v) is float or type(v) is str or type(v) is int):
                return False
    return True


@cython.no_gc
@cython.final
cdef class _WordsOf:
    """A visual line's word boxes, built when first read (``Line.words_from``). It holds only the line's fragments,
    a tuple of tuples of str, float, bool and None, so it can never be part of a reference cycle and the cycle
    collector need not track it: what ``partial(_fragment_words, group)`` costs the Python path, one more object
    for every collection to walk for as long as the page's lines live, this one does not."""
    cdef tuple group

    def __call__(self):
        return fragment_words(self.group)


def merge_visual_lines(object raw):
    """``parsers.pdf.merge_visual_lines``, or None when ``raw`` holds what only the Python function is written for."""
    if type(raw) is not list or not _plain(<list>raw):
        return None
    cdef list frags = <list>raw
    cdef Py_ssize_t n = PyList_GET_SIZE(frags), i, j, k, m
    cdef Key* keys = <Key*>malloc(max(n, 1) * sizeof(Key))
    if keys == NULL:
        raise MemoryError()
    cdef tuple frag
    cdef double y0, y1, gy0 = 0.0, gy1 = 0.0, overlap, height, a, b
    cdef list groups = []
    cdef list group
    try:
        for i in range(n):
            frag = <tuple>PyList_GET_ITEM(frags, i)
            keys[i].mid = (_coord(frag, 1) + _coord(frag, 3)) / 2
            keys[i].x0 = _coord(frag, 0)
            keys[i].idx = i
        qsort(keys, n, sizeof(Key), _by_middle_then_left)
        for i in range(n):
            frag = <tuple>PyList_GET_ITEM(frags, keys[i].idx)
            y0, y1 = _coord(frag, 1), _coord(frag, 3)
            if groups:
                # min(gy1, y1) - max(gy0, y0), max(1e-3, min(gy1 - gy0, y1 - y0)) as Python's min / max pick
                a = y1 if y1 < gy1 else gy1
                b = y0 if y0 > gy0 else gy0
                overlap = a - b
                a, b = gy1 - gy0, y1 - y0
                height = b if b < a else a
                height = height if height > 1e-3 else 1e-3
                if overlap > 0.5 * height:
                    (<list>groups[len(groups) - 1]).append(frag)
                    gy0 = y0 if y0 < gy0 else gy0
                    gy1 = y1 if y1 > gy1 else gy1
                    continue
            groups.append([frag])
            gy0, gy1 = y0, y1
    finally:
        free(keys)
    cdef list lines = []
    cdef tuple main, f, g
    cdef Py_ssize_t best_alpha, best_len, alpha, length, ix0, iy0, ix1, iy1
    cdef double gap, max_gap
    cdef str text
    cdef list texts
    cdef _WordsOf build
    for group in groups:
        m = len(group)
        if m == 1:
            main = <tuple>group[0]
            x0, y0o, x1, y1o, text = main[0], main[1], main[2], main[3], main[4]
            max_gap = 0.0
        else:
            # group.sort(key=x0), stable: insertion sort (a visual line has a few fragments)
            for i in range(1, m):
                f = <tuple>group[i]
                a = _coord(f, 0)
                j = i - 1
                while j >= 0 and _coord(<tuple>group[j], 0) > a:
                    group[j + 1] = group[j]
                    j -= 1
                group[j + 1] = f
            main = <tuple>group[0]
            best_alpha, best_len = _alpha(main[4]), len(<str>main[4])
            ix0 = iy0 = ix1 = iy1 = 0
            max_gap = 0.0
            for i in range(1, m):
                f = <tuple>group[i]
                alpha, length = _alpha(f[4]), len(<str>f[4])
                if alpha > best_alpha or (alpha == best_alpha and length > best_len):  # not the leader dots
                    best_alpha, best_len, main = alpha, length, f
                if _coord(f, 0) < _coord(<tuple>group[ix0], 0):
                    ix0 = i
                if _coord(f, 1) < _coord(<tuple>group[iy0], 1):
                    iy0 = i
                if _coord(f, 2) > _coord(<tuple>group[ix1], 2):
                    ix1 = i
                if _coord(f, 3) > _coord(<tuple>group[iy1], 3):
                    iy1 = i
                g = <tuple>group[i - 1]
                gap = _coord(f, 0) - _coord(g, 2)
                if i == 1 or gap > max_gap:
                    max_gap = gap
            texts = []
            for i in range(m):
                texts.append((<tuple>group[i])[4])
            text = " ".join(texts)
            x0, y0o = (<tuple>group[ix0])[0], (<tuple>group[iy0])[1]
            x1, y1o = (<tuple>group[ix1])[2], (<tuple>group[iy1])[3]
        line = Line(text=text, x0=x0, y0=y0o, x1=x1, y1=y1o, size=main[5], bold=main[6], font=main[7],
                    max_gap=max_gap, mono=bool(main[8]) if len(main) > 8 else False)
        build = _WordsOf.__new__(_WordsOf)
        build.group = tuple(group)
        line.words_from(build)
        if _LINE_UNTRACKED:
            # What it holds now is str, float, bool and an untracked builder; what the chain gives it later is
            # words (a list of untracked Words) or another str / number: no cycle can pass through it, and a
            # long document's lines, alive while it is read, were most of what every full collection walked.
            PyObject_GC_UnTrack(<void*>line)
        lines.append(line)
    return lines


def fragment_words(tuple group):
    """``parsers.pdf._fragment_words`` of a group ``merge_visual_lines`` made (float boxes, str texts)."""
    cdef list words = []
    cdef tuple frag
    cdef list parts
    cdef str part
    cdef double x0, x1, width
    cdef Py_ssize_t total, pos, k
    for frag in group:
        x0, x1 = _coord(frag, 0), _coord(frag, 2)
        y0, y1 = frag[1], frag[3]
        weight = frag[6] if len(frag) > 6 else None
        parts = (<str>frag[4]).split()
        if not parts:
            continue
        total = len(parts) - 1
        for part in parts:
            total += len(part)
        total = total if total > 1 else 1
        pos = 0
        width = x1 - x0
        for part in parts:
            wx0 = x0 + width * <double>pos / <double>total
            pos += len(part)
            words.append(_word(part, wx0, y0, x0 + width * <double>pos / <double>total, y1, weight))
            pos += 1
    return words
