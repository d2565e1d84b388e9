"""Model providers at the edge: settings from env/CLI, and the per-document model objects for index_document.

Which models a run uses is part of the pipeline settings (model, vision_model,
prompt_version enter the fingerprint and travel as flow parameters); how to
reach them (OPENAI_API_KEY, OPENAI_BASE_URL, PAGETREE_MODEL_CONCURRENCY, ...)
is read from the worker's environment here and never enters flow parameters,
manifests or logs.

Concurrency is capped per process (PAGETREE_MODEL_CONCURRENCY, default 16) by
one runtime shared by every document the process indexes. To share one cap
across processes: PAGETREE_MODEL_SLOTS_DIR=<dir> (all processes on one host,
fcntl slot files) or PAGETREE_MODEL_GCL=<name> (any number of hosts, a Prefect
global concurrency limit: ``prefect gcl create <name> --limit 16``).
"""

from __future__ import annotations

import contextlib
import os
import threading
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Mapping

from index_store.cache import StoreSummaryCache, StoreVisionCache
from index_store.store import Store
from parsers.pipeline import PipelineSettings
from providers.base import ModelProvider
from providers.limits import Slots
from providers.prompts import PROMPT_VERSION
from providers.registry import get_provider
from providers.settings import ProviderSettings, settings_from_env
from providers.structure_llm import LlmStructure
from providers.summarizer import ModelSummarizer
from providers.usage import Usage
from providers.vision import vision_callable


def provider_settings(env: Mapping[str, str] | None = None, *, model: str | None = None,
                      vision_model: str | None = None) -> ProviderSettings:
    """CLI flags win over PAGETREE_MODEL / PAGETREE_VISION_MODEL; nothing set -> offline."""
    return settings_from_env(os.environ if env is None else env, model=model, vision_model=vision_model)


def pipeline_overrides(settings: ProviderSettings) -> dict[str, Any]:
    """The PipelineSettings fields a provider choice sets (they enter the fingerprint); {} when offline."""
    if not (settings.model or settings.vision_model):
        return {}
    out: dict[str, Any] = {"prompt_version": PROMPT_VERSION}
    if settings.model:
        out.update(summarizer="model", model=settings.model)
    if settings.vision_model:
        out["vision_model"] = settings.vision_model
    return out


def prefect_slots(limit_name: str) -> Slots:
    """Slots from a Prefect global concurrency limit (shared by every worker of the Prefect server)."""
    from prefect.concurrency.sync import concurrency

    @contextlib.contextmanager
    def slot() -> Iterator[None]:
        with concurrency(limit_name, occupy=1):
            yield

    return slot


@dataclass
class DocModels:
    """The model-backed objects for one document; ``kwargs()`` goes into index_document(**...)."""

    summarizer: ModelSummarizer | None
    vision: Callable[[bytes], str | None] | None
    llm_structure: LlmStructure | None
    usage: Usage

    def kwargs(self) -> dict[str, Any]:
        return {"summarizer": self.summarizer, "vision": self.vision, "llm_structure": self.llm_structure,
                "model_usage": self.usage}


class ModelRuntime:
    """One provider (HTTP connection pool, concurrency slots, circuit breaker) shared by a process's documents."""

    def __init__(self, settings: ProviderSettings, *, slots: Slots | None = None, provider: ModelProvider | None = None):
        self.settings = settings
        self.provider = provider or get_provider(settings, slots=slots)

    def for_document(self, store: Store | None = None, prompt_version: str = PROMPT_VERSION) -> DocModels:
        """Fresh usage accounting for one document; summaries and vision descriptions cached in ``store`` when given."""
        usage = Usage(provider=self.provider.name, model=self.provider.model)
        summarizer = llm = None
        if self.settings.model:
            cache = StoreSummaryCache(store, self.settings.model, prompt_version) if store is not None else None
            summarizer = ModelSummarizer(self.provider, usage, cache=cache, concurrency=self.settings.concurrency,
                                         prompt_version=prompt_version)
            llm = LlmStructure(self.provider, usage, concurrency=min(4, self.settings.concurrency))
        vision_cache = StoreVisionCache(store) if store is not None else None
        return DocModels(summarizer, vision_callable(self.provider, usage, cache=vision_cache), llm, usage)


_RUNTIMES: dict[ProviderSettings, ModelRuntime] = {}
_LOCK = threading.Lock()


def runtime_for(pipeline: PipelineSettings, env: Mapping[str, str] | None = None) -> ModelRuntime | None:
    """The process-wide runtime for these pipeline settings (None when they name no model).

    Memoized so that every document indexed in this process shares one concurrency cap.
    """
    if not (pipeline.model or pipeline.vision_model):
        return None
    env = os.environ if env is None else env
    settings = replace(settings_from_env(env), provider="openai", model=pipeline.model, vision_model=pipeline.vision_model)
    key = settings
    with _LOCK:
        runtime = _RUNTIMES.get(key)
        if runtime is None:
            gcl = env.get("PAGETREE_MODEL_GCL")
            runtime = ModelRuntime(settings, slots=prefect_slots(gcl) if gcl else None)
            _RUNTIMES[key] = runtime
        return runtime


def document_models(pipeline: PipelineSettings, store: Store | None = None,
                    env: Mapping[str, str] | None = None) -> dict[str, Any]:
    """index_document keyword arguments for one document: {} (offline) or summarizer/vision/llm_structure/model_usage.

    ``store`` holds the summary cache (index_store/cache.py); without it nothing is cached.
    """
    runtime = runtime_for(pipeline, env)
    if runtime is None:
        return {}
    # the summary cache follows the pipeline's prompt version (PROMPT_VERSION unless a rollout pins another)
    prompt_version = pipeline.prompt_version if pipeline.prompt_version != "none" else PROMPT_VERSION
    return runtime.for_document(store, prompt_version).kwargs()


def check_provider(settings: ProviderSettings, timeout: float = 10.0) -> str | None:
    """Start-up check, like the tesseract one: None when no model is named or its endpoint answers, else one line.

    A missing OPENAI_API_KEY / OPENAI_BASE_URL, an endpoint that cannot be reached and a refused key are caught
    here, before any work, instead of as one extractive fallback per section. Any other answer of GET /models
    (even an error status: some OpenAI-compatible servers do not list models) counts as reachable.
    """
    if not (settings.model or settings.vision_model):
        return None
    named = " / ".join(m for m in (settings.model, settings.vision_model) if m)
    if not (settings.api_key or settings.base_url):
        return f"model {named} needs OPENAI_API_KEY (OpenAI) or OPENAI_BASE_URL (an OpenAI-compatible server): neither is set"
    import openai

    where = settings.base_url or "https://api.openai.com/v1"
    client = openai.OpenAI(api_key=settings.api_key or "unused", base_url=settings.base_url, timeout=timeout, max_retries=0)
    try:
        client.models.list()
    except (openai.AuthenticationError, openai.PermissionDeniedError) as exc:
        return f"model endpoint {where} refused the API key (HTTP {exc.status_code})"
    except openai.APIStatusError:
        return None
    except openai.APIConnectionError as exc:  # includes timeouts
        return f"model endpoint {where} is unreachable: {type(exc).__name__}: {exc}"
    finally:
        client.close()
    return None
