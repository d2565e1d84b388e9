"""The run report: what a run saw, did and failed at — as JSON (store) and markdown (Prefect artifact)."""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

from index_store.store import utcnow  # to the millisecond: runs started within a second still sort


def new_run_id() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ") + "-" + uuid.uuid4().hex[:8]


@dataclass
class DocOutcome:
    doc_id: str
    uri: str
    status: str  # new | changed | unchanged | rebuilt | failed | skipped
    version: str | None = None
    pages: int = 0
    ocr_pages: int = 0
    nodes: int = 0
    structure_source: str | None = None
    seconds: float = 0.0
    bytes_downloaded: int = 0
    error: str | None = None
    error_kind: str | None = None
    model: dict[str, Any] = field(default_factory=dict)
    reason: str | None = None  # why it was (re)indexed, skipped or left unchanged
    warnings: list[dict[str, Any]] = field(default_factory=list)  # published but marked: {kind, pages, message}
    # pages_parsed, ocr_pages (read by tesseract, not the cache), model_calls: measured, or estimated by a dry run
    work: dict[str, int] = field(default_factory=dict)
    reused: dict[str, Any] | None = None  # stages taken from an older version ({"from_version", "stages", "why"})
    stale: list[dict[str, str]] = field(default_factory=list)  # dry run: [{"stage", "why"}] per stale stage


@dataclass
class RunReport:
    run_id: str
    flow: str
    source: str
    store: str
    fingerprint: str
    started_at: str = field(default_factory=utcnow)  # with _t0 below: when the report (the run) began
    finished_at: str | None = None
    duration_seconds: float = 0.0
    documents: list[DocOutcome] = field(default_factory=list)
    removed_from_source: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    report_error: str | None = None  # set when runs/<run-id>.json could not be written (the CLI then exits 4)
    _t0: float = field(default_factory=time.perf_counter, repr=False)

    def finish(self) -> "RunReport":
        self.finished_at = utcnow()
        self.duration_seconds = round(time.perf_counter() - self._t0, 3)
        return self

    def counts(self) -> dict[str, int]:
        out = {"seen": len(self.documents)}
        for status in ("new", "changed", "unchanged", "rebuilt", "failed", "skipped"):
            out[status] = sum(d.status == status for d in self.documents)
        out["published"] = out["new"] + out["changed"] + out["rebuilt"]
        out["pages"] = sum(d.pages for d in self.documents if d.status != "unchanged")
        out["ocr_pages"] = sum(d.ocr_pages for d in self.documents)
        out["bytes_downloaded"] = sum(d.bytes_downloaded for d in self.documents)
        return out

    def model_usage(self) -> dict[str, Any]:
        totals: dict[str, Any] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0, "fallbacks": 0}
        for doc in self.documents:
            for key in totals:
                totals[key] += doc.model.get(key, 0) or 0
        totals["cost_usd"] = round(totals["cost_usd"], 6)
        return totals

    def work(self) -> dict[str, int]:
        """Pages parsed, pages OCR'd and model calls over the run (a dry run's are estimates)."""
        totals = {"pages_parsed": 0, "ocr_pages": 0, "model_calls": 0}
        for doc in self.documents:
            for key in totals:
                totals[key] += int(doc.work.get(key) or 0)
        return totals

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("_t0", None)
        d["counts"] = self.counts()
        d["work"] = self.work()
        d["model_usage"] = self.model_usage()
        d["failures"] = [
            {"doc_id": x.doc_id, "uri": x.uri, "kind": x.error_kind, "error": x.error}
            for x in self.documents
            if x.status == "failed"
        ]
        d["warnings"] = [{"doc_id": x.doc_id, "uri": x.uri, **w} for x in self.documents for w in x.warnings]
        return d

    @property
    def failed(self) -> list[DocOutcome]:
        return [d for d in self.documents if d.status == "failed"]

    def to_text(self) -> str:
        c = self.counts()
        lines = [
            f"run {self.run_id} ({self.flow}) in {self.duration_seconds:.1f}s: "
            f"{c['seen']} seen, {c['new']} new, {c['changed']} changed, {c['rebuilt']} rebuilt, "
            f"{c['unchanged']} unchanged, {c['failed']} failed; {c['pages']} pages indexed, {c['ocr_pages']} OCR pages, "
            f"{c['bytes_downloaded']} bytes downloaded"
        ]
        work = self.work()
        lines.append(f"work: {work['pages_parsed']} pages parsed, {work['ocr_pages']} pages OCR'd, "
                     f"{work['model_calls']} model calls")
        usage = self.model_usage()
        if usage["calls"] or usage["fallbacks"]:
            lines.append(
                f"model: {usage['calls']} calls, {usage['prompt_tokens']}+{usage['completion_tokens']} tokens, "
                f"${usage['cost_usd']:.4f} estimated, {usage['fallbacks']} extractive fallbacks"
            )
        for doc in self.failed:
            lines.append(f"FAILED {doc.doc_id}: {doc.error}")
        lines.extend(f"WARNING {doc.doc_id}: {w.get('kind')}: {w.get('message')}" for doc in self.documents for w in doc.warnings)
        for doc_id in self.removed_from_source:
            lines.append(f"REMOVED from source (kept in store): {doc_id}")
        lines.extend(f"note: {n}" for n in self.notes)
        return "\n".join(lines)

    def to_markdown(self) -> str:
        c = self.counts()
        rows = "\n".join(f"| {k} | {v} |" for k, v in c.items())
        md = [f"# Run {self.run_id} ({self.flow})", "", f"Source `{self.source}` → store `{self.store}`, "
              f"{self.duration_seconds:.1f}s, fingerprint `{self.fingerprint[:12]}`", "", "| what | count |", "|---|---|", rows]
        if self.failed:
            md += ["", "## Failures", "", "| doc | kind | error |", "|---|---|---|"]
            md += [f"| {d.doc_id} | {d.error_kind} | {(d.error or '').replace('|', '/')} |" for d in self.failed]
        warned = [(d, w) for d in self.documents for w in d.warnings]
        if warned:
            md += ["", "## Published with warnings", "", "| doc | kind | pages | message |", "|---|---|---|---|"]
            md += [f"| {d.doc_id} | {w.get('kind')} | {w.get('pages', '')} | {str(w.get('message', '')).replace('|', '/')} |"
                   for d, w in warned]
        if self.removed_from_source:
            md += ["", "## Removed from the source (kept in the store)", ""]
            md += [f"- {doc_id}" for doc_id in self.removed_from_source[:200]]
        usage = self.model_usage()
        md += ["", f"Model: {usage['calls']} calls, {usage['prompt_tokens'] + usage['completion_tokens']} tokens, "
               f"${usage['cost_usd']:.4f}, {usage['fallbacks']} extractive fallbacks."]
        return "\n".join(md)


def summary_text(report: dict[str, Any]) -> str:
    """The run summary the CLI prints, from the JSON report (same numbers as runs/<run-id>.json): two lines, a
    third when a model was called or fell back, a fourth when documents disappeared from the source."""
    c = report.get("counts", {})
    usage = report.get("model_usage", {})
    kinds: dict[str, int] = {}
    for failure in report.get("failures", []):
        kinds[str(failure.get("kind"))] = kinds.get(str(failure.get("kind")), 0) + 1
    reasons = f" ({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))})" if kinds else ""
    where = f"; report runs/{report['run_id']}.json" if report.get("run_id") else ""
    lines = [
        f"documents: {c.get('seen', 0)} seen, {c.get('new', 0)} new, {c.get('changed', 0)} changed, "
        f"{c.get('rebuilt', 0)} rebuilt, {c.get('unchanged', 0)} unchanged, {c.get('skipped', 0)} skipped, "
        f"{c.get('failed', 0)} failed{reasons}",
        f"pages: {c.get('pages', 0)} indexed, {c.get('ocr_pages', 0)} OCR; {c.get('bytes_downloaded', 0)} bytes downloaded; "
        f"{report.get('duration_seconds', 0):.1f}s{where}",
    ]
    if usage.get("calls") or usage.get("fallbacks"):
        fallbacks = usage.get("fallbacks", 0)
        lines.append(
            f"model: {usage.get('calls', 0)} calls, {usage.get('prompt_tokens', 0)}+{usage.get('completion_tokens', 0)} tokens, "
            f"${usage.get('cost_usd', 0.0):.4f}"
            + (f"; FALLBACKS: {fallbacks} summaries written offline because the model failed" if fallbacks else ""))
    work = report.get("work")
    if work and (report.get("flow") == "rebuild-stale" or work.get("pages_parsed", 0) != c.get("pages", 0)
                 or work.get("ocr_pages", 0) != c.get("ocr_pages", 0)):  # only when a rebuild reused something
        lines.append(f"work: {work.get('pages_parsed', 0)} pages parsed, {work.get('ocr_pages', 0)} pages OCR'd, "
                     f"{work.get('model_calls', 0)} model calls")
    for warning in report.get("warnings") or []:  # published, but the reader must know: one line each
        lines.append(f"WARNING {warning.get('doc_id')}: {warning.get('kind')}: {warning.get('message')}")
    removed = report.get("removed_from_source") or []
    if removed:
        lines.append(f"removed from source (kept in store): {', '.join(removed[:20])}" + (" ..." if len(removed) > 20 else ""))
    return "\n".join(lines)
