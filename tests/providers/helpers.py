"""Builders shared by the providers tests: a provider pointed at the fake server, section trees."""

from __future__ import annotations

import json
from pathlib import Path

from index_store.model import Node
from providers.openai_provider import OpenAIProvider
from providers.settings import ProviderSettings
from tests.support.openai_server import FakeOpenAI, Recorded

API_KEY = "sk-test-DO-NOT-LOG-4f9a"


def provider(server: FakeOpenAI, **overrides) -> OpenAIProvider:
    settings = dict(provider="openai", model="gpt-4o-mini", base_url=server.base_url, api_key=API_KEY,
                    timeout=2.0, max_retries=3, retry_base_delay=0.01, retry_max_delay=0.05, concurrency=4)
    settings.update(overrides)
    return OpenAIProvider(ProviderSettings(**settings))


def long_text(tag: str, n: int = 12) -> str:
    return " ".join(f"Section {tag} explains error code E{tag.replace('.', '')} and parameter P_{tag.replace('.', '_')}." for _ in range(n))


def tree(chapters: int = 3, leaves: int = 4, short_every: int = 0) -> tuple[Node, dict[str, str]]:
    """root -> chapters (no own text) -> leaves (long text; every ``short_every``-th leaf is short)."""
    root = Node("0000", "Manual", 0, 1, 100)
    own: dict[str, str] = {"0000": ""}
    i = 1
    for c in range(chapters):
        chapter = Node(f"{i:04d}", f"Chapter {c}", 1, 1, 1)
        i += 1
        root.nodes.append(chapter)
        own[chapter.node_id] = ""
        for leaf_no in range(leaves):
            leaf = Node(f"{i:04d}", f"Topic {c}.{leaf_no}", 2, 1, 1)
            i += 1
            chapter.nodes.append(leaf)
            short = short_every and (leaf_no + 1) % short_every == 0
            own[leaf.node_id] = f"Short note {c}.{leaf_no}." if short else long_text(f"{c}.{leaf_no}")
    return root, own


def echo_summary(rec: Recorded) -> str:
    """A reply naming the section path the request was about (the 'Section:' line of the prompt)."""
    line = next((ln for ln in rec.user_text().splitlines() if ln.startswith("Section: ")), "Section: ?")
    path = line.removeprefix("Section: ").removeprefix("<section_path>").removesuffix("</section_path>")
    return json.dumps({"summary": "Model summary of " + path})


def describing_reply(rec: Recorded) -> str:
    """Scripted model: a fixed document description, else the echoed section summary."""
    if rec.json_schema and "description" in (rec.json_schema.get("properties") or {}):
        return json.dumps({"description": "A generated sample document."})
    return echo_summary(rec)


def last_run(store: str) -> dict:
    """The newest run report (``started_at`` is to the millisecond: two runs within a second still sort)."""
    runs = [json.loads(p.read_text()) for p in Path(store, "runs").glob("*.json")]
    return sorted(runs, key=lambda r: r["started_at"])[-1]
