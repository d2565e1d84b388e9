"""The ``pagetree`` command line. Errors become one-line messages and exit codes here, at the edge.

Exit codes: 0 success, 1 some documents failed / verification found problems,
2 usage error, 3 not found, 4 store or source unusable, 5 a required system component
(tesseract or a language pack) is missing, 6 the model provider named by --model /
PAGETREE_MODEL (or the vision model) is unusable: no OPENAI_API_KEY / OPENAI_BASE_URL,
endpoint unreachable or key refused (``--allow-fallback`` indexes anyway, with extractive
summaries where the model fails).

Text from documents and file names is printed through query.terminal (controls and bidi
overrides escaped); JSON output is printed as is.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

DEFAULT_STORE = "./index"


def _store_default() -> str:
    return os.environ.get("PAGETREE_STORE") or DEFAULT_STORE


def _add_store(p: argparse.ArgumentParser) -> None:
    p.add_argument("--store", default=None, help=f"index store: folder or s3://bucket/prefix (default: $PAGETREE_STORE or {DEFAULT_STORE})")


def _doc_id(value: str) -> str:
    """argparse type: a bad --doc-id is a usage error (exit 2) before anything starts."""
    from index_store.errors import InvalidDocId
    from index_store.layout import check_doc_id

    try:
        return check_doc_id(value)
    except InvalidDocId as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _replace_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--replace", action="store_true",
                   help="index a file under a doc id whose latest.json names another source (refused by default)")


def _pipeline_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--page-group-size", type=int, default=None, help="pages per node when no structure is found (default 10)")
    p.add_argument("--no-ocr", action="store_true", help="never OCR pages without a text layer")
    p.add_argument("--ocr-lang", default=None, help="tesseract language(s), e.g. eng or deu+eng (default eng)")
    p.add_argument("--ocr-dpi", type=int, default=None, help="render resolution for OCR (default 300)")
    p.add_argument("--model", default=None,
                   help="model for summaries via OPENAI_BASE_URL/OPENAI_API_KEY, e.g. gpt-4o-mini (default: $PAGETREE_MODEL; none = offline)")
    p.add_argument("--vision-model", default=None, help="model for figure/scan pages (default: $PAGETREE_VISION_MODEL)")
    p.add_argument("--allow-fallback", action="store_true",
                   help="index even when the model provider is unusable (no key, unreachable): extractive summaries "
                        "where the model fails, counted in the summary (default: stop with exit code 6 before any work)")


def _ingest_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--endpoint-url", default=None, help="S3-compatible endpoint of the source (default: AWS chain, $AWS_ENDPOINT_URL)")
    p.add_argument("--store-endpoint-url", default=None, help="S3-compatible endpoint of an s3:// store")
    p.add_argument("--task-runner", choices=("threads", "processes", "dask"), default="threads",
                   help="where documents are parsed: threads (default), processes, or dask")
    p.add_argument("--workers", type=int, default=None, help="threads/processes/local Dask workers (default: per runner)")
    p.add_argument("--dask-address", default=None, help="scheduler address of an existing Dask cluster (implies dask)")
    p.add_argument("--chunk-size", type=int, default=500, help="objects planned per step; bounds memory (default 500)")
    p.add_argument("--doc-timeout", type=float, default=1800.0, help="seconds allowed per document (default 1800)")
    p.add_argument("--batch-size", type=int, default=None,
                   help="documents per Prefect task at most (default 64, flows.ingest.DEFAULT_BATCH; batches shrink towards the end of a run so "
                        "that workers finish together; 1: one task per document)")


def _settings(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if getattr(args, "page_group_size", None):
        out["page_group_size"] = args.page_group_size
    if getattr(args, "no_ocr", False):
        out["ocr"] = False
    if getattr(args, "ocr_lang", None):
        out["ocr_lang"] = args.ocr_lang
    if getattr(args, "ocr_dpi", None):
        out["ocr_dpi"] = args.ocr_dpi
    from flows.models import pipeline_overrides, provider_settings  # model names enter the fingerprint; keys do not

    out.update(pipeline_overrides(provider_settings(model=getattr(args, "model", None),
                                                    vision_model=getattr(args, "vision_model", None))))
    return out


def _add_verbosity(p: argparse.ArgumentParser, top: bool = False) -> None:
    """-v/-q before the command (``pagetree -q index ...``) or after it (``pagetree index ... -q``)."""
    default: Any = 0 if top else argparse.SUPPRESS
    p.add_argument("-v", "--verbose", action="count", default=default,
                   help="also show flow, task and per-document log messages, and unchanged documents (default: off)")
    p.add_argument("-q", "--quiet", action="store_true", default=False if top else argparse.SUPPRESS,
                   help="print errors and failed documents only, no per-document lines or summary (default: off)")


def program_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pagetree")
    except PackageNotFoundError:
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pagetree", description="Index PDFs into verified section trees; browse and search them.")
    parser.add_argument("--version", action="version", version=f"pagetree {program_version()}",
                        help="print pagetree's own version and exit (after a command, --version names a document version)")
    _add_verbosity(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("index", help="index PDF files directly (the index-files flow; no Prefect server needed)")
    p.add_argument("paths", nargs="+")
    p.add_argument("--doc-id", default=None, type=_doc_id, help="document id (only with a single file)")
    p.add_argument("--json", action="store_true", help="print the run report as JSON (default: one line per document and a summary)")
    p.add_argument("--workers", type=int, default=None, help="documents indexed at once (default 4)")
    _add_store(p)
    _pipeline_args(p)
    _replace_arg(p)
    _add_verbosity(p)

    p = sub.add_parser("ingest", help="index new and changed PDFs, HTML and Markdown under a folder or s3:// prefix")
    p.add_argument("source")
    p.add_argument("--include", action="append", default=None, help="glob of keys to include (default *.pdf *.htm *.html *.xhtml *.md *.markdown; "
                   "the format is read from the content, so '*.txt' picks up EDGAR filings stored as text); repeatable")
    p.add_argument("--exclude", action="append", default=None, help="glob of keys to exclude; repeatable")
    p.add_argument("--json", action="store_true", help="print the run report as JSON (default: one line per document and a summary)")
    _add_store(p)
    _pipeline_args(p)
    _ingest_args(p)
    p.add_argument("--max-size", type=int, default=None, help="skip (and report) objects larger than this many bytes")
    p.add_argument("--tombstone-removed", action="store_true",
                   help="mark documents that disappeared from the source in their latest.json (never deleted)")
    _replace_arg(p)
    _add_verbosity(p)

    p = sub.add_parser("rebuild-stale", help="re-index documents whose latest version was built by another pipeline")
    p.add_argument("--doc-prefix", default=None, help="only documents whose id starts with this")
    p.add_argument("--source-prefix", default=None, help="only documents whose source URI starts with this (s3://b/2023/)")
    p.add_argument("--published-before", default=None, help="only documents published before this ISO date/time")
    p.add_argument("--dry-run", action="store_true", help="list what would be rebuilt, index nothing")
    p.add_argument("--json", action="store_true", help="print the run report as JSON (default: one line per document and a summary)")
    _add_store(p)
    _pipeline_args(p)
    _ingest_args(p)
    _add_verbosity(p)

    from query.cli import add_document_parsers, add_parsers as add_query_parsers

    add_document_parsers(sub, _add_store)  # tree, read, grep, show

    p = sub.add_parser("list", help="list documents in the store")
    p.add_argument("--json", action="store_true", help="print catalog rows as JSON (default: one line each)")
    _add_store(p)

    p = sub.add_parser("versions", help="list the published versions of a document")
    p.add_argument("doc_id")
    _add_store(p)

    p = sub.add_parser("gc", help="delete old versions, keeping the newest N of each document")
    p.add_argument("--keep", type=int, default=3, help="versions to keep per document, newest first (default 3)")
    p.add_argument("--doc-id", default=None, help="only this document (default: all)")
    p.add_argument("--grace-hours", type=float, default=24.0,
                   help="also remove never-published versions, staging folders and temp files older than this (default 24)")
    p.add_argument("--prune-caches", action="store_true",
                   help="also delete OCR and vision cache entries that no kept version references")
    _add_store(p)

    p = sub.add_parser("verify", help="re-hash stored files against their manifests")
    p.add_argument("doc_id", nargs="?")
    _add_store(p)

    p = sub.add_parser("facts", help="inline-XBRL facts of a filing (concept, value, period, node, page)")
    p.add_argument("doc_id")
    p.add_argument("concept", nargs="?", default=None, help="concept name, e.g. us-gaap:Revenues (prefix optional)")
    p.add_argument("--text", default=None, help="only facts whose value contains this text")
    p.add_argument("--version", default=None)
    p.add_argument("--json", action="store_true")
    _add_store(p)

    p = sub.add_parser("samples", help="write the sample documents (3 PDFs, an HTML 10-Q, a Markdown manual; used by the demo and tests) into a folder")
    p.add_argument("folder")

    add_query_parsers(sub, _add_store)  # search, answer, outline, pages, find, chunks, serve, mcp
    return parser


def _run_flow(args: argparse.Namespace) -> int:
    from flows.cli_run import run_flow

    return run_flow(args, args.store or _store_default(), _settings(args))


def _query(args: argparse.Namespace) -> int:
    from index_store.store import Store
    from query import open_index
    from query.terminal import line

    store_uri = args.store or _store_default()
    if args.command == "list":
        store = Store(store_uri)
        rows = list(store.catalog())
        if args.json:
            print(json.dumps(rows, indent=1))
        for row in rows if not args.json else []:
            print(line(f"{row['doc_id']:<40} v{row['version']}  {row.get('page_count', '?'):>5} pages  "
                       f"{row.get('structure_source', '?'):<9} {row.get('title') or ''}"))
        return 0
    if args.command == "versions":
        for m in Store(store_uri).versions(args.doc_id):
            print(f"{m['version']}  {m['created_at']}  fingerprint {m['pipeline']['fingerprint'][:12]}  {m['source'].get('sha256', '')[:12]}")
        return 0
    if args.command == "gc":
        store = Store(store_uri)
        store.check()
        removed = store.gc(keep=args.keep, doc_id=args.doc_id, grace_seconds=args.grace_hours * 3600)
        debris = store.clean_debris(args.grace_hours * 3600)
        for doc_id, version in removed:
            print(f"removed {doc_id}@{version}")
        for key in debris:
            print(f"removed {key}")
        print(f"{len(removed)} versions removed" + (f", {len(debris)} leftovers of interrupted writes" if debris else ""))
        if args.prune_caches:
            from index_store.cache import prune

            pruned = prune(store)
            print("cache entries removed: " + ", ".join(f"{kind} {n}" for kind, n in pruned.items()))
        return 0
    if args.command == "verify":
        problems, warnings = Store(store_uri).audit(args.doc_id)
        for warning in warnings:
            print(f"WARNING {warning}", file=sys.stderr)
        for problem in problems:
            print(line(f"MISMATCH {problem}"), file=sys.stderr)
        print("verify: OK" if not problems else f"verify: {len(problems)} problem(s)")
        return 1 if problems else 0
    facts = open_index(store_uri, args.doc_id, args.version).facts(concept=args.concept, text=args.text)
    if args.json:
        print(json.dumps(facts, indent=1, ensure_ascii=False))
    for f in facts if not args.json else []:
        period = f["instant"] or f"{f['period_start']}..{f['period_end']}"
        value = f["value"] if len(f["value"]) <= 60 else f["value"][:57] + "..."
        print(f"{f['concept']:<55} {value:>20} {f['unit'] or '':<12} {period:<23} p.{f['page_number'] or '-':<4} {f['node_id'] or '-'}")
    return 0


def _terminate(signum: int, frame: Any) -> None:
    """SIGTERM unwinds like Ctrl-C, so that exit handlers run (a temporary Prefect server is stopped by one)."""
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # The temporary Prefect server's telemetry only fails (and locks its SQLite) on offline machines.
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    try:
        if args.command in ("index", "ingest", "rebuild-stale"):
            import signal
            import threading

            if threading.current_thread() is not threading.main_thread():
                return _run_flow(args)
            previous = signal.signal(signal.SIGTERM, _terminate)
            try:
                return _run_flow(args)
            finally:
                signal.signal(signal.SIGTERM, previous)
        if args.command == "samples":
            from parsers.samples import generate

            for path in generate(args.folder):
                print(path)
            return 0
        from query.cli import COMMANDS as QUERY_COMMANDS, run as run_query

        if args.command in QUERY_COMMANDS:
            return run_query(args, args.store or _store_default())
        return _query(args)
    except KeyboardInterrupt:
        print("pagetree: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # output piped into head & co.: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        return _error_exit(exc)


def _error_exit(exc: Exception) -> int:
    from index_store.errors import NotFound, StoreError
    from query.errors import InvalidRequest, NotFoundError

    from query.terminal import line

    message = line(str(exc).splitlines()[0]) if str(exc) else type(exc).__name__
    if isinstance(exc, (NotFoundError, NotFound)):
        print(f"pagetree: not found: {message}", file=sys.stderr)
        return 3
    if isinstance(exc, InvalidRequest):
        print(f"pagetree: invalid request: {message}", file=sys.stderr)
        return 2
    from flows.sources import SourceError

    if isinstance(exc, (StoreError, SourceError)):
        print(f"pagetree: {message}", file=sys.stderr)
        return 4
    raise exc


if __name__ == "__main__":
    sys.exit(main())
