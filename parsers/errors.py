"""Errors raised while reading and parsing documents.

Every error a bad input can cause is a ``DocumentError``: the batch records it
with its one-line message and moves on to the next document.
"""


class ParserError(Exception):
    """Root of every parser error."""


class DocumentError(ParserError):
    """The input cannot be indexed (corrupt, encrypted, empty, not a PDF, too large)."""

    kind = "invalid"

    def __init__(self, message: str, kind: str | None = None):
        super().__init__(message)
        if kind:
            self.kind = kind


class ModelError(ParserError):
    """A model called through a hook (summarizer, structure, vision) gave no usable answer: the stage falls back.

    providers.errors.ProviderError derives from it, so parsers catch model failures without importing providers.
    """


class DependencyError(ParserError):
    """A required system component (e.g. tesseract or a language pack) is missing."""
