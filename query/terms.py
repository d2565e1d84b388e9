"""Each version's page terms (terms.parquet), written at index time, so that routing need not tokenise whole documents.

A question that names no document is routed by each candidate's own text (query.search, ``_by_text``): for every
candidate, which of its pages print the question's words. Building that from pages.parquet means normalising and
tokenising every page of every candidate: about 6 s from the prompt on a store of 13 manuals (3,866 pages), for a
question that then reads three of them. The indexer writes the postings instead: one row per (term, page) with the
term's count on that page, sorted by term, so that a question reads only the row groups of its own words.

The terms are exactly ``tokenize(normalize(page text))``, the page BM25 of query.lexical. When tokenisation changes,
:data:`TERMS_VERSION` moves (tests/query/test_terms.py pins it to the tokeniser's output) and tables written by an
older tokeniser are ignored: the reader falls back to building the postings from the pages, never to stale terms.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from query.normalize import normalize
from query.text import tokenize

#: The tokeniser's version the table was written with (schema metadata ``pagetree.terms_version``). Bump it with
#: any change to query.normalize or query.text.tokenize that changes tokens; the digest test says when.
TERMS_VERSION = "1"
VERSION_KEY = b"pagetree.terms_version"
PAGES_KEY = b"pagetree.page_count"
ROW_GROUP = 32_768  # rows per row group: a question's few terms touch a few groups of a 1,000-page manual's table


@dataclass
class PagePostings:
    """The pages of one document that print each of some terms: ``postings[term] = [(page index, count), ...]``,
    over ``n`` pages. The part of a page BM25 (query.text.BM25) that query.search.content_coverage reads."""

    n: int
    postings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


def page_term_counts(texts: Iterable[str]) -> list[Counter[str]]:
    """Each page's term counts, tokenised as query.lexical's page BM25 tokenises them."""
    return [Counter(tokenize(normalize(text or ""), normalized=True)) for text in texts]


def encode_terms(page_texts: Sequence[str]) -> bytes:
    """terms.parquet for a document's pages (page_number order): columns term, page (0-based index), count;
    sorted by term, then page."""
    import io

    import pyarrow as pa  # pyarrow only at index time and when a table is read
    import pyarrow.parquet as pq

    terms: list[str] = []
    pages: list[int] = []
    counts: list[int] = []
    for page, on_page in enumerate(page_term_counts(page_texts)):
        terms.extend(on_page)
        pages.extend([page] * len(on_page))
        counts.extend(on_page.values())
    # Sorted by Arrow (UTF-8 bytes: code point order, as Parquet's statistics and read_terms compare them), not as a
    # list of row tuples in Python (pgfmanual, 1,321 pages: 155,000 rows, written in 0.9 s).
    table = pa.table({"term": pa.array(terms, pa.string()), "page": pa.array(pages, pa.int32()),
                      "count": pa.array(counts, pa.int32())}).sort_by([("term", "ascending"), ("page", "ascending")])
    table = table.replace_schema_metadata({VERSION_KEY: TERMS_VERSION.encode(),
                                           PAGES_KEY: str(len(page_texts)).encode()})
    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd", row_group_size=ROW_GROUP)
    return sink.getvalue()


def read_terms(source: Any, terms: Sequence[str]) -> PagePostings | None:
    """The postings of ``terms`` from a terms.parquet (a local path or bytes); None when the table was written by
    another tokeniser version (the caller then builds the postings from the pages)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    src = pa.BufferReader(source) if isinstance(source, (bytes, bytearray)) else source
    pf = pq.ParquetFile(src)
    meta = pf.schema_arrow.metadata or {}
    if meta.get(VERSION_KEY) != TERMS_VERSION.encode():
        return None
    out = PagePostings(n=int(meta.get(PAGES_KEY, b"0")))
    wanted = sorted(set(terms))
    if not wanted:
        return out
    # Row groups are sorted by term: read only those whose [min, max] can hold an asked term.
    groups = []
    for i in range(pf.metadata.num_row_groups):
        stats = pf.metadata.row_group(i).column(0).statistics
        if stats is None or not stats.has_min_max or any(stats.min <= t <= stats.max for t in wanted):
            groups.append(i)
    if not groups:
        return out
    table = pf.read_row_groups(groups, columns=["term", "page", "count"])
    table = table.filter(pc.is_in(table["term"], value_set=pa.array(wanted, pa.string())))
    for term, page, n in zip(*(table[c].to_pylist() for c in ("term", "page", "count"))):
        out.postings.setdefault(term, []).append((page, n))
    return out
