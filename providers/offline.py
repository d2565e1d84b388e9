"""The offline provider: deterministic, no network, no cost, no vision.

``complete`` answers summary/description prompts with an extractive summary of
the data block, and any other JSON schema with its empty instance (no outline,
no selection): callers treat that as "the model found nothing" and fall back.
The pipeline does not call it for summaries: with no model configured it uses
parsers.summarize.ExtractiveSummarizer directly (which sees the whole document).
"""

from __future__ import annotations

import json
import re
from typing import Any

from providers.base import Completion
from providers.errors import ProviderUnavailable

_BLOCK = re.compile(r"<(section_text|subsection_summaries|page_text)>\n?(.*?)\n?</\1>", re.DOTALL)


def _empty(schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: _empty(props.get(k, {})) for k in schema.get("required", list(props))}
    return {"array": [], "integer": 0, "number": 0, "boolean": False}.get(kind, "")  # type: ignore[arg-type]


class OfflineProvider:
    name = "offline"
    model: str | None = None
    supports_vision = False

    def complete(self, system: str, user: str, *, json_schema: dict | None = None, max_tokens: int = 400) -> Completion:
        from parsers.summarize import ExtractiveSummarizer, SummaryRequest

        blocks = dict((m.group(1), m.group(2)) for m in _BLOCK.finditer(user))
        text = blocks.get("section_text") or blocks.get("page_text") or ""
        children = [c.lstrip("- ").strip() for c in (blocks.get("subsection_summaries") or "").splitlines() if c.strip()]
        summary, _ = ExtractiveSummarizer().summarize(SummaryRequest("", "", text, children))
        if json_schema is None:
            return Completion(text=summary or "", model="offline")
        answer = _empty(json_schema)
        for key in ("summary", "description"):
            if isinstance(answer, dict) and key in answer:
                answer[key] = summary
        return Completion(text=json.dumps(answer), model="offline")

    def describe_image(self, png: bytes, prompt: str) -> Completion:
        raise ProviderUnavailable("offline provider has no vision model")
