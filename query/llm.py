"""The LLM navigator and answers, through the providers.base.ModelProvider interface.

The navigator loop: show the model the outline (depth 2), let it expand, read,
follow a detected cross-reference, or stop; capped at ``max_steps`` model
calls. Section text goes in fenced as untrusted data; node ids the model makes
up are refused in the next observation, never trusted. A provider failure or an
unusable reply falls back to the lexical navigator (recorded in the trace).
"""

from __future__ import annotations

import json
import os
from typing import Any

from query.errors import InvalidRequest
from query.lexical import Hit, lexical_search
from query.xref import refs_with_targets

READ_CHARS = 6000        # text of one read shown to the model (cost cap)
READ_PAGES = 8           # pages of one read shown to the model
SUMMARY_CHARS = 160


def provider_from_env(env: dict[str, str] | None = None) -> Any:
    """The configured model provider (PAGETREE_MODEL + OPENAI_*), or None when no model is configured."""
    env = dict(os.environ) if env is None else env
    if not env.get("PAGETREE_MODEL"):
        return None
    from providers import get_provider

    return get_provider(env)


def _outline_lines(doc: Any, node_id: str, depth: int, indent: int = 0) -> list[str]:
    node = doc.node(node_id)
    lines = []
    for child in node.nodes:
        summary = (child.summary or "")[:SUMMARY_CHARS]
        more = f" [+{len(child.nodes)} subsections]" if child.nodes and depth <= 1 else ""
        lines.append(f"{'  ' * indent}{child.node_id} {child.title} (pp. {child.start_page}-{child.end_page}){more}"
                     + (f" — {summary}" if summary else ""))
        if depth > 1 and child.nodes:
            lines.extend(_outline_lines(doc, child.node_id, depth - 1, indent + 1))
    return lines


def _section_view(doc: Any, node_id: str) -> tuple[str, list[dict[str, Any]], list[int]]:
    """(observation text with page markers, cross-references offered, pages shown)."""
    from providers import clip_chars, fence

    node = doc.node(node_id)
    last = min(node.end_page, node.start_page + READ_PAGES - 1, doc.tree.page_count)
    shown = list(range(node.start_page, last + 1))
    rows = doc.pages()
    body = "\n".join(f"[page {p}]\n{rows[p - 1]['text'] or ''}" for p in shown)
    body = clip_chars(body, READ_CHARS)
    refs = [r for r in refs_with_targets(doc, body, exclude=node_id) if r["node_id"]]
    text = (f"Read {node.node_id} <section_path>{fence(doc.path(node.node_id))}</section_path> (pp. {node.start_page}-"
            f"{node.end_page}{', first pages shown' if last < node.end_page else ''}):\n<section_text>\n{fence(body)}\n</section_text>")
    if refs:  # everything from the document stays inside a fence, escaped (providers.prompts.fence)
        listed = "; ".join(f"{r['text']} -> {r['node_id']} {r['title']}" for r in refs)
        text += f"\nCross-references you may follow: <cross_references>{fence(listed)}</cross_references>"
    return text, refs, shown


def llm_search(doc: Any, question: str, *, provider: Any, max_steps: int = 12, top_k: int = 10) -> tuple[list[Hit], list[dict[str, Any]]]:
    """Model-guided descent of one document; (hits in the order found, trace)."""
    from providers import ProviderError, fence

    from query.prompts import NAVIGATE

    if provider is None:
        raise InvalidRequest("navigator 'llm' needs a model provider (set PAGETREE_MODEL)")
    trace: list[dict[str, Any]] = []
    hits: list[Hit] = []
    opened: dict[str, int] = {doc.tree.root.node_id: 2}
    read: list[str] = []
    observation = "(start) The outline above shows the top two levels."
    last_read: tuple[str, list[int]] | None = None
    offered: set[str] = set()
    for step in range(1, max_steps + 1):
        outline = "\n".join(line for nid, depth in opened.items() for line in
                            ([f"[{nid} {doc.node(nid).title}]"] if nid != doc.tree.root.node_id else []) +
                            _outline_lines(doc, nid, depth))
        user = NAVIGATE.render(question=question, doc_title=fence(doc.tree.root.title), page_count=doc.tree.page_count,
                               outline=fence(outline), read=", ".join(read) or "nothing", steps_left=max_steps - step + 1,
                               observation=observation)
        try:
            reply = provider.complete(NAVIGATE.system, user, json_schema=NAVIGATE.schema, max_tokens=NAVIGATE.max_tokens)
            action = json.loads(reply.text)
            kind, node_id = str(action["action"]), str(action.get("node_id") or "")
            relevant = [int(p) for p in action.get("relevant_pages") or []]
        except (ProviderError, ValueError, KeyError, TypeError) as exc:
            trace.append({"step": step, "action": "fallback", "doc_id": doc.doc_id, "reason": f"{type(exc).__name__}: {exc}"[:300]})
            fallback, more = lexical_search(doc, question, top_k=top_k)
            return hits + [h for h in fallback if h.node_id not in {x.node_id for x in hits}][: max(0, top_k - len(hits))], trace + more
        usage = {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens, "cost_usd": reply.cost_usd}
        if last_read is not None:
            node_id_read, shown = last_read
            pages = [p for p in dict.fromkeys(relevant) if p in shown]  # only pages it was actually shown
            if pages:
                node = doc.node(node_id_read)
                hits.append(Hit(doc.doc_id, node.node_id, doc.path(node.node_id), node.title, node.start_page,
                                node.end_page, pages, round(1.0 / (1 + len(hits)), 6), doc.version))
            last_read = None
        entry = {"step": step, "action": kind, "doc_id": doc.doc_id, "node_id": node_id,
                 "reason": str(action.get("reason") or "")[:300], "usage": usage}
        trace.append(entry)
        if kind == "stop" or len(hits) >= top_k:
            break
        if not doc.has_node(node_id) or (kind == "follow" and node_id not in offered):
            observation = f"Unknown or unavailable node id {node_id!r}: use ids from the outline or the offered cross-references."
            entry["refused"] = True
            continue
        if kind == "expand":
            opened[node_id] = 1
            node = doc.node(node_id)
            observation = (f"Expanded {node_id} <section_path>{fence(node.title)}</section_path>: its subsections are now "
                           "in the outline."
                           if node.nodes else f"{node_id} has no subsections; read it instead.")
        else:  # read / follow
            observation, refs, shown = _section_view(doc, node_id)
            offered.update(r["node_id"] for r in refs)
            if refs:
                entry["xrefs"] = refs
            entry["pages"] = shown
            read.append(node_id)
            last_read = (node_id, shown)
    return hits, trace


def answer(question: str, hits: list[Hit], *, store: Any, provider: Any, max_chars: int = 12_000) -> dict[str, Any]:
    """Answer from the hits' pages with the model; every claim keeps only citations to text it was given."""
    from providers import clip_chars, fence

    from query.index import open_index
    from query.prompts import ANSWER

    if provider is None:
        raise InvalidRequest("answer() needs a model provider (set PAGETREE_MODEL)")
    given: dict[tuple[str, str], set[int]] = {}
    blocks, budget = [], max_chars
    for hit in hits:
        if budget <= 0:
            break
        doc = open_index(store, hit.doc_id, hit.version or None)
        pages = (hit.pages or list(range(hit.start_page, hit.end_page + 1)))[:4]
        text = clip_chars("\n".join(f"[page {p}]\n{doc.pages()[p - 1]['text'] or ''}" for p in pages), budget)
        budget -= len(text)
        given[(hit.doc_id, hit.node_id)] = set(pages)
        blocks.append(f"doc_id={hit.doc_id} node_id={hit.node_id} <section_path>{fence(hit.path)}</section_path>\n"
                      f"<section_text>\n{fence(text)}\n</section_text>")
    reply = provider.complete(ANSWER.system, ANSWER.render(question=question, sections="\n\n".join(blocks)),
                              json_schema=ANSWER.schema, max_tokens=ANSWER.max_tokens)
    try:
        data = json.loads(reply.text)
        text, claims = str(data["answer"]), list(data.get("claims") or [])
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidRequest(f"the model's answer was not valid JSON: {exc}") from None
    kept, dropped = [], 0
    for claim in claims:
        key = (str(claim.get("doc_id")), str(claim.get("node_id")))
        pages = [int(p) for p in claim.get("pages") or [] if int(p) in given.get(key, set())]
        if key in given and pages:
            kept.append({"text": str(claim.get("text", "")), "doc_id": key[0], "node_id": key[1], "pages": pages})
        else:
            dropped += 1  # a citation to something it was not shown is not a citation
    return {"question": question, "answer": text, "claims": kept, "dropped_claims": dropped,
            "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": reply.completion_tokens,
                      "cost_usd": reply.cost_usd, "model": reply.model}}
