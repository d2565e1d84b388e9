"""Model providers (OpenAI-compatible and offline) behind one small interface; see docs/providers.md.

This package's own namespace is the provider interface: ``query`` imports these names and no providers module
(tests/test_import_graph.py keeps it so).
"""

from providers.base import Completion, ModelProvider
from providers.errors import ProviderError, ProviderResponseError, ProviderUnavailable
from providers.prompts import Prompt, clip_chars, fence
from providers.registry import get_provider

__all__ = ["Completion", "ModelProvider", "Prompt", "ProviderError", "ProviderResponseError", "ProviderUnavailable",
           "clip_chars", "fence", "get_provider"]
