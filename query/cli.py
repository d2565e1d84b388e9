"""The query subcommands of ``pagetree`` (tree, read, grep, show; search, answer, outline, pages, find, chunks,
serve, mcp).

flows/cli.py registers them with ``add_document_parsers`` and ``add_parsers`` (two calls keep ``pagetree --help``
in its order) and dispatches to ``run``; errors propagate to its edge, which maps them to exit codes.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

COMMANDS = ("tree", "read", "grep", "show", "search", "answer", "outline", "pages", "find", "chunks", "serve", "mcp")
_VERSION_HELP = "document version to read, as printed by list/versions (v prefix optional; default: latest)"


def add_document_parsers(sub: Any, add_store: Callable[[argparse.ArgumentParser], None]) -> None:
    """tree, read, grep and show: one document's tree, sections and text."""
    p = sub.add_parser("tree", help="print a document's section tree")
    p.add_argument("doc_id")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--depth", type=int, default=10, help="levels below --node to print, 0-10 (default 10)")
    p.add_argument("--node", default="0000", help="node id whose subtree to print (default 0000, the root)")
    p.add_argument("--summaries", action="store_true", help="print each node's summary under it")
    add_store(p)

    p = sub.add_parser("read", help="print a section's text with its path and pages")
    p.add_argument("doc_id")
    p.add_argument("node_id")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--max-chars", type=int, default=20_000, help="characters to print, 1-200000 (default 20000)")
    p.add_argument("--cursor", type=int, default=0,
                   help="character offset to start at: the next_cursor of a truncated read (default 0)")
    p.add_argument("--json", action="store_true", help="print the result as JSON (default: text)")
    add_store(p)

    p = sub.add_parser("grep", help="case-insensitive regex (RE2) search in a document, optionally inside one section")
    p.add_argument("doc_id")
    p.add_argument("pattern", help="RE2 regular expression, matched case-insensitively line by line")
    p.add_argument("--node", default=None, help="only inside this node's section (default: the whole document)")
    p.add_argument("--pages", default=None, help="only on these pages, e.g. 5-10,12 (default: all)")
    p.add_argument("--max-hits", type=int, default=50, help="hits to print at most, 1-200 (default 50)")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--json", action="store_true", help="print the hits as JSON (default: one line each)")
    add_store(p)

    p = sub.add_parser("show", help="print tree.json")
    p.add_argument("doc_id")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--json", action="store_true", help="print tree.json (the default and only format)")
    add_store(p)


def add_parsers(sub: Any, add_store: Callable[[argparse.ArgumentParser], None]) -> None:
    p = sub.add_parser("search", help="tree search: ranked sections with citations (pages) and the trace")
    p.add_argument("question")
    p.add_argument("--doc", action="append", default=None, metavar="DOC_ID", help="restrict to this document; repeatable")
    p.add_argument("--navigator", choices=("lexical", "llm"), default="lexical",
                   help="lexical: offline BM25 over the tree; llm: a model descends the tree ($PAGETREE_MODEL) (default lexical)")
    p.add_argument("--max-steps", type=int, default=60, help="navigator steps (model calls for llm) at most (default 60)")
    p.add_argument("--top-k", type=int, default=10, help="sections to return at most (default 10)")
    p.add_argument("--max-docs", type=int, default=3, help="documents picked from the catalog when no --doc is given (default 3)")
    p.add_argument("--version", default=None, metavar="VERSION",
                   help="document version to search, with a single --doc (v prefix optional; default: latest)")
    p.add_argument("--json", action="store_true", help='print {"results": [...], "trace": [...]} (default: one line per section)')
    add_store(p)

    p = sub.add_parser("answer", help="search, then a model's answer whose claims cite node ids and pages "
                                      "(needs PAGETREE_MODEL and OPENAI_API_KEY or OPENAI_BASE_URL)")
    p.add_argument("question")
    p.add_argument("--doc", action="append", default=None, metavar="DOC_ID", help="restrict to this document; repeatable")
    p.add_argument("--navigator", choices=("lexical", "llm"), default="lexical",
                   help="how sections are found before the model answers: lexical (offline) or llm (default lexical)")
    p.add_argument("--max-steps", type=int, default=60, help="navigator steps (model calls for llm) at most (default 60)")
    p.add_argument("--top-k", type=int, default=5, help="sections given to the model at most (default 5)")
    p.add_argument("--json", action="store_true",
                   help='print {"question", "answer", "claims", "results", ...} (default: the answer, then its citations)')
    add_store(p)

    p = sub.add_parser("outline", help="a document's outline to a depth, with summaries and [+N subsections]")
    p.add_argument("doc_id")
    p.add_argument("--node", default="0000", help="node id whose outline to print (default 0000, the root)")
    p.add_argument("--depth", type=int, default=2, help="levels below --node, 0-10 (default 2)")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--json", action="store_true", help="print the outline as JSON (default: indented text)")
    add_store(p)

    p = sub.add_parser("pages", help="print pages by physical number, e.g. 5-10,12")
    p.add_argument("doc_id")
    p.add_argument("spec", help="physical page numbers, e.g. 5-10,12 (at most 200 pages)")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--json", action="store_true", help="print the pages as JSON (default: text)")
    add_store(p)

    p = sub.add_parser("find", help="sections containing an exact phrase (case-insensitive)")
    p.add_argument("doc_id")
    p.add_argument("text", help="phrase to find, case-insensitive, whitespace-normalised")
    p.add_argument("--version", default=None, metavar="VERSION", help=_VERSION_HELP)
    p.add_argument("--json", action="store_true", help="print the sections as JSON (default: one line each)")
    add_store(p)

    p = sub.add_parser("chunks", help="export ~N-character chunks with doc_id, node_id, tree_path, page_number (JSON lines)")
    p.add_argument("doc_ids", nargs="*", help="documents (default: all in the store)")
    p.add_argument("--size", type=int, default=500, help="characters per chunk, about (default 500)")
    p.add_argument("--out", default="-", help="output file (default: stdout)")
    add_store(p)

    p = sub.add_parser("serve", help="HTTP API (FastAPI) over the store")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8080, help="port to listen on (default 8080)")
    p.add_argument("--keys", default=None, help="API keys file (JSON or TOML: key -> allowed doc prefixes); default $PAGETREE_API_KEYS")
    add_store(p)

    p = sub.add_parser("mcp", help="MCP server exposing the query tools (stdio, or streamable HTTP)")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio for a local agent, http for streamable HTTP at /mcp (default stdio)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on with --transport http (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8081, help="port to listen on with --transport http (default 8081)")
    add_store(p)


def _print(obj: Any) -> None:
    print(json.dumps(obj, indent=1, ensure_ascii=False))


def run(args: argparse.Namespace, store: str) -> int:
    from query.index import open_index
    from query.terminal import block, line

    if args.command in ("tree", "read", "grep", "show"):
        return _document(args, open_index(store, args.doc_id, args.version))
    if args.command == "search":
        from query.search import search

        result = search(args.question, args.doc, store=store, navigator=args.navigator, max_steps=args.max_steps,
                        top_k=args.top_k, max_docs=args.max_docs, version=args.version,
                        provider=_provider() if args.navigator == "llm" else None)
        if args.json:
            _print(result.to_dict())  # the same fields as HTTP and MCP (the citation keys, title, version, snippet)
            return 0
        for i, hit in enumerate(result.results, 1):
            pages = ", ".join(map(str, hit.pages)) or f"{hit.start_page}-{hit.end_page}"
            print(line(f"{i:>2}. {hit.score:7.3f}  {hit.doc_id}  {hit.node_id}  {hit.path}  (pages {pages})"))
        if not result.results:
            print("no matching sections")
        return 0
    if args.command == "answer":
        return _answer(args, store)
    if args.command == "outline":
        out = open_index(store, args.doc_id, args.version).outline(args.node, depth=args.depth)
        if args.json:
            _print(out)
        else:
            _print_outline(out, clip=300)
        return 0
    if args.command == "pages":
        pages = open_index(store, args.doc_id, args.version).read_pages(args.spec)
        if args.json:
            _print(pages)
        for p in pages if not args.json else []:
            label = f" (label {p['label']})" if p.get("label") else ""
            print(line(f"=== page {p['page']}{label}  {p['node_id']}  {p['path']}") + "\n" + block(p["text"]))
        return 0
    if args.command == "find":
        found = open_index(store, args.doc_id, args.version).find(args.text)
        if args.json:
            _print(found)
        for f in found if not args.json else []:
            print(line(f"{f['node_id']}  {f['path']}  pages {', '.join(map(str, f['pages'])) or '-'}"))
        return 0
    if args.command == "chunks":
        return _chunks(args, store)
    if args.command == "serve":
        from query.server import serve

        serve(store, host=args.host, port=args.port, keys_file=args.keys)
        return 0
    if args.command == "mcp":
        from query.mcp_server import run_server

        run_server(store, transport=args.transport, host=args.host, port=args.port)
        return 0
    raise ValueError(f"not a query command: {args.command}")


def _document(args: argparse.Namespace, doc: Any) -> int:
    from query.terminal import block, line

    if args.command == "tree":
        _print_outline(doc.outline(args.node, depth=args.depth), summaries=args.summaries)
    elif args.command == "show":
        _print(doc.tree.to_dict())
    elif args.command == "read":
        out = doc.read(args.node_id, max_chars=args.max_chars, cursor=args.cursor)
        if args.json:
            _print(out)
        else:
            print(line(f"# {out['path']}  (pp. {out['start_page']}-{out['end_page']})") + "\n")
            print(block(out["text"]))
            if out["truncated"]:
                print(f"\n[truncated: {out['total_chars']} chars; continue with --cursor {out['next_cursor']}]")
    elif args.command == "grep":
        hits = doc.grep(args.pattern, node_id=args.node, pages=args.pages, max_hits=args.max_hits)
        if args.json:
            _print(hits)
        for hit in hits if not args.json else []:
            print(line(f"p.{hit['page']:<4} {hit['node_id']}  {hit['path']}: {hit['line']}"))
    return 0


def _print_outline(node: dict[str, Any], summaries: bool = True, clip: int | None = None, indent: int = 0) -> None:
    """One line per node (``tree``, ``outline``); summaries under them, clipped to ``clip`` characters."""
    from query.terminal import line

    pages = f"p. {node['start_page']}" if node["start_page"] == node["end_page"] else f"pp. {node['start_page']}-{node['end_page']}"
    more = f"  {node['more']}" if "more" in node else ""
    print(line(f"{'  ' * indent}{node['node_id']}  {node['title']}  ({pages}){more}"))
    if summaries and node.get("summary"):
        print(line(f"{'  ' * indent}      {node['summary'][:clip]}"))
    for child in node.get("nodes", []):
        _print_outline(child, summaries, clip, indent + 1)


def _chunks(args: argparse.Namespace, store: str) -> int:
    from query.chunks import write_jsonl
    from query.index import open_index, open_store

    doc_ids = args.doc_ids or [row["doc_id"] for row in open_store(store).catalog()]
    docs = [open_index(store, d) for d in doc_ids]
    if args.out == "-":
        n = write_jsonl(docs, sys.stdout, args.size)
    else:
        with open(args.out, "w", encoding="utf-8") as fh:
            n = write_jsonl(docs, fh, args.size)
    print(f"{n} chunks from {len(docs)} documents", file=sys.stderr)
    return 0


def _provider() -> Any:
    """The model provider from PAGETREE_MODEL and OPENAI_*; InvalidRequest (exit 2) when none is configured."""
    from query.errors import InvalidRequest
    from query.llm import provider_from_env

    provider = provider_from_env()
    if provider is None:
        raise InvalidRequest("this needs a model: set PAGETREE_MODEL (and OPENAI_API_KEY or OPENAI_BASE_URL)")
    return provider


def _answer(args: argparse.Namespace, store: str) -> int:
    from providers import ProviderError
    from query.search import answer

    try:
        out = answer(args.question, args.doc, store=store, provider=_provider(), navigator=args.navigator,
                     top_k=args.top_k, max_steps=args.max_steps)
    except ProviderError as exc:  # the model failed after its retries: one line, not a traceback
        print(f"pagetree: model error: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}", file=sys.stderr)
        return 1
    if args.json:
        _print(out)
        return 0
    print(out["answer"])
    for i, claim in enumerate(out["claims"], 1):
        print(f"  [{i}] {claim['doc_id']} {claim['node_id']} pages {', '.join(map(str, claim['pages']))}: {claim['text']}")
    if out.get("dropped_claims"):
        print(f"  ({out['dropped_claims']} claims dropped: they cited text the model was not shown)")
    return 0
