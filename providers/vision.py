"""Vision through the provider interface: the callable the OCR stage takes (png bytes -> text or None)."""

from __future__ import annotations

import hashlib
import logging
import threading
from typing import Any, Callable

from providers.base import ModelProvider
from providers.errors import ProviderError
from providers.prompts import PROMPT_VERSION, VISION
from providers.usage import Usage

log = logging.getLogger(__name__)


def vision_callable(provider: ModelProvider, usage: Usage | None = None,
                    cache: Any = None) -> Callable[[bytes], str | None] | None:
    """A parsers.ocr_stage.Vision for ``provider``, or None if it has no vision (the OCR stage then skips it).

    The callable returns None when the model fails: the page keeps its OCR text. With ``cache``
    (index_store.cache.StoreVisionCache) descriptions are kept by page image (``CachedVision``).
    """
    if not provider.supports_vision:
        return None

    def describe(png: bytes) -> str | None:
        try:
            completion = provider.describe_image(png, VISION.user)
        except ProviderError as exc:
            if usage is not None:
                usage.add(retries=getattr(provider, "last_retries", 0))
                usage.add_error(type(exc).__name__)
            log.warning("vision failed: %s", exc)
            return None
        if usage is not None:
            usage.add(retries=getattr(provider, "last_retries", 0))
            usage.add_call("vision", completion.prompt_tokens, completion.completion_tokens, completion.cost_usd)
        text = completion.text.strip()
        return text or None

    model = getattr(provider, "vision_model", None) or provider.model  # the model that describes pages
    return CachedVision(describe, cache, str(model)) if cache is not None else describe


class CachedVision:
    """A Vision that asks the model only for page images it has not described before (same model and prompt).

    Failures (None) are not cached: the next run asks again. ``keys`` are the entries this document used."""

    def __init__(self, describe: Callable[[bytes], str | None], cache: Any, model: str):
        self.describe, self.cache, self.model = describe, cache, model
        self.keys: list[str] = []
        self.hits = 0
        self._lock = threading.Lock()

    def key(self, png: bytes) -> str:
        digest = hashlib.sha256(f"{self.model}\0{PROMPT_VERSION}\0{VISION.system}\0{VISION.user}\0{VISION.max_tokens}\0".encode())
        digest.update(png)
        return digest.hexdigest()

    def __call__(self, png: bytes) -> str | None:
        key = self.key(png)
        hit = self.cache.get_many([key]).get(key)
        if hit:
            with self._lock:
                self.hits += 1
                self.keys.append(key)
            return str(hit["description"])
        text = self.describe(png)
        if text:
            self.cache.put(key, {"description": text, "model": self.model})
            self.cache.flush()
            with self._lock:
                self.keys.append(key)
        return text
