"""The provider contract: text completion (optionally JSON-schema constrained) and image description.

Implementations: providers.offline.OfflineProvider (deterministic, no network,
no vision) and providers.openai_provider.OpenAIProvider (any OpenAI-compatible
server). Both raise only providers.errors.ProviderError subclasses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass
class Completion:
    """One model answer with its token usage and estimated cost."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    model: str = ""


@runtime_checkable
class ModelProvider(Protocol):
    name: str  # "openai" | "offline"
    model: str | None
    supports_vision: bool

    def complete(self, system: str, user: str, *, json_schema: dict | None = None, max_tokens: int = 400) -> Completion:
        """Answer ``user`` under ``system``; with ``json_schema`` the text is JSON matching it."""
        ...

    def describe_image(self, png: bytes, prompt: str) -> Completion:
        """Describe a PNG image; raises providers.errors.ProviderUnavailable if the provider has no vision."""
        ...
