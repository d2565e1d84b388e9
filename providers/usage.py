"""Token usage and estimated cost. Prices are USD per million tokens (input, output), overridable.

The table is a small, dated estimate for the usual cheap models; an unknown
model costs 0 and is reported with ``priced: false`` rather than guessed.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

# USD per 1M tokens (input, output), list prices as of 2025.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
}


def price_for(model: str | None, override: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """(input, output) USD per 1M tokens: the override, else the longest table prefix of ``model``, else None."""
    if override is not None:
        return override
    if not model:
        return None
    name = model.lower().rsplit("/", 1)[-1]  # "openai/gpt-4o-mini" on routers
    best = max((k for k in PRICES if name.startswith(k)), key=len, default=None)
    return PRICES[best] if best else None


def estimate_cost(model: str | None, prompt_tokens: int, completion_tokens: int,
                  override: tuple[float, float] | None = None) -> float:
    price = price_for(model, override)
    if price is None:
        return 0.0
    return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000


@dataclass
class Usage:
    """Per-document model accounting; thread-safe. ``to_stats()`` starts manifest stats["model"] (the tree walk adds fallbacks and cache counts)."""

    provider: str = "offline"
    model: str | None = None
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    retries: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    by_purpose: dict[str, int] = field(default_factory=dict)
    priced: bool = True
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add_call(self, purpose: str, prompt_tokens: int, completion_tokens: int, cost_usd: float) -> None:
        with self._lock:
            self.calls += 1
            self.prompt_tokens += prompt_tokens
            self.completion_tokens += completion_tokens
            self.cost_usd += cost_usd
            self.by_purpose[purpose] = self.by_purpose.get(purpose, 0) + 1

    def add(self, **counts: int) -> None:
        with self._lock:
            for key, value in counts.items():
                setattr(self, key, getattr(self, key) + value)

    def add_error(self, kind: str) -> None:
        with self._lock:
            self.errors[kind] = self.errors.get(kind, 0) + 1

    def to_stats(self) -> dict[str, Any]:
        with self._lock:
            return {
                "provider": self.provider,
                "model": self.model,
                "calls": self.calls,
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
                "cost_usd": round(self.cost_usd, 6),
                "priced": self.priced,
                "retries": self.retries,
                "errors": dict(self.errors),
                "by_purpose": dict(self.by_purpose),
            }
