"""Provider selection from env/CLI: offline by default, openai when a model is named, keys kept out of sight."""

from __future__ import annotations

from providers.offline import OfflineProvider
from providers.openai_provider import OpenAIProvider
from providers.registry import describe, get_provider
from providers.settings import DEFAULT_CONCURRENCY, settings_from_env

KEY = "sk-env-key-never-shown"


def test_nothing_configured_is_offline() -> None:
    assert isinstance(get_provider(None), OfflineProvider)
    assert isinstance(get_provider({}), OfflineProvider)
    assert isinstance(get_provider({"OPENAI_API_KEY": KEY}), OfflineProvider)  # a key alone does not turn models on


def test_pagetree_model_turns_openai_on_with_the_clients_variables() -> None:
    env = {"PAGETREE_MODEL": "gpt-4o-mini", "OPENAI_API_KEY": KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1",
           "PAGETREE_MODEL_CONCURRENCY": "3", "PAGETREE_MODEL_TIMEOUT": "7.5", "PAGETREE_MODEL_PRICE": "1.0,2.0",
           "PAGETREE_VISION_MODEL": "gpt-4o"}
    settings = settings_from_env(env)
    assert (settings.provider, settings.model, settings.vision_model) == ("openai", "gpt-4o-mini", "gpt-4o")
    assert (settings.concurrency, settings.timeout, settings.price) == (3, 7.5, (1.0, 2.0))
    p = get_provider(env)
    assert isinstance(p, OpenAIProvider) and p.supports_vision and p.slots.n == 3
    assert str(p.client.base_url).startswith("http://127.0.0.1:9/v1")
    assert KEY not in repr(settings) and KEY not in repr(p) and KEY not in str(describe(settings))


def test_cli_model_wins_over_env_and_defaults_apply() -> None:
    settings = settings_from_env({"PAGETREE_MODEL": "gpt-4o-mini"}, model="gpt-4.1-nano")
    assert settings.model == "gpt-4.1-nano" and settings.concurrency == DEFAULT_CONCURRENCY and settings.max_retries == 4
    assert not get_provider(settings_from_env({})).supports_vision
