"""Read a Markdown document into text blocks with markdown-it-py (CommonMark).

markdown-it-py implements the CommonMark spec and its test suite, so what is a heading is decided as every
CommonMark renderer decides it: ATX (``# Title``) and setext (a line underlined with ``===``/``---``)
headings count, a ``#`` line inside a fenced or indented code block does not. Each top-level block keeps its
source lines as its text (code stays code). Only headings go through inline parsing (for their plain-text
titles): a 10 MB single-line paragraph is one block cut into pages, never an inline parse.

YAML (``---``) and TOML (``+++``) front matter is metadata, not text: its ``title:`` becomes the title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parsers.blocks import Block, Style
from parsers.errors import DocumentError
from parsers.html_doc import decode

MAX_TITLE = 300
_FRONT = re.compile(r"\A(?:\ufeff)?(---|\+\+\+)[ \t]*\r?\n(.*?)(?:\r?\n)(?:\1|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_FRONT_TITLE = re.compile(r"^title\s*[:=]\s*[\"']?(.+?)[\"']?\s*$", re.M | re.I)


@dataclass
class MarkdownDocument:
    blocks: list[Block]
    title: str
    decisions: dict[str, Any] = field(default_factory=dict)


def _plain(md: Any, content: str) -> str:
    """A heading's inline markup reduced to its text (emphasis, code spans and link texts kept)."""
    content = content[:2000]
    out: list[str] = []
    for tok in md.parseInline(content):
        for child in tok.children or []:
            if child.type in ("text", "code_inline", "html_inline"):
                out.append(child.content)
            elif child.type in ("softbreak", "hardbreak"):
                out.append(" ")
    return " ".join("".join(out).split())[:MAX_TITLE]


def read_markdown(path: str | Path, max_bytes: int) -> MarkdownDocument:
    from markdown_it import MarkdownIt

    path = Path(path)
    size = path.stat().st_size
    if size > max_bytes:
        raise DocumentError(f"file is {size} bytes, over the limit of {max_bytes}", "too_large")
    text, encoding = decode(path.read_bytes())
    title = ""
    front = _FRONT.match(text)
    if front:
        t = _FRONT_TITLE.search(front.group(2))
        title = " ".join(t.group(1).split())[:MAX_TITLE] if t else ""
        text = text[front.end():]
    md = MarkdownIt("commonmark")
    md.core.ruler.disable("inline")  # block structure only; heading titles are parsed inline one by one
    inline = MarkdownIt("commonmark")
    lines = text.splitlines()
    tokens = md.parse(text)
    blocks: list[Block] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.level != 0 or tok.map is None or tok.nesting == -1:
            i += 1
            continue
        start, end = tok.map
        source = "\n".join(lines[start:end]).strip()
        if tok.type == "heading_open":
            heading = _plain(inline, tokens[i + 1].content) if i + 1 < len(tokens) else ""
            if heading:
                blocks.append(Block(text=heading, tag=tok.tag, style=Style(bold=True)))
        elif source:
            tag = "pre" if tok.type in ("fence", "code_block") else ("li" if "list" in tok.type else "p")
            blocks.append(Block(text=source, tag=tag))
        i += 1
    if not title:
        title = next((b.text for b in blocks if b.tag == "h1"), "")
    return MarkdownDocument(blocks=blocks, title=title,
                            decisions={"encoding": encoding, "front_matter": bool(front), "blocks": len(blocks)})
