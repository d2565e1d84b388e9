"""The extractive summarizer reads each section's words once: the shortcuts give the terms, the cleaned text and
the term counts the plain definitions give."""

from __future__ import annotations

import re

import pytest

from parsers.summarize import STOP, ExtractiveSummarizer, SummaryRequest, _clean, _terms
from parsers.toc import DOT_LEADERS

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_\-\.]*[A-Za-z0-9]|[A-Za-z]")


def _plain_terms(text: str) -> list[str]:
    return [w for w in (x.lower() for x in _WORD.findall(text)) if len(w) > 2 and w not in STOP]


@pytest.mark.parametrize("text", [
    "ab ab-. a- a.b abc a_b_ x1y E42 --force P_IN e.g. i.e. the value",
    "Ab.Cd. EF-gh. a-b-c-. q.. zz9 z9",
    "\u212aelvin sign and caf\u00e9 r\u00e9sum\u00e9 of ABC-12",  # not ASCII: lowered word by word
])
def test_terms_are_the_words_of_three_letters_or_more_outside_the_stop_list(text):
    assert _terms(text) == _plain_terms(text)


@pytest.mark.parametrize("text", [
    "See https://example.com/x and www.example.org for more. Installing .... 12 the main- tainers",
    "Chapter one . . . . 7 and plain prose with a hyphen - between words",
    "No pattern here at all: just text.",
])
def test_cleaning_is_the_same_with_or_without_the_patterns_present(text):
    url = re.compile(r"\(?<?(?:https?://|www\.)[^\s)>]+>?\)?")
    plain = re.sub(r"(?<=[a-z])- (?=[a-z])", "", " ".join(DOT_LEADERS.sub(" ", url.sub(" ", text)).split()))
    assert _clean(text) == plain


def test_terms_after_the_scored_sentences_still_count():
    # 90 plain sentences, then a term that appears only after the 80 scored ones: it is still the section's
    # most distinctive term and is named in "Covers".
    filler = " ".join(f"Sentence number {i} talks about ordinary things here today." for i in range(90))
    text = filler + " The flux capacitor needs the flux capacitor manual. Flux capacitor checks run nightly."
    summarizer = ExtractiveSummarizer.for_sections([text, "ordinary things here today"])
    summary, source = summarizer.summarize(SummaryRequest("0001", "Section", text, []))
    assert source == "extractive" and "capacitor" in summary.split("Covers:")[1]
