"""Tokenizing and Okapi BM25, in plain Python.

A few dozen lines beat a dependency here: documents are one PDF's pages or
nodes (hundreds of items), so dict postings score a query in well under a
millisecond, and every retrieval method in the benchmark shares this exact
scorer so comparisons measure structure, not tokenizers.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from typing import Iterable, Mapping, Sequence

from query.normalize import normalize

_TOKEN = re.compile(r"[^\W_]+")
_LETTER_DIGIT = re.compile(r"[^\W\d_]+|\d+")
# An identifier as printed: word characters joined by the connectors of names in code and on the command line
# (snake_case, Class::method, file.ext, a/b, sb-unix:getenv, 4.2.0), or one word behind an option's dashes or a
# variable's dollar (--batch, $HOME); leading underscores stay (_start). Connectors count only between word
# characters, so a sentence's full stop or a trailing "?" is no part of a name.
_IDENT_PATTERN = r"(?:--?|\$|_+)?[^\W_]+(?:(?:::|[_./:$-])+[^\W_]+)+|(?:--?|\$)[^\W_]+"
# Never from inside a word: without the look-behind, findall retries every position of every plain word.
_IDENT = re.compile(rf"(?<![\w$-])(?:{_IDENT_PATTERN})")
# An identifier that opens a line, after at most a bullet, parenthesis or quote: where a name is defined (a heading,
# a definition line "OCTAL_ZEROES <S>", "m4_append_uniq_w (macro-name, strings)", a table's first column).
_LINE_IDENT = re.compile(rf"^[ \t\u2022\u00b7*(\[\u2018'\"]*({_IDENT_PATTERN})", re.MULTILINE)
# A declaration: a name after the words of its type or kind and before its parameters' parenthesis, opening a line
# ("OM_uint32 gss_release_buffer (", "const char * gss_check_version (", "void _fmpq_set_si(", "procedure Put_Line (").
_DECLARED = re.compile(rf"^[ \t]*(?:[^\W\d][\w]*[ \t]*\**[ \t]+\**){{1,3}}({_IDENT_PATTERN})[ \t]*\(", re.MULTILINE)

# The Snowball project's English stop word list (snowballstem.org/algorithms/english/stop.txt), without
# its contractions (the tokenizer splits them): a standard list, fitted to no question set. Question
# boilerplate ("explain", "provide", "manual") stays a query term; BM25's idf and the navigator weigh it.
STOPWORDS = frozenset(
    """i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers
    herself it its itself they them their theirs themselves what which who whom this that these those am is are
    was were be been being have has had having do does did doing would should could ought a an the and but if
    or because as until while of at by for with about against between into through during before after above
    below to from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor not only own same so than too very cannot""".split()
)


@functools.lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """A light suffix stripper (plurals, -ing, -ed): enough to join 'statements'/'statement'."""
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, repl in (("ies", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", "e"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + repl
    return word


def tokenize(text: str, *, normalized: bool = False) -> list[str]:
    """Lower-case word tokens of the normalised text (query.normalize), stop words removed, lightly stemmed.

    A token that mixes letters and digits ("fy2018", "10k") also yields its parts of two or more
    characters, so "FY2018" meets "fiscal year 2018" and "Form 10-K" meets "10K". ``normalized``: ``text`` is
    already normalize's output (a page of DocIndex.normalized_texts), which normalising again leaves as it is."""
    out: list[str] = []
    for t in _TOKEN.findall((text if normalized else normalize(text)).lower()):
        if t in STOPWORDS:
            continue
        out.append(stem(t))
        if not (t.isalpha() or t.isdigit()):
            out.extend(p for p in _LETTER_DIGIT.findall(t) if len(p) >= 2 and p not in STOPWORDS and p != t)
    return out


def identifiers(text: str, *, normalized: bool = False) -> list[str]:
    """The lower-cased identifiers of the normalised text (``gnutls_hash_fast``, ``--with-dbm``, ``std::vector``,
    ``config.site``, ``$PATH``), whole: :func:`tokenize` splits them into words, which a name's every neighbour
    shares; this exact form is printed only where the name itself is. Plain words are not identifiers."""
    return _IDENT.findall((text if normalized else normalize(text)).lower())


def line_identifiers(text: str, *, normalized: bool = False) -> list[str]:
    """The identifiers (:func:`identifiers`) that open a line of the text, or that a declaration on a line of its own
    names after its type (``int config_lookup_int64 (``): where a name is defined, not used."""
    lower = (text if normalized else normalize(text)).lower()
    return _LINE_IDENT.findall(lower) + _DECLARED.findall(lower)


_QUALIFIER = re.compile(r"::|[.:/]")


def qualified_parts(names: list[str]) -> list[str]:
    """Each identifier with the names it qualifies or is qualified by, as a reference prints them in full:
    ``osmnx.graph.graph_from_place`` also yields ``graph.graph_from_place`` and ``graph_from_place`` (its suffixes
    at ``.``, ``::``, ``:``, ``/``; not its prefixes, which every member of a module or class shares), and a name behind one namespace prefix of
    ``_``, ``m4_append_uniq_w``, also yields ``append_uniq_w``. Parts that are plain words are left to tokenize."""
    out: list[str] = []
    for name in names:
        out.append(name)
        cuts = [m for m in _QUALIFIER.finditer(name) if 0 < m.start()]
        for m in cuts:
            part = name[m.end():]
            if _IDENT.fullmatch(part):
                out.append(part)
        if not cuts:
            head, sep, rest = name.lstrip("_-$").partition("_")
            if sep and head and "_" in rest and _IDENT.fullmatch(rest):
                out.append(rest)
    return out


class BM25:
    """Okapi BM25 over a fixed list of token lists; ``scores(query_tokens)`` -> one float per item."""

    def __init__(self, docs: Sequence[Sequence[str]], k1: float = 1.2, b: float = 0.75):
        self.k1, self.b = k1, b
        self.n = len(docs)
        self.lengths = [len(d) for d in docs]
        self.avgdl = (sum(self.lengths) / self.n) if self.n else 0.0
        self.postings: dict[str, list[tuple[int, int]]] = {}
        for i, doc in enumerate(docs):
            for term, tf in Counter(doc).items():
                self.postings.setdefault(term, []).append((i, tf))
        self._norm = [k1 * (1 - b + b * (dl / self.avgdl)) if self.avgdl else k1 for dl in self.lengths]

    def idf(self, term: str) -> float:
        df = len(self.postings.get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def scores(self, query: Iterable[str] | Mapping[str, float]) -> list[float]:
        """One score per item; ``query`` is tokens, or {token: weight} for weighted query terms."""
        out = [0.0] * self.n
        for term, qtf in (query if isinstance(query, Mapping) else Counter(query)).items():
            postings = self.postings.get(term)
            if not postings:
                continue
            weight = self.idf(term) * qtf
            k1 = self.k1
            norm = self._norm
            for i, tf in postings:
                out[i] += weight * tf * (k1 + 1) / (tf + norm[i])
        return out


def top(scores: Sequence[float], k: int) -> list[int]:
    """Indices of the k highest positive scores, best first (ties: earlier index first)."""
    ranked = sorted((i for i, s in enumerate(scores) if s > 0), key=lambda i: (-scores[i], i))
    return ranked[:k]


def chunk_text(text: str, size: int = 500) -> list[str]:
    """Split into ~size-character chunks at whitespace (the flat-chunk baseline and chunk export)."""
    words = text.split()
    chunks, current, length = [], [], 0
    for word in words:
        if length + len(word) + 1 > size and current:
            chunks.append(" ".join(current))
            current, length = [], 0
        current.append(word)
        length += len(word) + 1
    if current:
        chunks.append(" ".join(current))
    return chunks
