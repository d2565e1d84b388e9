"""Typed errors of the providers package, under one root.

Raise ProviderUnavailable when no model can serve the call (not configured,
no vision, connection refused, retries exhausted); ProviderResponseError when a
model answered but the answer is unusable (malformed JSON, schema mismatch,
empty text). Callers fall back (extractive summaries, no vision) on both.
"""

from __future__ import annotations

from parsers.errors import ModelError


class ProviderError(ModelError):
    """Root of every error raised by providers/ (a parsers ModelError: the pipeline's stages fall back on it)."""


class ProviderUnavailable(ProviderError):
    """No model can serve this call (not configured, unsupported, unreachable, retries exhausted)."""


class ProviderResponseError(ProviderError):
    """The model answered, but the answer is unusable (malformed, empty, wrong shape).

    ``completion`` carries the answer (and its token usage) when there was one, so its cost is still counted.
    """

    def __init__(self, message: str, completion: object | None = None):
        super().__init__(message)
        self.completion = completion
