"""Model-backed summaries through any ModelProvider, with usage accounting per document.

Used by parsers.summarize.summarize_tree as the primary summarizer; it raises
ProviderError when the model cannot give a usable answer, and the tree falls
back to the extractive summarizer for that node.
"""

from __future__ import annotations

import json
from typing import Any

from parsers.summarize import SummaryCache, SummaryRequest
from providers.base import Completion, ModelProvider
from providers.errors import ProviderError, ProviderResponseError
from providers.prompts import (DESCRIPTION, MAX_CHILD_SUMMARIES, MAX_SECTION_CHARS, PROMPT_VERSION, SUMMARY,
                               SUMMARY_MAX_WORDS, Prompt, clip_chars, fence)
from providers.settings import DEFAULT_CONCURRENCY
from providers.usage import Usage

HARD_MAX_WORDS = SUMMARY_MAX_WORDS + 10  # a model running a little long is clipped, not rejected


def _clip(text: str, words: int) -> str:
    parts = text.split()
    return " ".join(parts) if len(parts) <= words else " ".join(parts[:words]).rstrip(",;:") + "\u2026"


class ModelSummarizer:
    """summarize() -> (one sentence, "model"); describe() -> catalog description. One instance per document."""

    name = "model"

    def __init__(self, provider: ModelProvider, usage: Usage | None = None, *, cache: SummaryCache | None = None,
                 concurrency: int = DEFAULT_CONCURRENCY, prompt_version: str = PROMPT_VERSION):
        self.provider = provider
        self.usage = usage or Usage(provider=provider.name, model=provider.model)
        self.cache = cache
        self.concurrency = concurrency
        self.prompt_version = prompt_version

    def _ask(self, prompt: Prompt, user: str, field: str, purpose: str) -> str:
        try:
            completion = self.provider.complete(prompt.system, user, json_schema=prompt.schema, max_tokens=prompt.max_tokens)
        except ProviderResponseError as exc:
            self.usage.add(retries=getattr(self.provider, "last_retries", 0))
            self._account(purpose, exc.completion)
            self.usage.add_error(type(exc).__name__)
            raise
        except ProviderError as exc:
            self.usage.add(retries=getattr(self.provider, "last_retries", 0))
            self.usage.add_error(type(exc).__name__)
            raise
        self.usage.add(retries=getattr(self.provider, "last_retries", 0))
        self._account(purpose, completion)
        try:
            answer: Any = json.loads(completion.text)
            value = answer[field] if isinstance(answer, dict) else None
        except (ValueError, KeyError):
            value = None
        if not isinstance(value, str) or not value.strip():
            self.usage.add_error("ProviderResponseError")
            raise ProviderResponseError(f"model answer has no usable {field!r}")
        return " ".join(value.split())

    def _account(self, purpose: str, completion: Completion | None) -> None:
        if completion is not None:
            self.usage.add_call(purpose, completion.prompt_tokens, completion.completion_tokens, completion.cost_usd)

    def summarize(self, request: SummaryRequest) -> tuple[str, str]:
        children = request.child_summaries[:MAX_CHILD_SUMMARIES]
        user = SUMMARY.render(
            doc_title=fence(request.doc_title),
            path=fence(request.path or request.title),
            text=fence(clip_chars(request.text, MAX_SECTION_CHARS)) or "(no text of its own)",
            children="\n".join("- " + fence(c) for c in children) or "(none)",
        )
        return _clip(self._ask(SUMMARY, user, "summary", "summary"), HARD_MAX_WORDS), "model"

    def describe(self, doc_title: str, page_count: int, child_summaries: list[str]) -> str:
        user = DESCRIPTION.render(
            doc_title=fence(doc_title), pages=page_count,
            children="\n".join("- " + fence(c) for c in child_summaries[:MAX_CHILD_SUMMARIES]) or "(none)",
        )
        return _clip(self._ask(DESCRIPTION, user, "description", "description"), 60)
