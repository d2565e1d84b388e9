# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The reader's walk of an lxml tree, compiled: parsers/html_doc.py's ``_walk`` at C speed.

It reads elements, attributes and text through lxml's public C API (``lxml.includes.etreepublic``: the element's
``_c_node``, ``textOf``/``tailOf``, ``findChildForwards``/``nextElement``, ``elementFactory``) and makes Python
objects only for what becomes a text run, a block or a fact mark. The Python walk is the reference: this one
must give the same blocks, fact marks, header and counts (tests/parsers/test_html_walk_compiled.py), and the
rare paths (a style not met before, facts, the hidden header, images, markup nested past MAX_DEPTH) call the
Python helpers themselves.
"""

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy, strcmp, strlen, strstr

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport const_xmlChar

cdef object etree
from lxml import etree

cetree.import_lxml__etree()

# The lxml these headers came from; html_doc checks it against the running lxml before using this module.
BUILT_WITH_LXML = (<bytes>cetree.LXML_VERSION_STRING).decode("ascii")

# Tag flags (what the walk does with an element, by its name).
cdef enum:
    F_SKIP = 1
    F_BLOCKISH = 2
    F_BLOCK_TAG = 4
    F_TABLE_END = 8
    F_TABLE = 16
    F_TD = 32
    F_TH = 64
    F_A = 128
    F_BR = 256
    F_IMG = 512
    F_FACT = 1024
    F_FONT = 2048
    F_IXHEADER = 4096
    F_NONFRACTION = 8192

# The flags an element earns by its exact name (the sets of parsers.html_doc give the others).
_NAME_FLAGS = {"table": F_TABLE, "td": F_TD, "th": F_TH, "a": F_A, "br": F_BR, "img": F_IMG, "font": F_FONT,
               "ix:header": F_IXHEADER, "ix:nonfraction": F_NONFRACTION}

cdef enum:
    TAG_SLOTS = 4096  # open addressing on (name, namespace) pointers; a document with more names takes the slow path

cdef const char* XHTML_NS = b"http://www.w3.org/1999/xhtml"
cdef const char* IX_NS = b"http://www.xbrl.org/2013/inlineXBRL"


cdef struct TagSlot:
    const_xmlChar* name
    tree.xmlNs* ns
    int index


cdef struct StyleEntry:
    unsigned long long hash
    char* key
    Py_ssize_t length
    int cid
    char hidden
    char before
    char after


cdef struct Frame:
    int tag  # index into the walk's tag names, -1 for a node that is not an element
    int ctx
    char live
    char brk_after


cdef inline void set_frame(Frame* fr, int tag, int ctx, bint live, bint brk_after) noexcept nogil:
    fr.tag = tag
    fr.ctx = ctx
    fr.live = live
    fr.brk_after = brk_after


cdef inline unsigned long long key_hash(const unsigned char* data, Py_ssize_t n) noexcept nogil:
    """A hash of the key's bytes, eight at a time (style attributes run to a hundred bytes)."""
    cdef unsigned long long h = 14695981039346656037ULL ^ <unsigned long long>n, w
    cdef Py_ssize_t i = 0
    while i + 8 <= n:
        memcpy(&w, data + i, 8)
        h = (h ^ w) * 0x9E3779B97F4A7C15ULL
        h ^= h >> 29
        i += 8
    w = 0
    if i < n:
        memcpy(&w, data + i, n - i)
    h = (h ^ w) * 0x9E3779B97F4A7C15ULL
    return h ^ (h >> 32)


cdef inline const_xmlChar* attr_value(tree.xmlAttr* a) noexcept nogil:
    """The value of an attribute held as one text node (nearly all), else NULL (read through lxml instead)."""
    cdef tree.xmlNode* c = a.children
    if c is NULL:
        return <const_xmlChar*>b""
    if c.next is NULL and c.type == tree.XML_TEXT_NODE:
        return c.content
    return NULL


cdef inline bint is_ascii_space(unsigned char b) noexcept nogil:
    """What str.split() splits on, among ASCII bytes."""
    return b == 32 or 9 <= b <= 13 or 28 <= b <= 31


cdef inline tree.xmlNode* text_node_or_skip(tree.xmlNode* c) noexcept nogil:
    """c when it is a text node, skipping XInclude markers; NULL at any other node (lxml's _textNodeOrSkip:
    what .text and .tail collect)."""
    while c is not NULL:
        if c.type == tree.XML_TEXT_NODE or c.type == tree.XML_CDATA_SECTION_NODE:
            return c
        if c.type == tree.XML_XINCLUDE_START or c.type == tree.XML_XINCLUDE_END:
            c = c.next
        else:
            return NULL
    return NULL


cdef class _Walker:
    cdef object styles, style_cache_py, h  # _Styles, its cache (kept in step), the html_doc module
    cdef list names  # tag index -> tag name
    cdef dict name_index  # tag name -> tag index
    cdef int* flags
    cdef int n_names
    cdef TagSlot* slots
    cdef int tag_slots_used
    cdef StyleEntry* entries
    cdef Py_ssize_t n_entries, cap_entries
    cdef int* table  # open addressing over the entries by key hash
    cdef size_t table_size
    cdef char* keybuf
    cdef Py_ssize_t keycap
    # per style context (index = context id): what flush and the walk need of it
    cdef char* c_bold
    cdef char* c_italic
    cdef char* c_underline
    cdef char* c_centered
    cdef char* c_caps
    cdef char* c_pre
    cdef double* c_size
    cdef int n_ctx, cap_ctx
    # runs: their text as UTF-8 in one buffer (decoded once per block), where each starts, its context id and
    # whether it is a cell separator
    cdef char* buf
    cdef Py_ssize_t buf_len, buf_cap
    cdef Py_ssize_t* run_start
    cdef int* run_ctx
    cdef char* run_sep
    cdef Py_ssize_t n_runs
    cdef unsigned char* out  # the normalised text of a block
    cdef Py_ssize_t out_cap
    cdef Py_ssize_t cap_runs
    # the builder's state (html_doc._Builder)
    cdef public list blocks
    cdef list ids, links
    cdef str tag
    cdef bint break_pending
    cdef int table_id
    cdef object Block, Style, FactMark
    cdef dict attr_names  # libxml2's interned attribute name -> lower-case name (html_doc.element_attrs)
    cdef Py_ssize_t max_fact_text
    # flush scratch: per-context character counts
    cdef long long* counts
    cdef int* seen
    cdef int cap_counts

    def __cinit__(self):
        self.slots = <TagSlot*>malloc(TAG_SLOTS * sizeof(TagSlot))
        if self.slots is NULL:
            raise MemoryError()
        cdef int i
        for i in range(TAG_SLOTS):
            self.slots[i].name = NULL
            self.slots[i].ns = NULL
            self.slots[i].index = -1
        self.flags = NULL
        self.entries = NULL
        self.table = NULL
        self.table_size = 0
        self.keybuf = NULL
        self.c_bold = self.c_italic = self.c_underline = self.c_centered = self.c_caps = self.c_pre = NULL
        self.c_size = NULL
        self.run_ctx = NULL
        self.run_sep = NULL
        self.run_start = NULL
        self.buf = NULL
        self.out = NULL
        self.out_cap = 0
        self.counts = NULL
        self.seen = NULL

    def __dealloc__(self):
        cdef Py_ssize_t i
        if self.entries is not NULL:
            for i in range(self.n_entries):
                free(self.entries[i].key)
            free(self.entries)
        free(self.slots)
        free(self.table)
        free(self.flags)
        free(self.keybuf)
        free(self.c_bold); free(self.c_italic); free(self.c_underline); free(self.c_centered); free(self.c_caps)
        free(self.c_pre); free(self.c_size)
        free(self.run_ctx); free(self.run_sep); free(self.run_start); free(self.buf); free(self.out)
        free(self.counts); free(self.seen)

    def __init__(self, styles, h):
        self.styles = styles
        self.style_cache_py = styles.cache
        self.h = h
        self.names = []
        self.name_index = {}
        self.n_names = 0
        self.tag_slots_used = 0
        self.cap_entries = 1024
        self.n_entries = 0
        self.entries = <StyleEntry*>malloc(self.cap_entries * sizeof(StyleEntry))
        self.table_size = 2048
        self.table = <int*>malloc(self.table_size * sizeof(int))
        if self.table is NULL:
            raise MemoryError()
        cdef size_t t
        for t in range(self.table_size):
            self.table[t] = -1
        self.keycap = 256
        self.keybuf = <char*>malloc(self.keycap)
        self.n_ctx = 0
        self.cap_ctx = 0
        self.n_runs = 0
        self.cap_runs = 256
        self.run_ctx = <int*>malloc(self.cap_runs * sizeof(int))
        self.run_sep = <char*>malloc(self.cap_runs)
        self.run_start = <Py_ssize_t*>malloc(self.cap_runs * sizeof(Py_ssize_t))
        self.buf_len = 0
        self.buf_cap = 1 << 16
        self.buf = <char*>malloc(self.buf_cap)
        if self.run_start is NULL or self.buf is NULL:
            raise MemoryError()
        self.cap_counts = 0
        if self.entries is NULL or self.keybuf is NULL or self.run_ctx is NULL or self.run_sep is NULL:
            raise MemoryError()
        self.blocks = []
        self.ids = []
        self.links = []
        self.tag = "p"
        self.break_pending = False
        self.table_id = 0
        from parsers.blocks import Block, Style
        self.Block, self.Style = Block, Style
        self.FactMark = h.FactMark
        self.attr_names = {}
        self.max_fact_text = h.MAX_FACT_TEXT
        self.sync_ctxs()

    # -- style contexts ---------------------------------------------------------------------------------------

    cdef int sync_ctxs(self) except -1:
        """Mirror the contexts _Styles has made since the last call into the C arrays."""
        cdef int n, cap, i
        ctxs = self.styles.ctxs
        n = len(ctxs)
        if n > self.cap_ctx:
            cap = max(n, 2 * self.cap_ctx, 16)
            self.c_bold = <char*>realloc(self.c_bold, cap)
            self.c_italic = <char*>realloc(self.c_italic, cap)
            self.c_underline = <char*>realloc(self.c_underline, cap)
            self.c_centered = <char*>realloc(self.c_centered, cap)
            self.c_caps = <char*>realloc(self.c_caps, cap)
            self.c_pre = <char*>realloc(self.c_pre, cap)
            self.c_size = <double*>realloc(self.c_size, cap * sizeof(double))
            self.counts = <long long*>realloc(self.counts, cap * sizeof(long long))
            self.seen = <int*>realloc(self.seen, cap * sizeof(int))
            if (self.c_bold is NULL or self.c_italic is NULL or self.c_underline is NULL or self.c_centered is NULL
                    or self.c_caps is NULL or self.c_pre is NULL or self.c_size is NULL or self.counts is NULL
                    or self.seen is NULL):
                raise MemoryError()
            for i in range(self.cap_ctx, cap):
                self.counts[i] = -1
            self.cap_ctx = cap
        for i in range(self.n_ctx, n):
            c = ctxs[i]
            self.c_bold[i] = bool(c.bold)
            self.c_italic[i] = bool(c.italic)
            self.c_underline[i] = bool(c.underline)
            self.c_centered[i] = bool(c.centered)
            self.c_caps[i] = bool(c.caps)
            self.c_pre[i] = bool(c.pre)
            self.c_size[i] = c.size
        self.n_ctx = n
        return 0

    # -- tags -------------------------------------------------------------------------------------------------

    cdef int tag_index(self, tree.xmlNode* c) except -2:
        """The index of an element's tag name (html_doc.element_tag), cached on libxml2's name and namespace
        pointers: names are interned per document and namespaces shared, so a filing has a few dozen pairs."""
        cdef size_t hv = ((<size_t>c.name) >> 3) * 31 + ((<size_t>c.ns) >> 3)
        cdef int k = <int>(hv % TAG_SLOTS), probes = 0
        while probes < TAG_SLOTS:
            if self.slots[k].index < 0:
                break
            if self.slots[k].name == c.name and self.slots[k].ns == c.ns:
                return self.slots[k].index
            k = (k + 1) % TAG_SLOTS
            probes += 1
        index = self.add_name(self.tag_name(c))
        if probes < TAG_SLOTS and self.tag_slots_used < TAG_SLOTS // 2:
            self.slots[k].name = c.name
            self.slots[k].ns = c.ns
            self.slots[k].index = index
            self.tag_slots_used += 1
        return index

    cdef str tag_name(self, tree.xmlNode* c):
        local = PyUnicode_DecodeUTF8(<const char*>c.name, strlen(<const char*>c.name), "replace")
        if c.ns is NULL or c.ns.href is NULL:
            return local.lower()
        if strcmp(<const char*>c.ns.href, XHTML_NS) == 0:
            return local.lower()
        if strcmp(<const char*>c.ns.href, IX_NS) == 0:
            return f"ix:{local}".lower()
        if c.ns.prefix is not NULL:
            prefix = PyUnicode_DecodeUTF8(<const char*>c.ns.prefix, strlen(<const char*>c.ns.prefix), "replace")
            if prefix:
                return f"{prefix}:{local}".lower()
        return local.lower()

    cdef int add_name(self, str name) except -1:
        known = self.name_index.get(name)  # the same name through another namespace declaration
        if known is not None:
            return known
        h = self.h
        cdef int f = 0
        if not name or name in h._SKIP:
            f |= F_SKIP
        if name in h._BLOCKISH:
            f |= F_BLOCKISH
        if name in h._BLOCK_TAGS:
            f |= F_BLOCK_TAG
        if name in h._TABLE_ENDS:
            f |= F_TABLE_END
        if name in h._FACT_TAGS:
            f |= F_FACT
        f |= _NAME_FLAGS.get(name, 0)
        self.flags = <int*>realloc(self.flags, (self.n_names + 1) * sizeof(int))
        if self.flags is NULL:
            raise MemoryError()
        self.flags[self.n_names] = f
        self.names.append(name)
        self.name_index[name] = self.n_names
        self.n_names += 1
        return self.n_names - 1

    # -- runs and blocks --------------------------------------------------------------------------------------

    cdef int new_run(self, Py_ssize_t nbytes, int ctx) except -1:
        """Room for a run of ``nbytes`` bytes at self.buf + self.buf_len; the caller copies and calls end_run."""
        cdef Py_ssize_t n = self.n_runs
        if n >= self.cap_runs:
            self.cap_runs *= 2
            self.run_ctx = <int*>realloc(self.run_ctx, self.cap_runs * sizeof(int))
            self.run_sep = <char*>realloc(self.run_sep, self.cap_runs)
            self.run_start = <Py_ssize_t*>realloc(self.run_start, self.cap_runs * sizeof(Py_ssize_t))
            if self.run_ctx is NULL or self.run_sep is NULL or self.run_start is NULL:
                raise MemoryError()
        if self.buf_len + nbytes > self.buf_cap:
            while self.buf_len + nbytes > self.buf_cap:
                self.buf_cap *= 2
            self.buf = <char*>realloc(self.buf, self.buf_cap)
            if self.buf is NULL:
                raise MemoryError()
        self.run_ctx[n] = ctx
        self.run_start[n] = self.buf_len
        return 0

    cdef inline void end_run(self, Py_ssize_t nbytes, bint sep) noexcept:
        # A text that reads " | " counts as a separator too, as in the Python walk's comparisons.
        self.run_sep[self.n_runs] = sep or (nbytes == 3 and memcmp(self.buf + self.buf_len, b" | ", 3) == 0)
        self.buf_len += nbytes
        self.n_runs += 1

    cdef int add_bytes(self, const char* data, Py_ssize_t nbytes, int ctx, bint sep) except -1:
        self.new_run(nbytes, ctx)
        memcpy(self.buf + self.buf_len, data, nbytes)
        self.end_run(nbytes, sep)
        return 0

    cdef int add_str(self, str text, int ctx) except -1:
        data = text.encode("utf-8", "surrogatepass")
        return self.add_bytes(<const char*>(<bytes>data), len(<bytes>data), ctx, False)

    cdef int add_text(self, tree.xmlNode* c, int ctx) except -1:
        """The text of the run of text nodes from c (lxml's .text from an element's first child, .tail from its
        next sibling), when not empty."""
        cdef tree.xmlNode* first = text_node_or_skip(c)
        cdef tree.xmlNode* n = first
        cdef Py_ssize_t total = 0, k
        while n is not NULL:
            total += strlen(<const char*>n.content)
            n = text_node_or_skip(n.next)
        if total == 0:
            return 0
        self.new_run(total, ctx)
        n = first
        total = 0
        while n is not NULL:
            k = strlen(<const char*>n.content)
            memcpy(self.buf + self.buf_len + total, n.content, k)
            total += k
            n = text_node_or_skip(n.next)
        self.end_run(total, False)
        return 0

    cdef str run_text(self, Py_ssize_t i):
        cdef Py_ssize_t end = self.run_start[i + 1] if i + 1 < self.n_runs else self.buf_len
        return PyUnicode_DecodeUTF8(self.buf + self.run_start[i], end - self.run_start[i], "surrogatepass")

    cdef int flush(self, str tag=None) except -1:
        cdef Py_ssize_t n = self.n_runs, i, j0, j1
        cdef const unsigned char* u = <const unsigned char*>self.buf
        if n == 0:
            self.tag = "p"
            return 0
        cdef bint pre = False
        if self.styles.pre:
            for i in range(n):
                if self.c_pre[self.run_ctx[i]]:
                    pre = True
                    break
        h = self.h
        if pre:
            raw = PyUnicode_DecodeUTF8(self.buf, self.buf_len, "surrogatepass")
            raw = raw.replace("\xa0", " ").replace("\u200b", "")
            text = "\n".join([line.rstrip() for line in raw.strip("\n").splitlines()])
            if "|" in text:
                text = h._EDGE_PIPES.sub("", text)
                text = h._PIPE_RUN.sub("|", text).strip()
        else:
            text = self.normalized()
        if not text:
            self.n_runs = self.buf_len = 0
            self.tag = "p"
            return 0
        # Characters per context, in the order contexts first appear (ties of the size vote go to the first).
        cdef int n_seen = 0, cid, j
        cdef long long total = 0, m, k, bold = 0, italic = 0, underline = 0, centered = 0, caps = 0
        for i in range(n):
            if self.run_sep[i]:
                continue
            cid = self.run_ctx[i]
            if self.counts[cid] < 0:
                self.counts[cid] = 0
                self.seen[n_seen] = cid
                n_seen += 1
            # len(s) - s.count(" ") on the UTF-8: characters are the bytes that do not continue one.
            j1 = self.run_start[i + 1] if i + 1 < n else self.buf_len
            k = 0
            for j0 in range(self.run_start[i], j1):
                if (u[j0] & 0xC0) != 0x80 and u[j0] != 32:
                    k += 1
            self.counts[cid] += k
        sizes = {}
        for j in range(n_seen):
            cid = self.seen[j]
            m = self.counts[cid]
            self.counts[cid] = -1
            if m <= 0:
                continue
            total += m
            bold += m * self.c_bold[cid]
            italic += m * self.c_italic[cid]
            underline += m * self.c_underline[cid]
            centered += m * self.c_centered[cid]
            caps += m * self.c_caps[cid]
            size = self.c_size[cid]
            sizes[size] = sizes.get(size, 0) + m
        if total == 0:
            total = 1
        cdef double limit = 0.9 * <double>total
        # Positional: keyword arguments cost as much again (the field order is parsers.blocks').
        style = self.Style(bold >= limit, italic >= limit, underline >= limit,
                           max(sizes, key=sizes.__getitem__) if sizes else 0.0, centered >= limit)
        if caps >= limit:
            text = text.upper()
        self.blocks.append(self.Block(text, tag or self.tag, style, self.ids, self.links, 1, self.table_id > 0,
                                      self.break_pending, self.table_id))
        self.n_runs = self.buf_len = 0
        self.ids = []
        self.links = []
        self.tag = "p"
        self.break_pending = False
        return 0

    cdef str normalized(self):
        """The runs' text as html_doc._Builder.flush makes it outside preformatted text, on the UTF-8 bytes:
        " ".join(raw.replace("\u200b", "").split()), then a table row's pipes (text.strip("| ") and
        _PIPE_RUN.sub("|", text)). Whitespace is what str.split() splits on."""
        cdef Py_ssize_t L = self.buf_len, i = 0, n = 0, clen, a, z, j, m, last
        if L > self.out_cap:
            self.out_cap = 2 * L
            free(self.out)
            self.out = <unsigned char*>malloc(self.out_cap)
            if self.out is NULL:
                raise MemoryError()
        cdef const unsigned char* u = <const unsigned char*>self.buf
        cdef unsigned char* o = self.out
        cdef unsigned char b, b1, b2
        cdef bint space = False, pipes = False
        while i < L:
            b = u[i]
            if 0x21 <= b <= 0x7E:  # a run of printable ASCII, copied whole
                j = i + 1
                while j < L and 0x21 <= u[j] <= 0x7E:
                    j += 1
                if space:
                    o[n] = 32
                    n += 1
                    space = False
                if not pipes and memchr(u + i, 124, j - i) is not NULL:
                    pipes = True
                memcpy(o + n, u + i, j - i)
                n += j - i
                i = j
                continue
            if b < 0x80:
                if is_ascii_space(b):
                    space = n > 0
                    i += 1
                    while i < L and is_ascii_space(u[i]):
                        i += 1
                    continue
                clen = 1
                if b == 124:
                    pipes = True
            else:
                clen = 2 if b < 0xE0 else (3 if b < 0xF0 else 4)
                if i + clen > L:
                    clen = L - i
                b1 = u[i + 1] if clen > 1 else 0
                b2 = u[i + 2] if clen > 2 else 0
                if b == 0xE2 and b1 == 0x80 and b2 == 0x8B:  # U+200B: dropped
                    i += 3
                    continue
                if ((b == 0xC2 and (b1 == 0x85 or b1 == 0xA0))  # U+0085, U+00A0
                        or (b == 0xE1 and b1 == 0x9A and b2 == 0x80)  # U+1680
                        or (b == 0xE2 and b1 == 0x80 and (b2 <= 0x8A or b2 == 0xA8 or b2 == 0xA9 or b2 == 0xAF))
                        or (b == 0xE2 and b1 == 0x81 and b2 == 0x9F)  # U+205F
                        or (b == 0xE3 and b1 == 0x80 and b2 == 0x80)):  # U+3000
                    space = n > 0
                    i += clen
                    continue
            if space:
                o[n] = 32
                n += 1
                space = False
            memcpy(o + n, u + i, clen)
            n += clen
            i += clen
        a, z = 0, n
        if pipes:
            while a < z and (o[a] == 124 or o[a] == 32):
                a += 1
            while z > a and (o[z - 1] == 124 or o[z - 1] == 32):
                z -= 1
            # A run of pipes with single spaces between them is one pipe (_PIPE_RUN), in place.
            j = a
            m = a
            while m < z:
                o[j] = o[m]
                j += 1
                if o[m] == 124:
                    last = m
                    i = m + 1
                    while True:
                        if i < z and o[i] == 32:
                            i += 1
                        if i < z and o[i] == 124:
                            last = i
                            i += 1
                        else:
                            break
                    m = last + 1
                else:
                    m += 1
            z = j
        return PyUnicode_DecodeUTF8(<const char*>o + a, z - a, "surrogatepass")

    # -- styles -----------------------------------------------------------------------------------------------

    cdef StyleEntry* style_of(self, int ctx, int tag, const_xmlChar* style, const_xmlChar* align,
                              const_xmlChar* size, bint hidden) except NULL:
        """The context inside an element, from a C table keyed on the attributes' bytes; a key not met before
        is computed by html_doc._Styles (and so cached there too)."""
        cdef Py_ssize_t ls = strlen(<const char*>style), la = strlen(<const char*>align)
        cdef Py_ssize_t lz = strlen(<const char*>size)
        cdef Py_ssize_t length = 2 * sizeof(int) + 1 + ls + 1 + la + 1 + lz
        if length > self.keycap:
            self.keycap = 2 * length
            self.keybuf = <char*>realloc(self.keybuf, self.keycap)
            if self.keybuf is NULL:
                raise MemoryError()
        cdef char* p = self.keybuf
        memcpy(p, &ctx, sizeof(int))
        memcpy(p + sizeof(int), &tag, sizeof(int))
        p[2 * sizeof(int)] = hidden
        p += 2 * sizeof(int) + 1
        memcpy(p, style, ls)
        p[ls] = 0
        p += ls + 1
        memcpy(p, align, la)
        p[la] = 0
        p += la + 1
        memcpy(p, size, lz)
        cdef unsigned long long hv = key_hash(<const unsigned char*>self.keybuf, length)
        cdef size_t mask = self.table_size - 1
        cdef size_t k = <size_t>(hv & mask)
        cdef int at
        cdef StyleEntry* e
        while True:
            at = self.table[k]
            if at < 0:
                break
            e = &self.entries[at]
            if e.hash == hv and e.length == length and memcmp(e.key, self.keybuf, length) == 0:
                return e
            k = (k + 1) & mask
        key = (ctx, self.names[tag], PyUnicode_DecodeUTF8(<const char*>style, ls, "replace"),
               PyUnicode_DecodeUTF8(<const char*>align, la, "replace"),
               PyUnicode_DecodeUTF8(<const char*>size, lz, "replace"), bool(hidden))
        hit = self.style_cache_py.get(key)
        cid, hid, before, after = hit if hit is not None else self.styles.inside(key)
        self.sync_ctxs()
        if self.n_entries >= self.cap_entries:
            self.cap_entries *= 2
            self.entries = <StyleEntry*>realloc(self.entries, self.cap_entries * sizeof(StyleEntry))
            if self.entries is NULL:
                raise MemoryError()
        e = &self.entries[self.n_entries]
        e.key = <char*>malloc(length)
        if e.key is NULL:
            raise MemoryError()
        memcpy(e.key, self.keybuf, length)
        e.hash = hv
        e.length = length
        e.cid = cid
        e.hidden = hid
        e.before = before
        e.after = after
        self.table[k] = <int>self.n_entries
        self.n_entries += 1
        if 2 * self.n_entries > <Py_ssize_t>self.table_size:
            self.grow_table()
        return &self.entries[self.n_entries - 1]

    cdef int grow_table(self) except -1:
        cdef size_t size = 2 * self.table_size, mask = size - 1, k
        cdef int* table = <int*>malloc(size * sizeof(int))
        if table is NULL:
            raise MemoryError()
        cdef Py_ssize_t i
        for i in range(<Py_ssize_t>size):
            table[i] = -1
        for i in range(self.n_entries):
            k = <size_t>(self.entries[i].hash & mask)
            while table[k] >= 0:
                k = (k + 1) & mask
            table[k] = <int>i
        free(self.table)
        self.table = table
        self.table_size = size
        return 0

    # -- the walk ---------------------------------------------------------------------------------------------

    cdef bint spacer_cell(self, int ctx, const_xmlChar* style, bint has_id) except -1:
        """html_doc._spacer_cell, on the attributes already read."""
        if has_id or self.c_pre[ctx]:
            return False
        if strstr(<const char*>style, b"reak") is not NULL or strstr(<const char*>style, b"REAK") is not NULL:
            return False
        cdef Py_ssize_t n = self.n_runs
        return n == 0 or self.run_sep[n - 1] or (n > 1 and self.run_sep[n - 2] and self.run_text(n - 1).isspace())

    cdef object fact_mark(self, cetree._Document doc, tree.xmlNode* c, int tag):
        """html_doc.FactMark(tag, element_attrs(el), fact_value(el, tag), block) read from the C node; a fact
        with markup inside takes html_doc.fact_value."""
        h = self.h
        name = self.names[tag]
        cdef dict attrs = {}
        cdef tree.xmlAttr* a = c.properties
        cdef const_xmlChar* av
        while a is not NULL:
            key = self.attr_names.get(<size_t>a.name)
            if key is None:
                key = PyUnicode_DecodeUTF8(<const char*>a.name, strlen(<const char*>a.name), "replace").lower()
                if len(self.attr_names) < 10_000:
                    self.attr_names[<size_t>a.name] = key
            av = attr_value(a)
            if av is NULL:
                attrs[key] = cetree.attributeValue(c, a)
            else:
                attrs[key] = PyUnicode_DecodeUTF8(<const char*>av, strlen(<const char*>av), "replace")
            a = a.next
        if cetree.hasChild(c):
            value = self.nested_fact_value(c, (self.flags[tag] & F_NONFRACTION) != 0)
            if value is None:  # a comment, PI or entity inside: lxml's itertext decides what is text
                value = h.fact_value(cetree.elementFactory(doc, c), name)
        else:
            text = cetree.textOf(c)
            value = " ".join(text.split()) if text else ""
            if not (self.flags[tag] & F_NONFRACTION):
                value = value[:self.max_fact_text]
        return self.FactMark(name, attrs, value, len(self.blocks))

    cdef object nested_fact_value(self, tree.xmlNode* top, bint number):
        """html_doc.fact_value of a fact with elements inside: its itertext, whitespace normalised, a text fact's
        first MAX_FACT_TEXT characters (read only as far as they go); None when the subtree holds anything but
        elements and text."""
        cdef Py_ssize_t start = self.buf_len, check = 2 * self.max_fact_text
        cdef tree.xmlNode* c = top
        cdef tree.xmlNode* nxt
        cdef bint done = False
        try:
            self.fact_text(c.children)
            c = cetree.findChildForwards(top, 0)
            while c is not NULL and not done:
                if c.type != tree.XML_ELEMENT_NODE:
                    return None
                self.fact_text(c.children)
                nxt = cetree.findChildForwards(c, 0)
                if nxt is NULL:
                    while True:  # up until a node has a next sibling; each node passed gives its tail
                        self.fact_text(c.next)
                        nxt = cetree.nextElement(c)
                        if nxt is not NULL:
                            break
                        c = c.parent
                        if c == top:
                            done = True
                            break
                c = nxt
                if not number and self.buf_len - start >= check:
                    text = " ".join(PyUnicode_DecodeUTF8(self.buf + start, self.buf_len - start, "surrogatepass").split())
                    # Later text can only lengthen the last word or add words after it.
                    if text.rfind(" ") >= self.max_fact_text:
                        return text[:self.max_fact_text]
                    check *= 2
            text = " ".join(PyUnicode_DecodeUTF8(self.buf + start, self.buf_len - start, "surrogatepass").split())
            return text if number else text[:self.max_fact_text]
        finally:
            self.buf_len = start

    cdef int fact_text(self, tree.xmlNode* c) except -1:
        """Append the text nodes from c to the buffer, past the runs (scratch space for nested_fact_value)."""
        cdef tree.xmlNode* n = text_node_or_skip(c)
        cdef Py_ssize_t k
        while n is not NULL:
            k = strlen(<const char*>n.content)
            if self.buf_len + k > self.buf_cap:
                while self.buf_len + k > self.buf_cap:
                    self.buf_cap *= 2
                self.buf = <char*>realloc(self.buf, self.buf_cap)
                if self.buf is NULL:
                    raise MemoryError()
            memcpy(self.buf + self.buf_len, n.content, k)
            self.buf_len += k
            n = text_node_or_skip(n.next)
        return 0

    def walk(self, cetree._Element root not None):
        """(fact marks, the ix:header element or None, elements read flat past MAX_DEPTH); blocks in .blocks."""
        h = self.h
        cdef cetree._Document doc = root._doc
        cdef tree.xmlNode* top = root._c_node
        cdef tree.xmlNode* c = top
        cdef tree.xmlNode* nxt
        cdef tree.xmlAttr* a
        cdef Frame* stack = <Frame*>malloc(64 * sizeof(Frame))
        cdef Py_ssize_t sp = 0, cap = 64
        cdef int* tables_open = <int*>malloc(64 * sizeof(int))
        cdef Py_ssize_t n_open = 0, cap_open = 64
        if stack is NULL or tables_open is NULL:
            free(stack); free(tables_open)
            raise MemoryError()
        cdef int tables = 0, depth_capped = 0, max_depth = h.MAX_DEPTH
        cdef int tag, f, ctx, inner
        cdef bint descend, hidden_attr, has_id
        cdef const_xmlChar* style
        cdef const_xmlChar* align
        cdef const_xmlChar* size
        cdef const_xmlChar* v_id
        cdef const_xmlChar* v_name
        cdef const_xmlChar* v_href
        cdef const_xmlChar* an
        cdef const_xmlChar* av
        cdef StyleEntry* st
        cdef Frame fr
        cdef list keep  # attribute values read through lxml (not one text node) live here while in use
        facts = []
        header = None
        stack[0].tag = -1
        stack[0].ctx = 0
        stack[0].live = False
        stack[0].brk_after = False
        sp = 1
        try:
            while True:
                # -- start of c --
                if sp >= cap:
                    cap *= 2
                    stack = <Frame*>realloc(stack, cap * sizeof(Frame))
                    if stack is NULL:
                        raise MemoryError()
                ctx = stack[sp - 1].ctx
                descend = False
                if c.type != tree.XML_ELEMENT_NODE:
                    tag, f = -1, F_SKIP
                else:
                    tag = self.tag_index(c)
                    f = self.flags[tag]
                if f & F_SKIP:
                    if f & F_IXHEADER:
                        header = cetree.elementFactory(doc, c)
                    set_frame(&stack[sp], tag, ctx, False, False)
                    sp += 1
                else:
                    style = align = size = v_id = v_name = v_href = NULL
                    hidden_attr = False
                    keep = None
                    a = c.properties
                    while a is not NULL:
                        if a.ns is NULL:
                            an = a.name
                            av = attr_value(a)
                            if av is NULL:
                                value = cetree.attributeValueFromNsName(c, NULL, an)
                                if value is None:
                                    a = a.next
                                    continue
                                value = (<str>value).encode("utf-8")
                                if keep is None:
                                    keep = []
                                keep.append(value)
                                av = <const_xmlChar*><const char*>(<bytes>value)
                            if strcmp(<const char*>an, b"style") == 0:
                                style = av
                            elif strcmp(<const char*>an, b"align") == 0:
                                align = av
                            elif strcmp(<const char*>an, b"size") == 0:
                                size = av
                            elif strcmp(<const char*>an, b"hidden") == 0:
                                hidden_attr = True
                            elif strcmp(<const char*>an, b"id") == 0:
                                v_id = av
                            elif strcmp(<const char*>an, b"name") == 0:
                                v_name = av
                            elif strcmp(<const char*>an, b"href") == 0:
                                v_href = av
                        a = a.next
                    if style is NULL:
                        style = <const_xmlChar*>b""
                    if align is NULL:
                        align = <const_xmlChar*>b""
                    if size is NULL or not (f & F_FONT):
                        size = <const_xmlChar*>b""
                    has_id = v_id is not NULL
                    if (f & F_TD) and text_node_or_skip(c.children) is NULL and not cetree.hasChild(c) and \
                            self.spacer_cell(ctx, style, has_id):
                        set_frame(&stack[sp], tag, 0, False, False)
                        sp += 1
                    else:
                        st = self.style_of(ctx, tag, style, align, size, hidden_attr)
                        inner = st.cid
                        if st.hidden:
                            el = cetree.elementFactory(doc, c)
                            header = next((x for x in el.iter() if h.element_tag(x) == "ix:header"), header)
                            set_frame(&stack[sp], tag, ctx, False, False)
                            sp += 1
                        else:
                            if (f & F_BLOCKISH) and (n_open == 0 or (f & F_TABLE_END)):
                                self.flush()
                                self.tag = self.names[tag] if f & F_BLOCK_TAG else "p"
                            if f & F_TABLE:
                                tables += 1
                                if n_open >= cap_open:
                                    cap_open *= 2
                                    tables_open = <int*>realloc(tables_open, cap_open * sizeof(int))
                                    if tables_open is NULL:
                                        raise MemoryError()
                                tables_open[n_open] = self.table_id
                                n_open += 1
                                if n_open == 1:
                                    self.table_id = tables
                            if st.before:
                                self.flush()
                                self.break_pending = True
                            if v_id is not NULL and v_id[0]:
                                self.ids.append(PyUnicode_DecodeUTF8(<const char*>v_id, strlen(<const char*>v_id), "replace"))
                            elif (f & F_A) and v_name is not NULL and v_name[0]:
                                self.ids.append(PyUnicode_DecodeUTF8(<const char*>v_name, strlen(<const char*>v_name), "replace"))
                            if f & F_A:
                                if v_href is not NULL and v_href[0] == 35 and v_href[1]:
                                    self.links.append(PyUnicode_DecodeUTF8(<const char*>v_href + 1, strlen(<const char*>v_href) - 1, "replace"))
                            elif f & F_BR:
                                self.add_bytes(b"\n" if self.c_pre[inner] else b" ", 1, inner, False)
                            elif f & F_FACT:
                                facts.append(self.fact_mark(doc, c, tag))
                            elif f & F_IMG:
                                el = cetree.elementFactory(doc, c)
                                alt = (el.get("alt") or "").strip()
                                if alt and not h._FILE_NAME.match(alt):
                                    self.add_str(f" {alt} ", inner)
                            self.add_text(c.children, inner)
                            descend = True
                            if sp >= max_depth and cetree.hasChild(c):
                                depth_capped += 1
                                el = cetree.elementFactory(doc, c)
                                flat = " ".join(el.xpath("descendant::text()"))
                                if flat:
                                    self.add_str(flat, inner)
                                descend = False
                            set_frame(&stack[sp], tag, inner, True, st.after)
                            sp += 1
                # -- into the children, else end c and move on --
                nxt = cetree.findChildForwards(c, 0) if descend else NULL
                if nxt is not NULL:
                    c = nxt
                    continue
                while True:
                    sp -= 1
                    fr = stack[sp]
                    if fr.live:
                        f = self.flags[fr.tag]
                        if (f & F_BLOCKISH) and (n_open == 0 or (f & F_TABLE_END)):
                            self.flush(self.names[fr.tag] if f & F_BLOCK_TAG else None)
                            if f & F_TABLE:
                                n_open -= 1
                                self.table_id = tables_open[n_open]
                        elif (f & (F_TD | F_TH)) and self.n_runs and not self.run_sep[self.n_runs - 1]:
                            self.add_bytes(b" | ", 3, 0, True)
                        if fr.brk_after:
                            self.flush()
                            self.break_pending = True
                    self.add_text(c.next, stack[sp - 1].ctx)
                    if c == top:
                        break
                    nxt = cetree.nextElement(c)
                    if nxt is not NULL:
                        c = nxt
                        break
                    c = c.parent
                if c == top and sp == 1:
                    break
            self.flush()
        finally:
            free(stack)
            free(tables_open)
        return facts, header, depth_capped


def walk(root, styles, h):
    """Blocks, fact marks, the ix:header element and the count of depth-capped elements of the tree at root,
    exactly as html_doc._walk gives them; ``styles`` is an html_doc._Styles, ``h`` the html_doc module."""
    w = _Walker(styles, h)
    facts, header, depth_capped = w.walk(root)
    return w.blocks, facts, header, depth_capped
