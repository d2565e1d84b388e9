"""Choose a provider from settings or environment; "offline" when nothing is configured."""

from __future__ import annotations

from typing import Any, Mapping

from providers.base import ModelProvider


def get_provider(settings_or_env: Any = None) -> ModelProvider:
    """Build the provider named by ``settings_or_env`` (a ProviderSettings, a mapping like os.environ, or None).

    Stub: always offline until the openai provider lands.
    """
    from providers.offline import OfflineProvider

    return OfflineProvider()
