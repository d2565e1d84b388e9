"""Vision through the provider interface: the callable the OCR stage takes (png bytes -> text or None)."""

from __future__ import annotations

import logging
from typing import Callable

from providers.base import ModelProvider
from providers.errors import ProviderError
from providers.prompts import VISION
from providers.usage import Usage

log = logging.getLogger(__name__)


def vision_callable(provider: ModelProvider, usage: Usage | None = None) -> Callable[[bytes], str | None] | None:
    """A parsers.ocr_stage.Vision for ``provider``, or None if it has no vision (the OCR stage then skips it).

    The callable returns None when the model fails: the page keeps its OCR text.
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

    return describe
