"""Answers of pure text functions, kept for one document while its structure is read.

The structure chain asks the same questions of the same text many times: a line's numbering when it is screened as a
head, when the head is made, when its level is set and when a leaf is split by its heads; a title's search key in each
rule that compares titles. Inside ``document_scope`` (opened by ``structure.recover_structure`` for one document) a
function wrapped by ``per_document`` computes each argument's answer once; outside a scope, or inside ``uncached``, it
computes every time. The answers go with the scope: a long batch holds nothing of the documents before it, and no
answer is shared between documents or threads (a ``ContextVar``). Only functions of one hashable argument whose
answers are immutable (str, frozen dataclasses, None) may be wrapped: every caller gets the same object.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Callable, Iterator, TypeVar

A = TypeVar("A")
R = TypeVar("R")

_OFF = object()  # the scope's value inside ``uncached``
_MISSING = object()
# None: no document is being read; a dict: the open document's answers, {function: {argument: answer}}; _OFF.
_ANSWERS: ContextVar[object] = ContextVar("pagetree_document_answers", default=None)


@contextmanager
def document_scope() -> Iterator[None]:
    """Keep ``per_document`` answers until the block ends; inside an open scope (or ``uncached``), that one holds."""
    if _ANSWERS.get() is not None:
        yield
        return
    token = _ANSWERS.set({})
    try:
        yield
    finally:
        _ANSWERS.reset(token)


@contextmanager
def uncached() -> Iterator[None]:
    """Compute every answer afresh in this block, a document scope opened in it included (for tests and checks)."""
    token = _ANSWERS.set(_OFF)
    try:
        yield
    finally:
        _ANSWERS.reset(token)


def answers_kept() -> int:
    """How many answers the open document scope holds (0 outside one)."""
    answers = _ANSWERS.get()
    return sum(map(len, answers.values())) if isinstance(answers, dict) else 0


def asked(fn: Callable) -> list:
    """The arguments a ``per_document`` (or ``per_document_object``) function has answered in the open scope."""
    answers = _ANSWERS.get()
    mine = answers.get(getattr(fn, "uncached", fn), {}) if isinstance(answers, dict) else {}
    return [kept[0] for kept in mine.values()] if getattr(fn, "by_object", False) else list(mine)


def per_document(fn: Callable[[A], R]) -> Callable[[A], R]:
    """``fn`` answering each argument once per ``document_scope``; ``fn.uncached`` is the function itself."""

    @wraps(fn)
    def answer(arg: A) -> R:
        answers = _ANSWERS.get()
        if answers.__class__ is not dict:
            return fn(arg)
        mine = answers.get(fn)  # type: ignore[attr-defined]
        if mine is None:
            mine = answers[fn] = {}  # type: ignore[index]
        out = mine.get(arg, _MISSING)
        if out is _MISSING:
            out = mine[arg] = fn(arg)
        return out  # type: ignore[return-value]

    answer.uncached = fn  # type: ignore[attr-defined]
    return answer


def per_document_object(fn: Callable[[A], R]) -> Callable[[A], R]:
    """``per_document`` for an argument that is not hashable (a page's layout): answered once per object, which the
    scope keeps alive so that its ``id`` names no other object while the scope is open. The object must not change
    while the scope is open (a document's layouts do not while its structure is read)."""

    @wraps(fn)
    def answer(arg: A) -> R:
        answers = _ANSWERS.get()
        if answers.__class__ is not dict:
            return fn(arg)
        mine = answers.get(fn)  # type: ignore[attr-defined]
        if mine is None:
            mine = answers[fn] = {}  # type: ignore[index]
        kept = mine.get(id(arg))
        if kept is None:
            kept = mine[id(arg)] = (arg, fn(arg))
        return kept[1]

    answer.uncached = fn  # type: ignore[attr-defined]
    answer.by_object = True  # type: ignore[attr-defined]
    return answer
