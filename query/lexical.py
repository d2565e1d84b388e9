"""The offline lexical navigator: BM25 per page and per node, propagated up the tree, read best-first.

Scores: every page gets BM25 over its text (normalised to the document's best
page), plus ``heading_weight`` x BM25 over its headings (the page's first
lines, the finest level of the structure, and the titles of the sections that begin on it, wherever on the page the
tree says they are printed), plus ``title_weight`` x the BM25 of
the title and summary of the best-matching section that contains it (the best
one, not a sum: nesting depth is not relevance; the title's part in full on the page where that section begins,
where the title is printed, and ``continued_share`` of it on the section's later pages), plus ``definition_weight``
x the square of the largest idf-weighted share of the question's words that one of the page's definition lines
opens with (a glossary's or a reference's entry, "Scenario", "xpass Procedure", "Default_Switches: list";
:func:`definition_heads`), plus ``cue_weight`` when its
heading is the financial statement the question names and ``cue_weight`` again
when a containing section's title is, or ``implied_weight`` x that when the
question's metric is read from it (query.cues). So a page under "Consolidated Statements of Cash Flows" outranks
a page that merely mentions cash flows. A node's score is the best score of its
pages (the propagation up the tree); the navigator descends from the root like
a reader, always opening the most promising unexplored section, and reads a
section's best pages first.

The question's words are its query terms, less the words that name the document (its title, its kind), and less the
frame of a question whose subject is the document itself: in "Where does the manual explain X?" only X is asked
(:func:`asked_part`; the verb says what the document does, and pages that print it are no better answers).
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from index_store.model import SYNTHETIC_KINDS, Node
from query.cues import asked_statements, implied_statements, statement_kinds
from query.normalize import normalize
from query.snippet import page_snippet
from query.text import BM25, identifiers, line_identifiers, qualified_parts, tokenize

TITLE_WEIGHT = 0.3     # section titles/summaries containing the page
HEADING_WEIGHT = 0.3   # the page's own heading (its first lines): the tree's finest level
SECTION_WEIGHT = 0.3   # the own text of the best-matching section containing the page (whole-section evidence)
CONTINUED_SHARE = 0.3  # share of a section's title evidence its pages get after the one where it begins
IDENT_WEIGHT = 1.0     # an identifier of the question (query.text.identifiers) matched whole, beside its words
PAIR_WEIGHT = 0.6      # query terms next to each other on the page (proximity: a phrase beats scattered words)
DEFINITION_WEIGHT = 0.6  # (share of the question's words a definition line of the page opens with) squared
NAME_WEIGHT = 0.0      # query terms that name the document (its title, its kind) count this much inside it
CUE_WEIGHT = 1.0       # filing profile: a financial statement the question names, found in a heading or title
IMPLIED_WEIGHT = 0.5   # filing profile: share of cue_weight for a statement implied by a metric ("gross margin")
MAX_PAGES_PER_HIT = 5
HEADING_CHARS = 150
TOP_LINES = 4           # a running head sits in a page's first lines
RUNNING_MIN_PAGES = 4   # a top line repeated on this many pages (and RUNNING_SHARE of them) is a running head
RUNNING_SHARE = 0.03
_DIGITS = re.compile(r"\d+")
_GENERATED_TITLE = re.compile(r"^(pages?|part)\s+\d+", re.IGNORECASE)


@dataclass
class Hit:
    """One ranked section with its citation (pages best first)."""

    doc_id: str
    node_id: str
    path: str
    title: str
    start_page: int
    end_page: int
    pages: list[int]
    score: float
    version: str = ""
    snippet: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "node_id": self.node_id, "path": self.path, "start_page": self.start_page,
                "end_page": self.end_page, "pages": self.pages, "score": round(self.score, 6),
                "title": self.title, "version": self.version, "snippet": self.snippet}


def naming_of(doc: Any) -> frozenset[str]:
    """The tokens that name a document: its title's and its kind's ("the manual", "3M", "10-K").

    Numbers in a title (a fiscal year, an edition) say which document it is, but its pages differ in which
    numbers they print (a statement's columns are years), so they stay query terms inside it."""
    title = getattr(doc.tree, "title", None)
    return frozenset(t for t in tokenize(f"{title if isinstance(title, str) else doc.tree.root.title} {profile_of(doc)}")
                     if not t.isdigit())


# A question that asks what the document does: a question word, an auxiliary "do", then its subject and verb.
_DO_QUESTION = re.compile(r"^\W*(?:where|what|how|which|when|why|in\s+(?:what|which)\s+\w+)\s+(?:does|do|did)\s+(.+)$",
                          re.IGNORECASE | re.DOTALL)
_POSSESSIVE = re.compile(r"['\u2019]s?$")


def asked_part(question: str, naming: frozenset[str]) -> str:
    """What a question asks about, without the frame that names the document as the subject of its verb: "Where does
    the manual explain sensor calibration?" asks about "sensor calibration?". The subject must be the document's own
    name words (and words tokenize drops: "the", "this"), not possessive (in "What did Globex's revenue do?" the name
    opens a longer subject), and the verb must have an object after it; any other question is returned whole."""
    m = _DO_QUESTION.match(question)
    if not m or not naming:
        return question
    words = m.group(1).split()
    named = False
    for i, word in enumerate(words):
        tokens = tokenize(word)
        if tokens and not all(t in naming for t in tokens):
            break
        if _POSSESSIVE.search(word):
            return question
        named = named or bool(tokens)
    else:
        return question
    rest = words[i + 1:]
    if not named or not rest or not words[i].isalpha():
        return question
    return " ".join(rest)


def pairs(tokens: list[str]) -> list[str]:
    """Unordered pairs of neighbouring tokens ("tail recursion" and "recursion, tail" give the same pair)."""
    return [f"{a} {b}" if a <= b else f"{b} {a}" for a, b in zip(tokens, tokens[1:]) if a != b]


def profile_of(doc: Any) -> str:
    """The query profile a document gets: its doc_kind recorded at index time ("filing" turns on query.cues)."""
    kind = getattr(doc.tree, "doc_kind", None)
    return kind if isinstance(kind, str) else "other"


class LexicalIndex:
    """BM25 over one document's pages, page headings and node titles/summaries; built once per version."""

    def __init__(self, doc: Any):
        self.doc = doc
        pages = doc.pages()
        self.page_count = len(pages)
        texts = normalized_texts(doc)
        tokens = [tokenize(t, normalized=True) for t in texts]
        self.page_bm25 = BM25(tokens)
        self._tokens: list[list[str]] | None = tokens  # kept until the pair index is built (or not wanted)
        self._pair_bm25: BM25 | None = None
        self._own_bm25: BM25 | None = None
        self._ident: _Identifiers | None = None
        running = running_lines(texts)
        heads = [page_heading(t, running) for t in texts]
        # {token: [(page index, line)]}: the terms the pages' definition lines open with (a line numbered across the
        # document). Every question reads them, so they are built with the index; not for a filing, whose short
        # lines are the rows of its tables, not the entries of a glossary or a reference.
        self.defined = definition_postings(texts, running) if profile_of(doc) != "filing" else {}
        # Page-group titles ("Pages 11-20") say nothing about content: only real titles count.
        self.nodes: list[Node] = [n for n in doc.nodes() if n.level > 0 and n.extra.get("kind") not in SYNTHETIC_KINDS
                                  and not _GENERATED_TITLE.match(n.title)]
        self._heads = page_headings(heads, self.nodes)
        self.head_bm25 = BM25([tokenize(h, normalized=True) for h in self._heads])
        # The title counts twice: it is the reader's strongest cue, the summary a weaker one.
        self.meta_bm25 = BM25([tokenize(f"{n.title} {n.title} {n.summary}") for n in self.nodes])
        # Nearest real ancestor of each node, and each page's deepest containing nodes (several when
        # sibling sections share a page): section evidence is then carried down the tree, not summed.
        position = {id(n): i for i, n in enumerate(self.nodes)}
        self.parent = [-1] * len(self.nodes)
        stack: list[tuple[Node, int]] = [(doc.tree.root, -1)]
        while stack:
            node, above = stack.pop()
            for child in node.nodes:
                here = position.get(id(child))
                if here is not None:
                    self.parent[here] = above
                stack.append((child, above if here is None else here))
        self.deepest: list[list[int]] = [[] for _ in range(self.page_count)]
        for i, node in enumerate(self.nodes):
            up = self.parent[i]
            for p in range(node.start_page, min(node.end_page, self.page_count) + 1):
                on_page = self.deepest[p - 1]
                if up >= 0 and up in on_page:
                    on_page.remove(up)
                on_page.append(i)
        self.single = [d[0] if len(d) == 1 else -1 for d in self.deepest]
        self.position = {n.node_id: i for i, n in enumerate(self.nodes)}
        # (node, its first page's index): where a section begins, its title is printed and its topic introduced.
        self.begins = [(i, n.start_page - 1) for i, n in enumerate(self.nodes) if 1 <= n.start_page <= self.page_count]
        self.shared = [(p, d) for p, d in enumerate(self.deepest) if len(d) > 1]
        self.shared_of: dict[int, list[int]] = {}  # node -> the pages it shares with other deepest sections
        for p, on_page in self.shared:
            for j in on_page:
                self.shared_of.setdefault(j, []).append(p)
        self.own_pages: dict[int, list[int]] = {}  # node -> pages no child covers (filled by the descent)
        self.profile = profile_of(doc)
        self.naming = naming_of(doc)
        filing = self.profile == "filing"
        self.page_cues = [statement_kinds(h) if filing else set() for h in heads]
        self.node_cues = [statement_kinds(n.title) if filing else set() for n in self.nodes]

    @property
    def pair_bm25(self) -> BM25:
        """BM25 over pairs of neighbouring tokens per page; built on the first query that weighs proximity."""
        if self._pair_bm25 is None:
            self._pair_bm25 = BM25([pairs(t) for t in self._tokens or []])
            self._tokens = None
        return self._pair_bm25

    @property
    def own_bm25(self) -> BM25:
        """BM25 over each section's own text (nodes.parquet); built on the first query that weighs it."""
        if self._own_bm25 is None:
            own = self.doc.node_texts() if hasattr(self.doc, "node_texts") else {}
            self._own_bm25 = BM25([tokenize(own.get(n.node_id, "")) for n in self.nodes])
        return self._own_bm25

    @property
    def ident(self) -> _Identifiers:
        """BM25 over the identifiers of each page, page heading, node title/summary and node own text; built on the
        first question that names an identifier (most name none, and they then score exactly as without it)."""
        if self._ident is None:
            own = self.doc.node_texts() if hasattr(self.doc, "node_texts") else {}
            self._ident = _Identifiers(
                page=BM25([qualified_parts(identifiers(t, normalized=True)) for t in normalized_texts(self.doc)]),
                head=BM25([qualified_parts(line_identifiers(t, normalized=True)) for t in normalized_texts(self.doc)]),
                meta=BM25([qualified_parts(identifiers(f"{n.title} {n.title} {n.summary}")) for n in self.nodes]),
                own=BM25([qualified_parts(identifiers(own.get(n.node_id, ""))) for n in self.nodes]))
        return self._ident

    def definition_scores(self, q: Mapping[str, float], skip: set[str] = frozenset()) -> list[float]:
        """Per page, the square of the largest idf-weighted share of the query's terms that one of its definition lines
        opens with: a line that defines the whole term counts 1, one that shares one word of two a quarter (a heading
        "Multiple integrals" is no definition of "double integral"). The terms in ``skip`` count in the whole, never on
        a line; the terms no page prints count in neither."""
        out = [0.0] * self.page_count
        # A word the document never prints ("explain" of "Where does the manual explain ...?") is on no line: it
        # counts in no share, as BM25 gives it nothing either.
        printed = self.page_bm25.postings
        total = sum(self.page_bm25.idf(t) * w for t, w in q.items() if t in printed)
        if total <= 0:
            return out
        lines: dict[tuple[int, int], float] = {}
        defined = self.defined
        for t, w in q.items():
            if t in skip:
                continue
            share = self.page_bm25.idf(t) * w / total
            for key in defined.get(t, ()):
                lines[key] = lines.get(key, 0.0) + share
        for (p, _), v in lines.items():
            v *= v
            if v > out[p]:
                out[p] = v
        return out

    def query_terms(self, question: str, name_weight: float = NAME_WEIGHT) -> dict[str, float]:
        """{query token: weight}. Tokens that name the document itself (its title, its kind: "the manual",
        "3M", "10-K") picked the document; inside it every page is about them, so they weigh ``name_weight``."""
        weights: dict[str, float] = {}
        # "Where does the manual explain X?": when the document itself is the subject of the question, the verb says
        # what the document does (explain, describe, cover), not what the question is about; only X is asked.
        tokens = tokenize(asked_part(question, self.naming))
        # A question made only of such words ("Debian package" in a book on Debian packaging) asks about them: they
        # are then its terms, as document selection keeps them (query.search), instead of leaving nothing to match.
        # Its other words count only where the document prints them: "Where does the manual explain mlpy?" in a
        # book that never prints "explain" is a question about mlpy, not about "explain" (session 17v).
        printed = self.page_bm25.postings
        naming = self.naming if any(t not in self.naming and t in printed for t in tokens) else frozenset()
        for t in tokens:
            weights[t] = weights.get(t, 0.0) + (name_weight if t in naming else 1.0)
        return {t: w for t, w in weights.items() if w > 0}

    @staticmethod
    def _normalise(scores: list[float]) -> list[float]:
        best = max(scores, default=0.0)
        return [s / best for s in scores] if best > 0 else scores

    def score(self, question: str, title_weight: float = TITLE_WEIGHT, heading_weight: float = HEADING_WEIGHT,
              cue_weight: float = CUE_WEIGHT, implied_weight: float = IMPLIED_WEIGHT, section_weight: float = SECTION_WEIGHT,
              pair_weight: float = PAIR_WEIGHT, name_weight: float = NAME_WEIGHT,
              continued_share: float = CONTINUED_SHARE, ident_weight: float = IDENT_WEIGHT,
              definition_weight: float = DEFINITION_WEIGHT) -> tuple[list[float], dict[str, float]]:
        """(page scores indexed by page-1, node title scores by node_id), each part normalised to [0, 1]."""
        q = self.query_terms(question, name_weight)
        # An identifier the question names ("gnutls_hash_fast") is matched whole as one more term of the same
        # channel, beside the words tokenize splits it into, which every name of its family shares: in the page
        # text, heading, titles and own text alike, so that it weighs as a rare word would.
        qi = {t: ident_weight for t in identifiers(question)} if ident_weight else {}
        ident = self.ident if qi else None

        def plus(raw: list[float], extra: BM25 | None) -> list[float]:
            return raw if extra is None else [a + b for a, b in zip(raw, extra.scores(qi))]

        # Page text, heading and neighbouring pairs, each normalised to its best page, summed in one pass.
        channels = [(1.0, plus(self.page_bm25.scores(q), ident and ident.page))]
        if heading_weight:
            channels.append((heading_weight, plus(self.head_bm25.scores(q), ident and ident.head)))
        if pair_weight:
            channels.append((pair_weight, self.pair_bm25.scores(pairs(list(q)))))
        scaled = [(w / top_, raw) for w, raw in channels if (top_ := max(raw, default=0.0)) > 0]
        meta_raw = self._normalise(plus(self.meta_bm25.scores(q), ident and ident.meta))
        own_raw = self._normalise(plus(self.own_bm25.scores(q), ident and ident.own)) if section_weight \
            else [0.0] * len(self.nodes)
        meta = _TitleMatch(self.position, meta_raw)
        # The filing profile (query.cues) only for documents indexed as filings: never for manuals.
        filing = self.profile == "filing" and cue_weight
        wanted = asked_statements(question) if filing else set()
        weight = cue_weight
        if filing and not wanted and implied_weight:
            # No statement named: the metrics asked about still say where an analyst looks.
            wanted, weight = implied_statements(question), cue_weight * implied_weight
        # Section evidence comes from the best containing section, not the sum over all of them:
        # a page under six nested sections is no more relevant than one under a single section,
        # and a sum would let the depth of the tree (or a stack of one-page sections) outvote the text.
        # The best over a page's containing sections is the best along its path from the root: carried down
        # the tree once (pre-order), then read at the page's deepest sections. O(nodes + pages) per query.
        parent = self.parent
        # A section's title is printed where it begins: the index of a manual, and a reader, point at the page that
        # introduces a topic, not at the pages that continue it, which keep ``continued_share`` of the title's
        # evidence (and all of the own text's: that is the whole section's). The statement cues of a filing hold on
        # every page of the statement.
        own_t = [title_weight * m + section_weight * o for m, o in zip(meta_raw, own_raw)]
        best_t = own_t if continued_share == 1.0 else \
            [continued_share * title_weight * m + section_weight * o for m, o in zip(meta_raw, own_raw)]
        best_c = [weight if wanted & cues else 0.0 for cues in self.node_cues] if wanted else [0.0] * len(self.nodes)
        for i, up in enumerate(parent):
            if up >= 0:
                if best_t[up] > best_t[i]:
                    best_t[i] = best_t[up]
                if best_c[up] > best_c[i]:
                    best_c[i] = best_c[up]
        padded = best_t + [0.0]  # index -1: a page under no real section
        bonus = [padded[j] for j in self.single]
        # A page several deepest sections share takes the best of theirs: only sections with evidence can raise it
        # from 0 (most sections match none of a question's words), so only their shared pages are visited.
        shared_of = self.shared_of
        for j, v in enumerate(best_t):
            if v and j in shared_of:
                for p in shared_of[j]:
                    if v > bonus[p]:
                        bonus[p] = v
        if continued_share != 1.0:
            for i, p in self.begins:
                if own_t[i] > bonus[p]:
                    bonus[p] = own_t[i]
        if wanted:
            cues = best_c + [0.0]
            for p, j in enumerate(self.single):
                bonus[p] += cues[j]
            for p, on_page in self.shared:
                bonus[p] += max(best_c[j] for j in on_page)
        if len(scaled) == 1:
            (fa, a), = scaled
            pages = [fa * x for x in a]
        elif len(scaled) == 2:
            (fa, a), (fb, b) = scaled
            pages = [fa * x + fb * y for x, y in zip(a, b)]
        elif scaled:
            (fa, a), (fb, b), (fc, c) = scaled
            pages = [fa * x + fb * y + fc * z for x, y, z in zip(a, b, c)]
        else:
            pages = [0.0] * self.page_count
        if definition_weight and self.defined:
            # An identifier's words are left to the identifier channel, which reads its definition lines whole.
            named = set(tokenize(" ".join(qi))) if qi else set()
            for p, v in enumerate(self.definition_scores(q, named)):
                if v:
                    pages[p] += definition_weight * v
        if wanted:  # the page's own heading is a second, independent signal
            for i, kinds in enumerate(self.page_cues):
                if wanted & kinds:
                    bonus[i] += weight
        return [s + b for s, b in zip(pages, bonus)], meta


class _TitleMatch(Mapping[str, float]):
    """{node_id: normalised title/summary BM25} of one question, read only for the sections the descent opens
    (a dict of every node per search took longer than the rest of the scoring on a 1,000-node manual)."""

    def __init__(self, position: dict[str, int], scores: list[float]):
        self._position, self._scores = position, scores

    def __getitem__(self, node_id: str) -> float:
        return self._scores[self._position[node_id]]

    def __iter__(self) -> Iterator[str]:
        return iter(self._position)

    def __len__(self) -> int:
        return len(self._position)


@dataclass
class _Identifiers:
    """The identifier BM25s of a LexicalIndex, one per channel (LexicalIndex.ident)."""

    page: BM25
    head: BM25
    meta: BM25
    own: BM25


def _line_key(line: str) -> str:
    return " ".join(_DIGITS.sub(" ", line.lower()).split())


def running_lines(texts: list[str]) -> frozenset[str]:
    """Lines at the top of many pages (running heads: "Chapter 9: List of Commands 116", "Table of Contents"),
    keyed without digits. They name a chapter on every page of it, so they say nothing about one page."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update({_line_key(ln) for ln in text.splitlines()[:TOP_LINES] if ln.strip()})
    limit = max(RUNNING_MIN_PAGES, RUNNING_SHARE * len(texts))
    return frozenset(k for k, c in counts.items() if c >= limit and k)


def page_heading(text: str, running: frozenset[str] = frozenset()) -> str:
    """The first characters of a page, after its running head: where its title sits."""
    lines = text.splitlines()
    skip = 0
    while skip < min(TOP_LINES, len(lines)) and (not lines[skip].strip() or _line_key(lines[skip]) in running):
        skip += 1
    return "\n".join(lines[skip:])[:HEADING_CHARS] if skip else text[:HEADING_CHARS]


# What may open a definition line before its term: a bullet, a dash, an opening parenthesis or quote, a number.
_MARKER = re.compile(r"^[\s\u2022\u00b7\u25aa\u25e6\u2023\u25b6*\-\u2013\u2014(\[\u2018'\"\u201c]*(?:\d+(?:\.\d+)*\.?\s+)?")
_BULLET = re.compile(r"[\u2022\u00b7\u25aa\u25e6\u2023\u25b6*\u2013\u2014-]")
# What ends a term on a definition line: a colon, a dash between spaces, an em dash.
_SEPARATOR = re.compile(r":(?:\s|$)|\s[\u2013\u2014-]\s|\u2014")
DEFINITION_WORDS = 4   # a defined term is at most this many words
WRAPPED_WORDS = 8      # a line of this many words that ends no sentence wraps into the next one
_ENDS = (".", ":", ";", "!", "?")
# A line that ends in a page number after a comma or a leader: an index's or a contents' entry.
_REFERENCE = re.compile(r"(?:,|\.\s*\.|\s{2,})\s*\d+(?:\s*[\u2013-]\s*\d+)?$")


def definition_postings(texts: list[str], running: frozenset[str]) -> dict[str, list[tuple[int, int]]]:
    """{token: [(page index, line)]} of the terms that open each page's definition lines (:func:`definition_heads`)."""
    postings: dict[str, list[tuple[int, int]]] = {}
    line = 0
    for p, text in enumerate(texts):
        for head in definition_heads(text, running):
            for t in set(head):
                postings.setdefault(t, []).append((p, line))
            line += 1
    return postings


def definition_heads(text: str, running: frozenset[str] = frozenset()) -> list[list[str]]:
    """The terms a page's definition lines open with, tokenized: a line of at most DEFINITION_WORDS words that ends no
    sentence (an entry of a glossary or a reference, "xpass Procedure", "Scenario", a heading the tree does not know),
    or the words before a colon or a spaced dash when they are that few ("Default_Switches: list, indexed"), after any
    bullet, dash, parenthesis or number. Not a line that a paragraph wraps into (the line above is a long one that
    ends no sentence: the layout left whatever word there, "fink"), not a running head, not an entry that points to a
    page ("fmpq_set_si (C function), 189": an index or a contents names the term where it is not explained)."""
    heads = []
    previous = ""
    for line in text.splitlines():
        above, previous = previous, line
        m = _MARKER.match(line)
        rest = line[m.end():].rstrip()
        if not rest:
            continue
        words = rest.split()
        if len(words) <= DEFINITION_WORDS and rest[-1] not in ".,;":
            head = rest
        elif (sep := _SEPARATOR.search(rest)) and len(rest[:sep.start()].split()) <= DEFINITION_WORDS:
            head = rest[:sep.start()]
        else:
            continue
        if (rest[-1].isdigit() and _REFERENCE.search(rest)) or (running and _line_key(line) in running):
            continue
        if not (m.end() and _BULLET.search(line[:m.end()])) and len(above.split()) >= WRAPPED_WORDS \
                and not above.rstrip().endswith(_ENDS):
            continue
        tokens = tokenize(head, normalized=True)
        if tokens:
            heads.append(tokens)
    return heads


def page_headings(tops: list[str], nodes: list[Node]) -> list[str]:
    """Each page's headings: its top (page_heading) and the titles of the sections that begin on it, where the
    tree says they are printed (a section that begins mid-page, or the second of two on one page, has its title
    below the top). A title already in the page's top is not added again."""
    out = list(tops)
    flat = [" ".join(t.lower().split()) for t in tops]
    for n in nodes:
        p = n.start_page - 1
        if 0 <= p < len(out):
            title = " ".join(normalize(n.title).lower().split())
            if title and title not in flat[p]:
                out[p] += "\n" + title
                flat[p] += " " + title
    return out


def normalized_texts(doc: Any) -> list[str]:
    """The document's page texts as matched (query.normalize), cached on a DocIndex."""
    if hasattr(doc, "normalized_texts"):
        return doc.normalized_texts()
    return [normalize(p["text"] or "") for p in doc.pages()]


def add_snippets(doc: Any, question: str, hits: list[Hit]) -> None:
    """Give each hit the snippet of its best page that matches the question (query.snippet)."""
    texts = normalized_texts(doc)
    for hit in hits:
        hit.snippet = page_snippet(texts, hit.pages or [hit.start_page], question)


def lexical_index(doc: Any) -> LexicalIndex:
    """The document's LexicalIndex, built on first use and kept on the DocIndex (cached by version).

    Anything with the reading methods LexicalIndex uses will do; one without ``memo`` gets a fresh index."""
    memo = getattr(doc, "memo", None)
    return memo("lexical", lambda: LexicalIndex(doc)) if memo else LexicalIndex(doc)


def _own_pages(idx: LexicalIndex, node: Node) -> list[int]:
    """Pages of ``node`` not covered by any child (a section's introduction); computed once per node."""
    key = id(node)
    own = idx.own_pages.get(key)
    if own is None:
        own = idx.own_pages[key] = _uncovered(node)
    return own


def _uncovered(node: Node) -> list[int]:
    covered: set[int] = set()
    for child in node.nodes:
        covered.update(range(child.start_page, child.end_page + 1))
    return [p for p in range(node.start_page, node.end_page + 1) if p not in covered]


def lexical_search(doc: Any, question: str, *, top_k: int = 5, max_steps: int = 60, weight: float = 1.0,
                   snippets: bool = True, **weights: float) -> tuple[list[Hit], list[dict[str, Any]]]:
    """Best-first descent of one document's tree; returns (hits best first, trace)."""
    idx = lexical_index(doc)
    page_scores, meta = idx.score(question, **weights)

    def best(pages: list[int]) -> float:
        return max((page_scores[p - 1] for p in pages if p <= len(page_scores)), default=0.0)

    def span(node: Node) -> list[int]:
        return list(range(node.start_page, min(node.end_page, idx.page_count) + 1))

    # A node's score is the best of its pages: one max over each span, computed as the descent needs it.
    node_best: dict[int, float] = {}

    def best_of(node: Node) -> float:
        key = id(node)
        if key not in node_best:
            lo, hi = node.start_page - 1, min(node.end_page, idx.page_count)
            node_best[key] = max(page_scores[lo:hi], default=0.0)
        return node_best[key]

    trace: list[dict[str, Any]] = []
    hits: list[Hit] = []
    read: set[int] = set()
    root = doc.tree.root
    # Frontier entries: (-score, order, node, pages-or-None). pages=None means "a section to open";
    # a list means "these pages of the section, to read".
    frontier: list[tuple[float, int, Node, list[int] | None]] = []
    counter = 0
    heapq.heappush(frontier, (-best_of(root), counter, root, None))
    steps = 0
    while frontier and len(hits) < top_k and steps < max_steps:
        neg, _, node, pages = heapq.heappop(frontier)
        score = -neg
        if score <= 0:
            break
        steps += 1
        if pages is None and node.nodes:
            children = []
            for child in node.nodes:
                counter += 1
                s = best_of(child)
                heapq.heappush(frontier, (-s, counter, child, None))
                children.append((s, child.node_id))
            own = _own_pages(idx, node)
            if own:
                counter += 1
                heapq.heappush(frontier, (-best(own), counter, node, own))
            children.sort(reverse=True)
            trace.append({"step": steps, "action": "expand", "doc_id": doc.doc_id, "node_id": node.node_id,
                          "title": node.title, "score": round(score * weight, 4), "title_match": round(meta.get(node.node_id, 0.0), 4),
                          "best_children": [c for _, c in children[:3]]})
            continue
        candidates = pages if pages is not None else span(node)
        ranked = sorted((p for p in candidates if page_scores[p - 1] > 0 and p not in read),
                        key=lambda p: (-page_scores[p - 1], p))
        if not ranked:  # sections sharing a page (several bookmarks on one page): read once
            continue
        actual = page_scores[ranked[0] - 1]
        if actual < score and frontier and actual < -frontier[0][0]:
            # Its best page was already read under another section: requeue at its true score.
            counter += 1
            heapq.heappush(frontier, (-actual, counter, node, ranked))
            continue
        score = actual
        # Read this section's pages while they beat every other open candidate; the rest of the
        # section goes back on the frontier (a later hit on the same node), so a long section
        # never crowds out a better page elsewhere.
        bar = -frontier[0][0] if frontier else 0.0
        keep = [p for p in ranked if page_scores[p - 1] >= bar][:MAX_PAGES_PER_HIT] or ranked[:1]
        rest = [p for p in ranked if p not in keep]
        if rest:
            counter += 1
            heapq.heappush(frontier, (-page_scores[rest[0] - 1], counter, node, rest))
        read.update(keep)
        hits.append(Hit(doc.doc_id, node.node_id, doc.path(node.node_id), node.title, node.start_page, node.end_page,
                        keep, score * weight, doc.version))
        trace.append({"step": steps, "action": "read", "doc_id": doc.doc_id, "node_id": node.node_id, "title": node.title,
                      "score": round(score * weight, 4), "pages": keep})
    if not hits:
        trace.append({"step": steps, "action": "stop", "doc_id": doc.doc_id, "reason": "no section matches the question"})
    if snippets:
        add_snippets(doc, question, hits)
    return hits, trace
