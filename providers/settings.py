"""Provider settings: which model, where, how fast. Built at the edge (flows/models.py) from env/CLI.

The API key is held here only to build the client: it is excluded from repr,
never enters the pipeline fingerprint, flow parameters or the manifest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

# 16 requests in flight: ~16 calls/s at a cheap model's ~1 s latency, inside OpenAI tier-2 rate limits;
# lower it (PAGETREE_MODEL_CONCURRENCY) for tier-1 keys or a small local server. 429s are retried anyway.
DEFAULT_CONCURRENCY = 16


@dataclass(frozen=True)
class ProviderSettings:
    provider: str = "offline"  # offline | openai
    model: str | None = None
    vision_model: str | None = None
    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)
    timeout: float = 60.0  # seconds per HTTP attempt
    max_retries: int = 4
    retry_base_delay: float = 0.5
    retry_max_delay: float = 20.0
    concurrency: int = DEFAULT_CONCURRENCY  # requests in flight per process (see limits.py to share it)
    slots_dir: str | None = None  # share the concurrency cap across processes on this host
    price: tuple[float, float] | None = None  # USD per 1M (input, output) tokens; None = built-in table
    breaker_threshold: int = 3
    breaker_cooldown: float = 30.0

    @property
    def enabled(self) -> bool:
        return self.provider == "openai" and bool(self.model)


def _float(env: Mapping[str, str], key: str, default: float) -> float:
    raw = env.get(key)
    return float(raw) if raw not in (None, "") else default


def settings_from_env(env: Mapping[str, str], *, model: str | None = None, vision_model: str | None = None) -> ProviderSettings:
    """PAGETREE_MODEL (or ``model``) turns the openai provider on, with OPENAI_API_KEY / OPENAI_BASE_URL.

    Also read: PAGETREE_VISION_MODEL, PAGETREE_MODEL_CONCURRENCY, PAGETREE_MODEL_TIMEOUT,
    PAGETREE_MODEL_MAX_RETRIES, PAGETREE_MODEL_SLOTS_DIR, PAGETREE_MODEL_PRICE ("in,out" USD per 1M tokens).
    """
    model = model or env.get("PAGETREE_MODEL") or None
    vision_model = vision_model or env.get("PAGETREE_VISION_MODEL") or None
    price = None
    if env.get("PAGETREE_MODEL_PRICE"):
        a, b = env["PAGETREE_MODEL_PRICE"].split(",")
        price = (float(a), float(b))
    return ProviderSettings(
        provider="openai" if (model or vision_model) else "offline",
        model=model,
        vision_model=vision_model,
        base_url=env.get("OPENAI_BASE_URL") or None,
        api_key=env.get("OPENAI_API_KEY") or None,
        timeout=_float(env, "PAGETREE_MODEL_TIMEOUT", 60.0),
        max_retries=int(_float(env, "PAGETREE_MODEL_MAX_RETRIES", 4)),
        concurrency=int(_float(env, "PAGETREE_MODEL_CONCURRENCY", DEFAULT_CONCURRENCY)),
        slots_dir=env.get("PAGETREE_MODEL_SLOTS_DIR") or None,
        price=price,
    )
