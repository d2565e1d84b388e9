"""``pagetree index`` / ``ingest`` / ``rebuild-stale``: start-up checks, which engine runs the flow, what is printed.

Without a Prefect API (no ``PREFECT_API_URL``, no profile or harness setting one) ``index`` and ``ingest``
with the threads runner call the flows' run directly (flows/ingest_run.py, flows/local.py): no temporary Prefect
server, and no import of Prefect at all; same code, same run report. With an API, or with the processes/dask runners (their workers run Prefect
tasks), the flow runs through Prefect as before.

Output: one line per document as it finishes (``-v`` adds unchanged ones), each failed document once on
stderr, then the summary (flows.report.summary_text); on a terminal a progress line (documents done/total,
pages/s, ETA, and what a document being built is doing: "manual: OCR 12/300 pages") is redrawn on stderr.
Prefect's own logs default to warnings, flow/task/document logs show with ``-v``, and ``-q`` prints errors and
failed documents only.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from typing import Any, Iterator, TextIO

from flows.prefect_api import prefect_api_configured
from query import terminal

EXIT_MODEL = 6

# Loggers whose messages the CLI reports itself (outcome lines, the summary's fallback count): shown with -v.
_RUN_LOGGERS = ("prefect.flow_runs", "prefect.task_runs", "pagetree.flows", "providers")


@contextmanager
def log_levels(verbose: int, quiet: bool) -> Iterator[None]:
    """Prefect at WARNING (ERROR with -q, INFO with -v); run and document logs only with -v. Restored on exit."""
    names = ("prefect", *_RUN_LOGGERS)
    saved = {name: logging.getLogger(name).level for name in names}
    handler = None
    if verbose:
        levels = {name: logging.INFO for name in names}
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
        for name in ("pagetree", "providers"):  # Prefect's loggers have their own handlers
            logging.getLogger(name).addHandler(handler)
    else:
        levels = {name: logging.ERROR for name in _RUN_LOGGERS}
        levels["prefect"] = logging.ERROR if quiet else logging.WARNING
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)
    try:
        yield
    finally:
        for name, level in saved.items():
            logging.getLogger(name).setLevel(level)
        if handler is not None:
            for name in ("pagetree", "providers"):
                logging.getLogger(name).removeHandler(handler)


def check_ocr(args: argparse.Namespace) -> str | None:
    """Start-up check: tesseract and the requested language packs, before any work starts (None when fine)."""
    if getattr(args, "no_ocr", False):
        return None
    from parsers.errors import DependencyError
    from parsers.ocr import check_tesseract

    try:
        check_tesseract(args.ocr_lang or "eng")
    except DependencyError as exc:
        return str(exc)
    return None


def check_model(args: argparse.Namespace) -> str | None:
    """Start-up check of the model provider when a model is named, unless --allow-fallback (None when fine)."""
    if getattr(args, "allow_fallback", False):
        return None
    from flows.models import check_provider, provider_settings

    return check_provider(provider_settings(model=getattr(args, "model", None),
                                            vision_model=getattr(args, "vision_model", None)))


def doc_line(doc: dict[str, Any]) -> str:
    if doc["status"] in ("new", "changed", "rebuilt"):
        return terminal.line(f"{doc['status']:<10}{doc['doc_id']}  v{doc['version']}  {doc['pages']} pages  "
                             f"{doc['nodes']} nodes  structure={doc['structure_source']}  {doc['seconds']:.2f}s")
    if doc.get("stale"):  # a dry run of rebuild-stale: why, and the estimated work
        work = doc.get("work") or {}
        return terminal.line(f"{doc['status']:<10}{doc['doc_id']}  {doc.get('reason') or ''}  (est. "
                             f"{work.get('pages_parsed', 0)} pages to parse, {work.get('ocr_pages', 0)} to OCR, "
                             f"{work.get('model_calls', 0)} model calls)")
    why = f"  ({doc['reason']})" if doc.get("reason") and doc["status"] == "skipped" else ""
    return terminal.line(f"{doc['status']:<10}{doc['doc_id']}{why}")


def failed_line(doc: dict[str, Any]) -> str:
    where = doc.get("uri") or ""
    name = where.rsplit("/", 1)[-1] if where else ""
    suffix = f" ({name})" if name and name.rsplit(".", 1)[0] != doc["doc_id"] else ""
    return terminal.line(f"FAILED  {doc['doc_id']}{suffix}: {doc['error']}")


class Printer:
    """Prints each document once, as its batch finishes; a redrawn progress line when stderr is a terminal.

    Called from the threads building documents (flows.local.Stage) as well as after each batch
    (flows.local.Progress): every write holds one lock."""

    REDRAW_SECONDS = 0.2  # stage updates closer together than this are not drawn (a batch's end always is)

    def __init__(self, verbose: int, quiet: bool, total: int | None = None, out: TextIO | None = None,
                 err: TextIO | None = None):
        self.verbose, self.quiet, self.total = verbose, quiet, total
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.tty = not quiet and self.err.isatty()
        self.printed: set[tuple[str, str, str]] = set()
        self._finished: set[str] = set()  # doc_ids whose outcome is in: their late stage messages are not drawn
        self._drawn = False
        self._lock = threading.RLock()
        self._stages: dict[str, str] = {}  # doc_id -> what it is doing, for documents being built
        self._head = f"[0/{total}]" if total else ""
        self._last_draw = 0.0
        self._last_text = ""

    def document(self, doc: dict[str, Any]) -> None:
        with self._lock:
            self._document(doc)

    def _document(self, doc: dict[str, Any]) -> None:
        self._stages.pop(doc["doc_id"], None)
        self._finished.add(doc["doc_id"])
        key = (doc["doc_id"], doc.get("uri") or "", doc["status"])
        if key in self.printed:
            return
        self.printed.add(key)
        if doc["status"] == "failed":
            self._clear()
            print(failed_line(doc), file=self.err)
        elif not self.quiet and (doc["status"] != "unchanged" or self.verbose):
            self._clear()
            print(doc_line(doc), file=self.out)

    def __call__(self, event: Any) -> None:  # flows.local.Progress after each batch, flows.local.Stage as documents build
        with self._lock:
            if hasattr(event, "message"):
                self._stage(event)
            else:
                self._batch(event)

    def _stage(self, event: Any) -> None:
        if event.doc_id in self._finished:
            return  # a late message from a document already printed
        self._stages[event.doc_id] = event.message
        now = time.monotonic()
        if self.tty and now - self._last_draw >= self.REDRAW_SECONDS:
            self._draw()
            self._last_draw = now

    def _batch(self, event: Any) -> None:
        from dataclasses import asdict

        for outcome in event.outcomes:
            self._document(asdict(outcome))
        total = self.total or (event.done + event.left if event.listed_all else None)
        rate = event.pages / event.seconds if event.seconds > 0 else 0.0
        eta = ""
        if total and event.done:
            left_s = event.seconds / event.done * (total - event.done)
            eta = f", ETA {int(left_s // 60)}:{int(left_s % 60):02d}"
        self._head = f"[{event.done}/{total or '?'}] {rate:.1f} pages/s{eta}"
        if self.tty and (event.left or not event.listed_all):
            self._draw()

    def _draw(self) -> None:
        parts = [self._head] if self._head else []
        if self._stages:
            doc_id, message = next(reversed(self._stages.items()))  # the document that spoke last
            more = f" (+{len(self._stages) - 1} more)" if len(self._stages) > 1 else ""
            parts.append(f"{doc_id}: {message}{more}" if message else f"{doc_id}{more}")
        text = terminal.line("  ".join(parts))
        width = shutil.get_terminal_size((100, 24)).columns
        if len(text) >= width:  # a wrapped line cannot be redrawn with \r
            text = text[:max(10, width - 2)] + "\u2026"
        if self._drawn and text == self._last_text:
            return
        self._last_text = text
        self.err.write(f"\r{text}\x1b[K")
        self.err.flush()
        self._drawn = True

    def _clear(self) -> None:
        if self._drawn:
            self.err.write("\r\x1b[K")
            self._drawn = False

    def report(self, report: dict[str, Any]) -> None:
        with self._lock:
            self._stages.clear()
            self._clear()
            for doc in report.get("documents", []):
                self._document(doc)
        if not self.quiet and report.get("counts"):
            from flows.report import summary_text

            print(terminal.block(summary_text(report)), file=self.out)  # warning lines carry document text


def run_flow(args: argparse.Namespace, store: str, settings: dict[str, Any]) -> int:
    problem = check_ocr(args)
    if problem:
        print(f"pagetree: {problem}", file=sys.stderr)
        return 5
    problem = check_model(args)
    if problem:
        print(f"pagetree: {problem} (--allow-fallback indexes anyway, with extractive summaries)", file=sys.stderr)
        return EXIT_MODEL
    verbose, quiet = getattr(args, "verbose", 0), getattr(args, "quiet", False)
    as_json = getattr(args, "json", False)
    missing: list[str] = []
    if args.command == "index":
        if args.doc_id and len(args.paths) != 1:
            print("pagetree: --doc-id needs exactly one file", file=sys.stderr)
            return 2
        missing = [p for p in args.paths if not os.path.isfile(p)]
        for path in missing:
            print(terminal.line(f"pagetree: {path}: no such file"), file=sys.stderr)
    printer = Printer(verbose, quiet or as_json, total=len(args.paths) - len(missing) if args.command == "index" else None)
    with ExitStack() as stack:
        stack.enter_context(log_levels(verbose, quiet))
        from flows.local import listening, local_slots

        stack.enter_context(listening(printer))
        report = _run(args, store, settings, missing, stack, local_slots)
    if as_json:
        print(json.dumps(report, indent=1))
    else:
        printer.report(report)
    if report.get("report_error"):  # the run ended, but its record could not be written (a full disk)
        print(terminal.line(f"pagetree: {report['report_error']}"), file=sys.stderr)
        return 4
    failed = report.get("failures") or []
    return 1 if failed or missing else 0


def _run(args: argparse.Namespace, store: str, settings: dict[str, Any], missing: list[str], stack: ExitStack,
         local_slots: Any) -> dict[str, Any]:
    from flows.ingest_run import DEFAULT_BATCH, index_paths, ingest_source  # no Prefect: see flows/local.py

    runner = getattr(args, "task_runner", "threads")
    local = (args.command in ("index", "ingest") and runner == "threads" and not getattr(args, "dask_address", None)
             and not prefect_api_configured())
    if local:
        stack.enter_context(local_slots(args.workers))
    if args.command == "index":
        paths = [p for p in args.paths if p not in missing]
        if not paths:
            return {"documents": [], "failures": []}
        if not local:
            from flows.ingest import index_files
        call = index_paths if local else index_files
        return call(paths, store=store, settings=settings, doc_ids=[args.doc_id] if args.doc_id else None,
                    replace=args.replace)
    common = dict(store=store, settings=settings, endpoint_url=args.endpoint_url,
                  store_endpoint_url=args.store_endpoint_url, chunk_size=args.chunk_size, doc_timeout=args.doc_timeout,
                  batch_size=args.batch_size or DEFAULT_BATCH)
    from flows.runners import with_runner

    if args.command == "rebuild-stale":
        from flows.rebuild import rebuild_stale

        return with_runner(rebuild_stale, runner, args.workers, args.dask_address)(
            doc_prefix=args.doc_prefix, source_prefix=args.source_prefix, published_before=args.published_before,
            dry_run=args.dry_run, **common)
    if not local:
        from flows.ingest import ingest
    call = ingest_source if local else with_runner(ingest, runner, args.workers, args.dask_address)
    return call(args.source, include=args.include, exclude=args.exclude, max_size=args.max_size,
                tombstone_removed=args.tombstone_removed, replace=args.replace, **common)
