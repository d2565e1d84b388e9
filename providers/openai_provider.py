"""The openai provider: any OpenAI-compatible chat completions server through the official client.

Retries are ours (providers.limits), not the client's (max_retries=0), so that
backoff, jitter, Retry-After, the concurrency slots and the circuit breaker
are one policy whatever the client version. Errors leave as ProviderError.
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from typing import Any

import openai

from providers.base import Completion
from providers.errors import ProviderResponseError, ProviderUnavailable
from providers.limits import Attempts, CircuitBreaker, RetryPolicy, Slots, ThreadSlots, Transient, call_with_retries
from providers.settings import ProviderSettings
from providers.usage import estimate_cost

log = logging.getLogger(__name__)


REASONING_MIN_TOKENS = 2000


def _unsupported_sampling_params(exc: openai.BadRequestError) -> bool:
    """True for the 400 reasoning models (o-series, gpt-5) give to max_tokens or temperature."""
    text = str(getattr(exc, "message", "") or exc).lower()
    return ("max_tokens" in text or "temperature" in text) and ("unsupported" in text or "not supported" in text)


def _retry_after(exc: openai.APIStatusError) -> float | None:
    raw = exc.response.headers.get("retry-after") if exc.response is not None else None
    try:
        return float(raw) if raw is not None else None
    except ValueError:
        return None


class OpenAIProvider:
    """Chat completions with optional json_schema output and image input. Thread-safe."""

    name = "openai"

    def __init__(self, settings: ProviderSettings, *, slots: Slots | None = None, client: openai.OpenAI | None = None):
        if not (settings.model or settings.vision_model):
            raise ProviderUnavailable("openai provider needs a model name (PAGETREE_MODEL)")
        self.settings = settings
        self.model = settings.model
        self.vision_model = settings.vision_model
        self.supports_vision = settings.vision_model is not None
        self.policy = RetryPolicy(settings.max_retries, settings.retry_base_delay, settings.retry_max_delay)
        self.slots = slots or ThreadSlots(settings.concurrency)
        self.breaker = CircuitBreaker(settings.breaker_threshold, settings.breaker_cooldown)
        self.attempts = Attempts()  # retries over the provider's life
        self._local = threading.local()  # retries of this thread's last call (read by per-document accounting)
        self._lock = threading.Lock()
        self._reasoning_models: set[str] = set()  # learnt from the server's 400s, then remembered
        # Local servers (vLLM, Ollama) accept any key; the client insists on one.
        self.client = client or openai.OpenAI(
            api_key=settings.api_key or "unused",
            base_url=settings.base_url,
            timeout=settings.timeout,
            max_retries=0,
        )

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, vision_model={self.vision_model!r}, base_url={self.settings.base_url!r})"

    @property
    def last_retries(self) -> int:
        """Retries made by the last call of the calling thread."""
        return int(getattr(self._local, "retries", 0))

    # -- the contract --------------------------------------------------------------------------
    def complete(self, system: str, user: str, *, json_schema: dict | None = None, max_tokens: int = 400) -> Completion:
        if not self.model:
            raise ProviderUnavailable("no text model configured")
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        completion = self._chat(self.model, messages, json_schema, max_tokens)
        if json_schema is not None:
            try:
                json.loads(completion.text)
            except ValueError as exc:
                raise ProviderResponseError(f"model {self.model} returned malformed JSON: {exc}", completion) from None
        return completion

    def describe_image(self, png: bytes, prompt: str) -> Completion:
        if not self.vision_model:
            raise ProviderUnavailable("no vision model configured (PAGETREE_VISION_MODEL)")
        url = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        messages = [{"role": "user", "content": [{"type": "text", "text": prompt},
                                                 {"type": "image_url", "image_url": {"url": url}}]}]
        return self._chat(self.vision_model, messages, None, 1500)

    # -- transport -----------------------------------------------------------------------------
    def _chat(self, model: str, messages: list[dict[str, Any]], json_schema: dict | None, max_tokens: int) -> Completion:
        self.breaker.check()
        base: dict[str, Any] = {"model": model, "messages": messages}
        if json_schema is not None:
            base["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": json_schema, "strict": True}}

        def attempt() -> Any:
            self.breaker.check()  # also between retries: other callers may have found the model down meanwhile
            if model in self._reasoning_models:
                # Reasoning models refuse max_tokens/temperature, and spend part of the budget thinking.
                kwargs = {**base, "max_completion_tokens": max(REASONING_MIN_TOKENS, 8 * max_tokens)}
            else:
                kwargs = {**base, "max_tokens": max_tokens, "temperature": 0}
            try:
                return self.client.chat.completions.create(**kwargs)
            except openai.BadRequestError as exc:
                if model not in self._reasoning_models and _unsupported_sampling_params(exc):
                    self._reasoning_models.add(model)
                    raise Transient("model refuses max_tokens/temperature: retrying with max_completion_tokens", 0.0) from None
                raise ProviderResponseError(f"model {model} rejected the request: HTTP 400") from None
            except openai.RateLimitError as exc:
                raise Transient("rate limited (429)", _retry_after(exc)) from None
            except openai.APITimeoutError:
                self.breaker.attempt_failed()
                raise Transient(f"timed out after {self.settings.timeout}s") from None
            except openai.APIConnectionError as exc:
                self.breaker.attempt_failed()
                raise Transient(f"connection error: {type(exc.__cause__ or exc).__name__}") from None
            except openai.APIStatusError as exc:
                if exc.status_code >= 500 or exc.status_code in (408, 409):
                    self.breaker.attempt_failed()
                    raise Transient(f"server error {exc.status_code}", _retry_after(exc)) from None
                if exc.status_code in (413, 422):  # this request (too long, refused): others may pass
                    raise ProviderResponseError(f"model {model} rejected the request: HTTP {exc.status_code}") from None
                # 401/403/404 will not get better by repeating: the message names the status only
                # (bodies of auth errors may echo parts of a key).
                raise ProviderUnavailable(f"model {model}: HTTP {exc.status_code} ({type(exc).__name__})") from None
            except ValueError as exc:  # a non-JSON body (a proxy's HTML error page)
                self.breaker.attempt_failed()
                raise Transient(f"unparseable response body: {type(exc).__name__}") from None

        here = Attempts()
        self._local.retries = 0
        try:
            response = call_with_retries(attempt, self.policy, self.slots, counter=here)
        except ProviderUnavailable as exc:
            self.breaker.failure()
            log.warning("model %s unavailable: %s", model, exc)
            raise
        finally:
            self._local.retries = here.retries
            with self._lock:
                self.attempts.retries += here.retries
        self.breaker.success()
        try:
            choice = response.choices[0]
            text = choice.message.content or ""
        except (AttributeError, IndexError, TypeError):
            raise ProviderResponseError(f"model {model} returned no choices") from None
        if not text.strip():
            raise ProviderResponseError(f"model {model} returned an empty answer")
        usage = getattr(response, "usage", None)
        pt = int(getattr(usage, "prompt_tokens", 0) or 0)
        ct = int(getattr(usage, "completion_tokens", 0) or 0)
        return Completion(text=text, prompt_tokens=pt, completion_tokens=ct,
                          cost_usd=estimate_cost(model, pt, ct, self.settings.price), model=getattr(response, "model", "") or model)
