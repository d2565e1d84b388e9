"""Choose a provider: "openai" when a model is configured, else "offline"."""

from __future__ import annotations

from typing import Any, Mapping

from providers.base import ModelProvider
from providers.limits import FileSlots, Slots
from providers.settings import ProviderSettings, settings_from_env


def get_provider(settings_or_env: ProviderSettings | Mapping[str, str] | None = None, *,
                 slots: Slots | None = None) -> ModelProvider:
    """Build the provider for a ProviderSettings or an env mapping (PAGETREE_MODEL, OPENAI_*); None -> offline.

    ``slots`` overrides the concurrency cap (e.g. a Prefect global concurrency limit).
    """
    from providers.offline import OfflineProvider

    if settings_or_env is None:
        return OfflineProvider()
    settings = settings_or_env if isinstance(settings_or_env, ProviderSettings) else settings_from_env(settings_or_env)
    if settings.provider == "offline" or not (settings.model or settings.vision_model):
        return OfflineProvider()
    if settings.provider != "openai":
        from providers.errors import ProviderUnavailable

        raise ProviderUnavailable(f"unknown provider {settings.provider!r} (expected openai or offline)")
    from providers.openai_provider import OpenAIProvider

    if slots is None and settings.slots_dir:
        slots = FileSlots(settings.slots_dir, settings.concurrency)
    return OpenAIProvider(settings, slots=slots)


def describe(settings: ProviderSettings) -> dict[str, Any]:
    """What to record about the provider in a manifest or log (never the key)."""
    return {"provider": settings.provider if settings.enabled or settings.vision_model else "offline",
            "model": settings.model, "vision_model": settings.vision_model, "base_url": settings.base_url,
            "concurrency": settings.concurrency}
