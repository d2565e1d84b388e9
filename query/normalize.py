"""The one normalisation of what search, grep and find match against; stored text stays as extracted.

PDF text carries typography that a reader never sees as different: non-breaking and thin spaces
(one 10-K has a no-break space between nearly every pair of words, so ``grep 'Independent Registered'``
found nothing), ligatures ("ﬁ" in "conﬁguration"), soft hyphens, zero-width characters, and words broken
at line ends ("explain-\\ning"). Every matcher (BM25 tokens, grep, find, snippets) goes through
``normalize`` so they agree with each other; pages.parquet keeps the faithful text.
"""

from __future__ import annotations

import re
import unicodedata

# Invisible characters that only split words: soft hyphen, zero-width space/joiners, word joiner, BOM. A regex,
# not str.translate: translate looks every character of a non-ASCII page up in a dict, a fifth of the time it
# takes to build a 1,000-page manual's lexical index.
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u2060\ufeff]")
# Runs of horizontal white space become one space. A lone plain space already is one, so only runs of two or
# more and single other spaces (tab, no-break, thin ...) are matched: the same text with a fraction of the matches.
_SPACES = re.compile(r"[^\S\n]{2,}|[^\S\n ]")
# A word broken at a line end: a letter, a hyphen (ASCII or Unicode), a newline, a lower-case letter.
_HYPHENATED = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011][ \t]*\n[ \t]*(?=[^\W\d_A-Z])")


def normalize(text: str) -> str:
    """NFKC (ligatures, compatibility spaces, full-width forms), invisible characters dropped, runs of
    horizontal white space made one space, words hyphenated across a line end joined. Line breaks stay,
    so grep still reports lines."""
    if not text:
        return ""
    if text.isascii():
        out = text
    else:
        # Invisible characters go before NFKC, so that a mark they separated from its letter is composed with it
        # ("e", soft hyphen, combining acute -> "é"): normalising the result again changes nothing.
        out = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    out = _SPACES.sub(" ", out)
    if "-\n" in out or "- \n" in out or "\u2010" in out or "\u2011" in out:
        out = _HYPHENATED.sub("", out)
    return out
