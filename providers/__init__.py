"""Model providers (OpenAI-compatible and offline) behind one small interface; see docs/providers.md."""

from providers.base import Completion, ModelProvider
from providers.errors import ProviderError, ProviderResponseError, ProviderUnavailable
from providers.registry import get_provider

__all__ = ["Completion", "ModelProvider", "ProviderError", "ProviderResponseError", "ProviderUnavailable", "get_provider"]
