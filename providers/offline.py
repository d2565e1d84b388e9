"""The offline provider: deterministic, no network, no vision."""

from __future__ import annotations

from providers.base import Completion
from providers.errors import ProviderUnavailable


class OfflineProvider:
    """Stub: complete() echoes nothing useful; summaries use the extractive summarizer directly."""

    name = "offline"
    model: str | None = None
    supports_vision = False

    def complete(self, system: str, user: str, *, json_schema: dict | None = None, max_tokens: int = 400) -> Completion:
        raise ProviderUnavailable("offline provider has no language model")

    def describe_image(self, png: bytes, prompt: str) -> Completion:
        raise ProviderUnavailable("offline provider has no vision model")
