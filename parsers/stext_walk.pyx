# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""A page's line fragments read straight from MuPDF's structured text (``fz_stext_page``), compiled against the
MuPDF C API whose headers and library the PyMuPDF wheel ships (``pymupdf/mupdf-devel``, ``libmupdf.so``).

``parsers.pdf._fragments`` reads the same fragments from PyMuPDF's "dict" (``TextPage.extractDICT``): a Python dict,
list, str and float for every span of the page, built only to be read once and dropped. On TeX manuals (each word
and each space a span of its own) building it costs as much as reading the page's text, so a document the headings
fallback lays out page by page could not come near its plain text time. This walk goes over the same blocks,
lines and characters in C, splits a line into spans where PyMuPDF's dict does (``JM_make_spanlist``: a change of
size, font flags, character flags, colour, font name or bidi level), keeps the characters and the line box the dict
keeps (a character whose box misses the page is left out, a last span with an empty box is dropped, a line's box is
the union of its spans'), and makes one fragment tuple per line, equal to the dict path's, object for object
(benchmarks/stext_walk_check.py checks every page of the corpus; tests/parsers/test_layout_stext_walk.py).

Where the dict would hold what this walk does not reproduce, ``fragments`` returns None and the caller reads the
dict: a character of no width whose quad PyMuPDF recomputes from its font (with the glyph's advance, which takes a
MuPDF context), a character code that is not a Unicode scalar, a size that is negative or NaN, a block
of a kind the text flags never make (structure, vector, grid). It reads struct fields and calls only MuPDF functions
that take no context (geometry, ``fz_font_flags``): the structures are the ones of the MuPDF release it was compiled
against, ``BUILT_WITH_MUPDF``, and parsers/pdf.py uses it only when that is the release running.
"""

from cpython.unicode cimport PyUnicode_FromKindAndData, PyUnicode_4BYTE_KIND
from libc.stdint cimport uint16_t, uint32_t, uint8_t, uintptr_t
from libc.stdlib cimport free, realloc
from libc.string cimport strlen


cdef extern from *:
    """
    #include <mupdf/fitz.h>
    #include <float.h>
    #include <string.h>

    #define PT_STR2(x) #x
    #define PT_STR(x) PT_STR2(x)

    typedef struct {
        Py_ssize_t start, end;     /* characters [start, end) of the line's text */
        float size;
        int flags;                 /* PyMuPDF's span flags: superscript 1, italic 2, serif 4, mono 8, bold 16 */
        fz_font *font;
        fz_rect rect;
    } pt_span;

    typedef struct {
        Py_UCS4 *text;
        Py_ssize_t ntext, captext;
        pt_span *spans;
        Py_ssize_t nspans, capspans;
    } pt_line;

    /* PyMuPDF's JM_font_name: the font's name without a subset prefix ("ABCDEF+Name"). */
    static const char *pt_font_name(fz_font *font, int subset_names)
    {
        const char *name = font->name;
        const char *s = strchr(name, '+');
        if (subset_names || s == NULL || s - name != 6)
            return name;
        return s + 1;
    }

    /* PyMuPDF's JM_char_font_flags: superscript (detect_super_script), then the font's own flags. */
    static int pt_char_flags(fz_stext_line *line, fz_stext_char *ch)
    {
        int flags = 0;
        fz_font_flags_t *f = fz_font_flags(ch->font);
        if (line->wmode == 0 && line->dir.x == 1 && line->dir.y == 0)
            flags = ch->origin.y < line->first_char->origin.y - ch->size * 0.1f;
        if (f) {
            flags += f->is_italic * 2;
            flags += f->is_serif * 4;
            flags += f->is_mono * 8;
            flags += f->is_bold * 16;
        }
        return flags;
    }

    /* PyMuPDF's JM_char_quad (through JM_char_bbox): a character's quad, recomputed from its font's ascender and
       descender when they span less than an em (unless quad corrections are off, or the line is vertical). 0: done;
       1: the recomputed quad would need the glyph's advance from the font (a character of no width), which takes
       a MuPDF context: the dict must be read. fz_font_ascender and fz_font_descender read these two fields. */
    static int pt_char_quad(fz_stext_line *line, fz_stext_char *ch, int skip_quad_corrections, fz_quad *out)
    {
        fz_font *font = ch->font;
        float asc, dsc, c, s, fsize = ch->size, asc_dsc, cwidth;
        fz_matrix trm1, trm2, xlate1, xlate2;
        fz_quad quad;
        if (skip_quad_corrections || line->wmode)
        {
            *out = ch->quad;
            return 0;
        }
        asc = font->ascender;
        dsc = font->descender;
        asc_dsc = asc - dsc + FLT_EPSILON;
        if (asc_dsc >= 1)
        {
            *out = ch->quad;
            return 0;
        }
        if (asc < 1e-3)
        {
            dsc = -0.1f;
            asc = 0.9f;
            asc_dsc = 1.0f;
        }
        if (asc_dsc < 1)
        {
            dsc = dsc / asc_dsc;
            asc = asc / asc_dsc;
        }
        asc_dsc = asc - dsc;
        asc = asc * fsize / asc_dsc;
        dsc = dsc * fsize / asc_dsc;
        c = line->dir.x;
        s = line->dir.y;
        trm1 = fz_make_matrix(c, -s, s, c, 0, 0);
        trm2 = fz_make_matrix(c, s, -s, c, 0, 0);
        if (c == -1)
        {
            trm1.d = 1;
            trm2.d = 1;
        }
        xlate1 = fz_make_matrix(1, 0, 0, 1, -ch->origin.x, -ch->origin.y);
        xlate2 = fz_make_matrix(1, 0, 0, 1, ch->origin.x, ch->origin.y);
        quad = fz_transform_quad(ch->quad, xlate1);
        quad = fz_transform_quad(quad, trm1);
        if (c == 1 && quad.ul.y > 0)
        {
            quad.ul.y = asc;
            quad.ur.y = asc;
            quad.ll.y = dsc;
            quad.lr.y = dsc;
        }
        else
        {
            quad.ul.y = -asc;
            quad.ur.y = -asc;
            quad.ll.y = -dsc;
            quad.lr.y = -dsc;
        }
        if (quad.ll.x < 0)
        {
            quad.ll.x = 0;
            quad.ul.x = 0;
        }
        cwidth = quad.lr.x - quad.ll.x;
        if (cwidth < FLT_EPSILON)
            return 1;
        quad = fz_transform_quad(quad, trm2);
        quad = fz_transform_quad(quad, xlate2);
        *out = quad;
        return 0;
    }

    static int pt_grow_text(pt_line *out)
    {
        Py_ssize_t cap = out->captext ? 2 * out->captext : 256;
        Py_UCS4 *p = (Py_UCS4 *) realloc(out->text, cap * sizeof(Py_UCS4));
        if (!p) return -1;
        out->text = p;
        out->captext = cap;
        return 0;
    }

    static int pt_grow_spans(pt_line *out)
    {
        Py_ssize_t cap = out->capspans ? 2 * out->capspans : 32;
        pt_span *p = (pt_span *) realloc(out->spans, cap * sizeof(pt_span));
        if (!p) return -1;
        out->spans = p;
        out->capspans = cap;
        return 0;
    }

    /* One line's characters and spans as PyMuPDF's JM_make_spanlist (non-raw) would make them.
       0: done; 1: this line holds what only the dict reproduces; -1: out of memory. */
    static int pt_walk_line(fz_stext_line *line, fz_rect tp, int tp_infinite, int skip_quad_corrections,
                            int subset_names, pt_line *out, fz_rect *line_rect_out)
    {
        fz_rect span_rect = fz_empty_rect, line_rect = fz_empty_rect;
        fz_stext_char *ch;
        pt_span *cur = NULL;
        float o_size = -1;
        int o_flags = -1, o_cflags = -1, o_bidi = 0;
        uint32_t o_argb = 0;
        const char *o_font = "";
        out->ntext = 0;
        out->nspans = 0;
        for (ch = line->first_char; ch; ch = ch->next)
        {
            fz_font *font = ch->font;
            fz_quad quad;
            fz_rect r;
            int flags, cflags, c;
            const char *fname;
            if (!font || !(ch->size >= 0))
                return 1;
            if (pt_char_quad(line, ch, skip_quad_corrections, &quad))
                return 1;
            r = fz_rect_from_quad(quad);
            if (line->wmode && r.y1 < r.y0 + ch->size)
                r.y0 = r.y1 - ch->size;
            if (!tp_infinite && (tp.x0 >= r.x1 || tp.y0 >= r.y1 || tp.x1 <= r.x0 || tp.y1 <= r.y0))
                continue;  /* JM_rects_overlap */
            flags = pt_char_flags(line, ch);
            cflags = ch->flags & ~FZ_STEXT_SYNTHETIC;
            fname = pt_font_name(font, subset_names);
            if (cur == NULL || ch->size != o_size || flags != o_flags || cflags != o_cflags || ch->argb != o_argb
                || strcmp(fname, o_font) != 0 || ch->bidi != o_bidi)
            {
                if (cur != NULL)
                {
                    cur->end = out->ntext;
                    cur->rect = span_rect;
                    line_rect = fz_union_rect(line_rect, span_rect);
                }
                if (out->nspans == out->capspans && pt_grow_spans(out) < 0)
                    return -1;
                cur = &out->spans[out->nspans++];
                cur->start = out->ntext;
                cur->size = ch->size;
                cur->flags = flags;
                cur->font = font;
                o_size = ch->size;
                o_flags = flags;
                o_cflags = cflags;
                o_argb = ch->argb;
                o_font = fname;
                o_bidi = ch->bidi;
                span_rect = r;
            }
            span_rect = fz_union_rect(span_rect, r);
            c = ch->c;
            if (c < 0 || c > 0x10ffff)
                return 1;
            if (c >= 0xd800 && c <= 0xdfff)
                c = 0xfffd;  /* JM_append_rune: an orphaned surrogate */
            if (out->ntext == out->captext && pt_grow_text(out) < 0)
                return -1;
            out->text[out->ntext++] = (Py_UCS4) c;
        }
        if (cur != NULL)
        {
            cur->end = out->ntext;
            cur->rect = span_rect;
            if (!fz_is_empty_rect(span_rect))
                line_rect = fz_union_rect(line_rect, span_rect);
            else
            {
                out->ntext = cur->start;  /* the dict drops a last span with an empty box */
                out->nspans--;
            }
        }
        *line_rect_out = line_rect;
        return 0;
    }

    static int pt_block_skipped(fz_stext_block *block, fz_rect tp, int tp_infinite)
    {
        if (tp_infinite)
            return 0;
        if (block->type == FZ_STEXT_BLOCK_IMAGE && !fz_contains_rect(tp, block->bbox))
            return 1;
        return fz_is_empty_rect(fz_intersect_rect(tp, block->bbox));
    }

    static int pt_line_skipped(fz_stext_line *line, fz_rect tp, int tp_infinite)
    {
        return !tp_infinite && fz_is_empty_rect(fz_intersect_rect(tp, line->bbox));
    }

    static fz_stext_line *pt_first_line(fz_stext_block *block) { return block->u.t.first_line; }

    static const char *pt_built_with(void) { return FZ_VERSION; }
    """
    ctypedef struct fz_font:
        pass
    ctypedef struct fz_point:
        float x
        float y
    ctypedef struct fz_rect:
        float x0
        float y0
        float x1
        float y1
    ctypedef struct fz_stext_line:
        uint8_t wmode
        fz_point dir
        fz_rect bbox
        fz_stext_line *next
    ctypedef struct fz_stext_block:
        int type
        fz_rect bbox
        fz_stext_block *next
    ctypedef struct fz_stext_page:
        fz_rect mediabox
        fz_stext_block *first_block
    ctypedef struct pt_span:
        Py_ssize_t start
        Py_ssize_t end
        float size
        int flags
        fz_font *font
        fz_rect rect
    ctypedef struct pt_line:
        Py_UCS4 *text
        Py_ssize_t ntext
        Py_ssize_t captext
        pt_span *spans
        Py_ssize_t nspans
        Py_ssize_t capspans
    int FZ_STEXT_BLOCK_TEXT
    int FZ_STEXT_BLOCK_IMAGE
    bint fz_is_infinite_rect(fz_rect r)
    const char *pt_font_name(fz_font *font, int subset_names)
    int pt_walk_line(fz_stext_line *line, fz_rect tp, int tp_infinite, int skip_quad_corrections, int subset_names,
                     pt_line *out, fz_rect *line_rect_out)
    bint pt_block_skipped(fz_stext_block *block, fz_rect tp, int tp_infinite)
    bint pt_line_skipped(fz_stext_line *line, fz_rect tp, int tp_infinite)
    fz_stext_line *pt_first_line(fz_stext_block *block)
    const char *pt_built_with()
    int Py_UNICODE_ISSPACE(Py_UCS4 c)
    int Py_UNICODE_ISALPHA(Py_UCS4 c)
    object PyUnicode_DecodeRawUnicodeEscape(const char *s, Py_ssize_t size, const char *errors)


BUILT_WITH_MUPDF = (<bytes>pt_built_with()).decode("ascii")
"""The MuPDF release whose structures this walk reads (FZ_VERSION of the headers it was compiled with)."""


cdef object _font_str(fz_font *font, int subset_names):
    """PyMuPDF's span "font": JM_EscapeStrFromStr of JM_font_name (raw-unicode-escape, "" when that fails)."""
    cdef const char *name = pt_font_name(font, subset_names)
    try:
        return PyUnicode_DecodeRawUnicodeEscape(name, <Py_ssize_t>strlen(name), "replace")
    except Exception:
        return ""


cdef inline bint _blank(const Py_UCS4 *text, Py_ssize_t start, Py_ssize_t end) noexcept:
    cdef Py_ssize_t i
    for i in range(start, end):
        if not Py_UNICODE_ISSPACE(text[i]):
            return False
    return True


cdef Py_ssize_t _score(const Py_UCS4 *text, Py_ssize_t start, Py_ssize_t end) noexcept:
    """``sum(map(str.isalpha, t)) * 1000 + len(t.strip())`` of the span's text."""
    cdef Py_ssize_t i, alpha = 0, lo = start, hi = end
    for i in range(start, end):
        if Py_UNICODE_ISALPHA(text[i]):
            alpha += 1
    while lo < hi and Py_UNICODE_ISSPACE(text[lo]):
        lo += 1
    while hi > lo and Py_UNICODE_ISSPACE(text[hi - 1]):
        hi -= 1
    return alpha * 1000 + (hi - lo)


def fragments(object address, bint skip_quad_corrections, bint subset_names, object bold_search, int mono_flag):
    """``parsers.pdf._fragments(textpage.extractDICT())`` read from the ``fz_stext_page`` at ``address`` (the
    TextPage's ``this.m_internal_value()``; the caller keeps the TextPage alive), or None where the dict holds what
    this walk does not reproduce. ``skip_quad_corrections`` and ``subset_names``: PyMuPDF's settings
    (``TOOLS.unset_quad_corrections()``, ``TOOLS.set_subset_fontnames()``) the dict would be made with."""
    cdef fz_stext_page *page = <fz_stext_page *><uintptr_t>address
    if page == NULL:
        return None
    cdef fz_rect tp = page.mediabox
    cdef int tp_inf = fz_is_infinite_rect(tp)
    cdef pt_line ln
    ln.text = NULL
    ln.spans = NULL
    ln.ntext = ln.captext = ln.nspans = ln.capspans = 0
    cdef fz_stext_block *block
    cdef fz_stext_line *line
    cdef fz_rect box
    cdef int rc
    cdef Py_ssize_t k, first, best, score, best_score, lo, hi
    cdef pt_span *s
    cdef pt_span *main
    cdef bint mixed
    cdef double size, x0, y0, x1, y1, dx, dy
    cdef list raw = []
    cdef dict names = {}      # fz_font address -> the span's font str
    cdef dict bold_name = {}  # font str -> whether its name says bold
    cdef object font, other, named, rounded, as_float
    cdef double last_size = -1.0
    rounded = None
    try:
        block = page.first_block
        while block != NULL:
            if pt_block_skipped(block, tp, tp_inf):
                block = block.next
                continue
            if block.type == FZ_STEXT_BLOCK_IMAGE:
                block = block.next
                continue
            if block.type != FZ_STEXT_BLOCK_TEXT:
                return None
            line = pt_first_line(block)
            while line != NULL:
                if pt_line_skipped(line, tp, tp_inf):
                    line = line.next
                    continue
                rc = pt_walk_line(line, tp, tp_inf, skip_quad_corrections, subset_names, &ln, &box)
                if rc < 0:
                    raise MemoryError()
                if rc > 0:
                    return None
                # the spans with text: the first decides the style, unless they differ in size, flags or font
                first = -1
                for k in range(ln.nspans):
                    if not _blank(ln.text, ln.spans[k].start, ln.spans[k].end):
                        first = k
                        break
                if first < 0:
                    line = line.next
                    continue
                main = &ln.spans[first]
                font = _font_of(names, main.font, subset_names)
                mixed = False
                for k in range(first + 1, ln.nspans):
                    s = &ln.spans[k]
                    if _blank(ln.text, s.start, s.end):
                        continue
                    if s.size != main.size or s.flags != main.flags:
                        mixed = True
                        break
                    if s.font != main.font:
                        other = _font_of(names, s.font, subset_names)
                        if other is not font and not (other == font):
                            mixed = True
                            break
                if mixed:
                    # the span with the most letters (first of equal ones, as max() keeps)
                    best = -1
                    best_score = 0
                    for k in range(first, ln.nspans):
                        s = &ln.spans[k]
                        if _blank(ln.text, s.start, s.end):
                            continue
                        score = _score(ln.text, s.start, s.end)
                        if best < 0 or score > best_score:
                            best, best_score = k, score
                    main = &ln.spans[best]
                    font = _font_of(names, main.font, subset_names)
                named = bold_name.get(font)
                if named is None:
                    named = bold_name[font] = bool(bold_search(font))
                x0, y0, x1, y1 = box.x0, box.y0, box.x1, box.y1
                size = main.size
                if y1 - y0 > 2.5 * size:
                    dx, dy = line.dir.x, line.dir.y
                    if abs(dx) > 0.2 and abs(dy) > 0.2:
                        line = line.next
                        continue  # a watermark set across the page at an angle (parsers.pdf.diagonal)
                lo, hi = 0, ln.ntext
                while lo < hi and Py_UNICODE_ISSPACE(ln.text[lo]):
                    lo += 1
                while hi > lo and Py_UNICODE_ISSPACE(ln.text[hi - 1]):
                    hi -= 1
                if size != last_size or rounded is None:
                    as_float = size
                    last_size, rounded = size, round(as_float, 1)
                raw.append((x0, y0, x1, y1, PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, ln.text + lo, hi - lo),
                            rounded, True if main.flags & 16 else named, font, bool(main.flags & mono_flag)))
                line = line.next
            block = block.next
    finally:
        free(ln.text)
        free(ln.spans)
    return raw


cdef object _font_of(dict names, fz_font *font, int subset_names):
    key = <uintptr_t>font
    name = names.get(key)
    if name is None:
        name = names[key] = _font_str(font, subset_names)
    return name
