"""Hostile-input catalogue (issue 14): every input the issue names, plus the classic ones, through the real CLI.

Each case builds a source folder in code with one good PDF next to the hostile input(s), runs ``pagetree``
in a child process (as an operator would) and records one row: the hostile document's outcome (from the run
report), the exit code, the lines the command printed, wall seconds and the child's peak RSS (``wait4``).
Every row is then checked: the good documents of the batch are all published, ``pagetree verify`` exits 0,
and no output holds a traceback.

    .venv/bin/python benchmarks/hostile.py                 # all cases
    .venv/bin/python benchmarks/hostile.py --only fifo --only truncated-half

Children share one Prefect API server started here (Prefect's test harness), so each row measures the
command, not a temporary server's start (issue 14 item 10 removes that server from the CLI). Writes
benchmarks/results/hostile.{json,md}. Query-side inputs (page ranges, request bodies, escape sequences on
the terminal: items 6-7) are not indexing inputs and are not run here.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

import pymupdf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.pdfs import junk_pdf  # noqa: E402  (the same junk page as tests/parsers/test_huge_text_layer.py)
WORK = ROOT / "benchmarks" / ".work" / "hostile"
PAGETREE = [sys.executable, "-m", "flows.cli"]
ENV: dict[str, str] = {}  # for the children (set in main)


# -- inputs ------------------------------------------------------------------------------------------------
def text_pdf(path: Path, pages: int = 2, title: str = "Doc", toc: list | None = None) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        page.insert_text((72, 90), f"{title} chapter {n}", fontname="hebo", fontsize=16)
        page.insert_textbox(pymupdf.Rect(72, 110, 540, 740), f"Body text of {title}, page {n}. " * 12, fontsize=10)
    if toc:
        doc.set_toc(toc)
    doc.save(path)
    doc.close()
    return path


def book_bytes(pages: int = 20) -> bytes:
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 540, 740), f"Chapter {n}\n" + "Body text. " * 150, fontsize=10)
    data = doc.tobytes()
    doc.close()
    return data


def image_pdf(path: Path, side: int, page_pt: float = 612) -> Path:
    """A page whose single grey image is ``side`` x ``side`` pixels of flat content: ~``side``^2 bytes once
    decoded, a few hundred KB deflated (a decompression bomb when large)."""
    import zlib

    doc = pymupdf.open()
    page = doc.new_page(width=page_pt, height=page_pt)
    page.insert_text((36, 36), "Figure", fontsize=12)
    raw = zlib.compress(b"\x80" * side * side, 9)
    xref = doc.get_new_xref()
    doc.update_object(xref, f"<< /Type /XObject /Subtype /Image /Width {side} /Height {side} /ColorSpace /DeviceGray "
                            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(raw)} >>")
    doc.update_stream(xref, raw, compress=False)
    kind, value = doc.xref_get_key(page.xref, "Resources")
    if kind == "xref":  # an indirect resource dictionary: set the key on it
        doc.xref_set_key(int(value.split()[0]), "XObject", f"<< /Im0 {xref} 0 R >>")
    else:
        doc.xref_set_key(page.xref, "Resources/XObject", f"<< /Im0 {xref} 0 R >>")
    contents = page.get_contents()[0]
    doc.update_stream(contents, doc.xref_stream(contents) + f"\nq {page_pt} 0 0 {page_pt} 0 0 cm /Im0 Do Q".encode())
    doc.save(path)
    doc.close()
    return path


def many_pages(path: Path, pages: int) -> Path:
    doc = pymupdf.open()
    for n in range(1, 11):
        doc.new_page(width=300, height=300).insert_text((20, 40), f"Page {n} of the long document.", fontsize=9)
    while doc.page_count < pages:  # doubling by copying pages: 10,000 new_page calls took minutes here
        copy = pymupdf.open("pdf", doc.tobytes())
        doc.insert_pdf(copy, from_page=0, to_page=min(copy.page_count, pages - doc.page_count) - 1)
    doc.save(path)
    doc.close()
    return path


def cyclic_outline(path: Path) -> Path:
    text_pdf(path, 4, "Cycle", toc=[[1, f"Part {n}", n] for n in range(1, 5)])
    doc = pymupdf.open(path)
    first = int(doc.xref_get_key(doc.pdf_catalog(), "Outlines")[1].split()[0])
    head = int(doc.xref_get_key(first, "First")[1].split()[0])
    last = int(doc.xref_get_key(first, "Last")[1].split()[0])
    doc.xref_set_key(last, "Next", f"{head} 0 R")  # the last entry's /Next leads back to the first
    doc.xref_set_key(head, "First", f"{head} 0 R")  # and the first is its own child
    doc.save(path.with_suffix(".tmp"))
    doc.close()
    path.with_suffix(".tmp").replace(path)
    return path


# -- cases -------------------------------------------------------------------------------------------------
@dataclass
class Case:
    name: str
    what: str
    build: Callable[[Path], list[str]]  # builds the case under a folder; returns the pagetree arguments
    good: tuple[str, ...] = ("good",)  # doc ids that must be published
    hostile: tuple[str, ...] = ()  # doc ids (or key prefixes) whose outcome the row reports


def _src(base: Path) -> Path:
    src = base / "src"
    text_pdf(src / "good.pdf", 3, "Good")
    return src


def ingest_args(base: Path) -> list[str]:
    return ["ingest", str(base / "src"), "--store", str(base / "index")]


def simple(name: str, what: str, make: Callable[[Path], object], *hostile: str) -> Case:
    def build(base: Path) -> list[str]:
        make(_src(base))
        return ingest_args(base)
    return Case(name, what, build, hostile=hostile)


def _write(name: str, data: bytes) -> Callable[[Path], object]:
    return lambda src: (src / name).write_bytes(data)


def _encrypted(src: Path) -> None:
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 72), "secret")
    doc.save(src / "locked.pdf", encryption=pymupdf.PDF_ENCRYPT_AES_256, user_pw="u", owner_pw="o")
    doc.close()


def _garbled(src: Path) -> None:
    data = bytearray(book_bytes())
    n = len(data)
    data[n // 3: n // 3 + n // 5] = random.Random(7).randbytes(n // 5)
    (src / "garbled.pdf").write_bytes(bytes(data))


def _big_outline(src: Path) -> None:
    text_pdf(src / "outline.pdf", 50, "Outline", toc=[[1, f"Entry {i}", 1 + i % 50] for i in range(50_000)])


def _long_title(src: Path) -> None:
    text_pdf(src / "longtitle.pdf", 2, "Long", toc=[[1, "T" * 100_000, 1], [1, "Next", 2]])


def _escape_title(src: Path) -> None:
    text_pdf(src / "escapes.pdf", 2, "\x1b]0;pwned\x07\x1b[2J", toc=[[1, "\x1b[31mred\u202eevil", 1]])


def _pair(a: str, b: str) -> Callable[[Path], list[str]]:
    def build(base: Path) -> list[str]:
        src = _src(base)
        text_pdf(src / a, 2, "First")
        text_pdf(src / b, 2, "Second")
        return ingest_args(base)
    return build


def _two_dirs(base: Path) -> list[str]:
    text_pdf(base / "other.pdf", 2, "Good")
    return ["index", str(text_pdf(base / "dirA" / "good.pdf", 2, "A")), str(text_pdf(base / "dirB" / "good.pdf", 2, "B")),
            str(base / "other.pdf"), "--store", str(base / "index")]


def _other_source(base: Path) -> list[str]:
    text_pdf(base / "other.pdf", 2, "Good")
    first = text_pdf(base / "dirA" / "same.pdf", 2, "A")
    run([*PAGETREE, "index", str(first), "--store", str(base / "index")], ENV)
    return ["index", str(text_pdf(base / "dirB" / "same.pdf", 2, "B")), str(base / "other.pdf"), "--store", str(base / "index")]


def _symlinks(kind: str) -> Callable[[Path], object]:
    def make(src: Path) -> None:
        if kind == "dangling":
            (src / "dangling.pdf").symlink_to(src / "nowhere.pdf")
        elif kind == "outside":
            secret = text_pdf(src.parent / "elsewhere" / "secret.pdf", 1, "Secret")
            (src / "outside.pdf").symlink_to(secret)
            (src / "outside-dir").symlink_to(secret.parent)
        elif kind == "fifo":
            os.mkfifo(src / "pipe.pdf")
    return make


def _store_leftovers(base: Path) -> list[str]:
    """A store as a kill -9 leaves it: a never-published version (killed between manifest and latest.json), a
    stale staging folder and a zero-byte temp file; then a run, and verify must stay clean (warnings only)."""
    src = _src(base)
    text_pdf(src / "victim.pdf", 2, "Victim")
    store = base / "index"
    run([*PAGETREE, "ingest", str(src), "--store", str(store)], ENV)
    victim = store / "docs" / "victim"
    (victim / "latest.json").unlink()  # as if the process died before latest.json moved
    stale = victim / "versions" / f".staging-{'0' * 16}-{'a' * 32}"
    stale.mkdir()
    (stale / "tree.json").write_bytes(b"{")
    (victim / f".latest.json.{'b' * 32}.tmp").write_bytes(b"")
    (src / "victim.pdf").unlink()
    return ingest_args(base)


def _unwritable_report(base: Path) -> list[str]:
    _src(base)
    (base / "index").mkdir(parents=True)
    (base / "index" / "runs").write_text("not a folder")  # every report write fails, as on a full disk
    return ingest_args(base)


def _concurrent(base: Path) -> list[str]:
    src = _src(base)
    for n in range(6):
        text_pdf(src / f"doc{n}.pdf", 4, f"Doc {n}")
    return ingest_args(base) + ["--concurrent"]


def _bad_doc_id(base: Path) -> list[str]:
    return ["index", str(text_pdf(base / "good.pdf", 2, "Good")), "--doc-id", "CON", "--store", str(base / "index")]


CASES: list[Case] = [
    simple("zero-byte", "empty file", _write("zero.pdf", b""), "zero"),
    simple("truncated-third", "first third of a PDF", lambda s: (s / "cut.pdf").write_bytes(book_bytes()[:len(book_bytes()) // 3]), "cut"),
    simple("truncated-half", "first half of a 20-page PDF", lambda s: (s / "half.pdf").write_bytes(book_bytes()[:len(book_bytes()) // 2]), "half"),
    simple("garbage-inside", "20-page PDF with random bytes over a fifth of it", _garbled, "garbled"),
    simple("encrypted", "AES-256, user password", _encrypted, "locked"),
    simple("not-a-pdf", "text file named .pdf", _write("notes.pdf", b"just some notes\n" * 50), "notes"),
    simple("html-with-header", "HTML page that mentions %PDF-", _write("page.pdf", b"<!DOCTYPE html><html><body>Get %PDF-1.7 here" + b" x" * 2000 + b"</body></html>"), "page"),
    simple("decompression-bomb", "one 20000x20000 grey image: 400 MB decoded, 0.4 MB stored", lambda s: image_pdf(s / "bomb.pdf", 20_000), "bomb"),
    simple("huge-image", "8000x8000 image on a 200-inch page", lambda s: image_pdf(s / "huge.pdf", 8_000, 14_400), "huge"),
    simple("10000-pages", "10,000 pages of one line", lambda s: many_pages(s / "long.pdf", 10_000), "long"),
    simple("50000-outline", "50,000 outline entries over 50 pages", _big_outline, "outline"),
    simple("cyclic-outline", "outline whose /Next and /First loop", lambda s: cyclic_outline(s / "cycle.pdf"), "cycle"),
    simple("junk-text-layer", "one page of 200,000 junk spans", lambda s: junk_pdf(s / "junk.pdf", 200_000, ordinary_page=False), "junk"),
    simple("long-title", "a 100 KB outline title", _long_title, "longtitle"),
    simple("escape-title", "terminal escapes and a bidi override in title and outline", _escape_title, "escapes"),
    simple("escape-filename", "ESC in the file name", _write("bad\x1b[2Jname.pdf", book_bytes(1)), "bad"),
    simple("device-name", "CON.pdf and nul.pdf", lambda s: [text_pdf(s / "CON.pdf", 1), text_pdf(s / "nul.pdf", 1)], "CON", "nul"),
    simple("double-dot", "a..b.pdf", lambda s: text_pdf(s / "a..b.pdf", 1), "a.b"),
    simple("dangling-symlink", "symlink to a missing file", _symlinks("dangling"), "dangling"),
    simple("fifo", "a FIFO named .pdf", _symlinks("fifo"), "pipe"),
    simple("symlink-outside", "symlinks (file, folder) leaving the source folder", _symlinks("outside"), "outside"),
    Case("space-vs-dash", "'a b.pdf' and 'a-b.pdf' (one id before)", _pair("a b.pdf", "a-b.pdf"), hostile=("a-b",)),
    Case("accent-vs-plain", "'ü.pdf' and 'u.pdf' (one id before)", _pair("ü.pdf", "u.pdf"), hostile=("u",)),
    Case("two-dirs-one-name", "pagetree index dirA/good.pdf dirB/good.pdf other.pdf", _two_dirs, good=("other",), hostile=("good",)),
    Case("other-source", "a second file under an id another file holds", _other_source, good=("other", "same"), hostile=("same",)),
    Case("bad-doc-id", "pagetree index x.pdf --doc-id CON", _bad_doc_id, good=(), hostile=()),
    Case("store-leftovers", "never-published version, stale staging, zero-byte temp file", _store_leftovers, hostile=("victim",)),
    Case("report-unwritable", "runs/ cannot be written (as on a full disk)", _unwritable_report, hostile=()),
    Case("concurrent-runs", "two ingests of one folder into one store at once", _concurrent, good=("good", "doc0", "doc5")),
]


# -- running -----------------------------------------------------------------------------------------------
TIME = Path("/usr/bin/time")


def run(cmd: list[str], env: dict[str, str], timeout: float = 1800) -> tuple[int, str, float, float]:
    """(exit code, output, seconds, peak RSS MB) of one child process.

    Peak RSS comes from GNU time's %M when it is installed: a child forked from this process and exec'd keeps
    this process's high-water mark as its own ru_maxrss (Linux records the replaced memory map's peak at
    exec), which made every row after the decompression bomb (built here, 400 MB) read 650 MB. time's own
    child is forked from a small process. Without it, wait4's figure, an upper bound."""
    t0 = time.perf_counter()
    measure = WORK / ".maxrss"
    if TIME.exists():
        cmd = [str(TIME), "-f", "%M", "-o", str(measure), *cmd]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, env={**os.environ, **env})
    out = []
    deadline = t0 + timeout
    while True:
        line = proc.stdout.readline()
        if not line:
            break
        out.append(line.decode("utf-8", "replace"))
        if time.perf_counter() > deadline:
            proc.kill()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss / 1024
    if TIME.exists():
        rss = int(measure.read_text().split()[-1]) / 1024
        out = [line for line in out if not line.startswith("Command exited with non-zero status")]
    return code, "".join(out), time.perf_counter() - t0, rss


@dataclass
class Row:
    case: str
    what: str
    outcome: str
    exit_code: int
    lines: int
    seconds: float
    peak_rss_mb: float
    good_published: bool
    verify_exit: int
    traceback: bool
    ok: bool = False
    notes: list[str] = field(default_factory=list)


def outcome_of(store: Path, hostile: tuple[str, ...], output: str) -> str:
    runs = sorted((store / "runs").glob("*.json")) if (store / "runs").is_dir() else []
    if not runs:
        return "no run report" + ("; " + output.strip().splitlines()[-1][:80] if output.strip() else "")
    report = json.loads(max(runs, key=lambda p: json.loads(p.read_text()).get("started_at", "")).read_text())
    parts = []
    for doc in report["documents"]:
        if not any(doc["doc_id"].startswith(h) for h in hostile):
            continue
        kinds = "+".join(w["kind"] for w in doc.get("warnings") or [])
        detail = doc.get("error_kind") or kinds or doc.get("structure_source") or ""
        parts.append(f"{doc['doc_id']}: {doc['status']}" + (f" ({detail})" if detail else ""))
    return printable("; ".join(parts) or f"{report['counts']['published']} published, {report['counts']['failed']} failed")


def run_case(case: Case, env: dict[str, str]) -> Row:
    base = WORK / case.name
    if base.exists():
        subprocess.run(["rm", "-rf", str(base)], check=True)
    base.mkdir(parents=True)
    args = case.build(base)
    concurrent = "--concurrent" in args
    args = [a for a in args if a != "--concurrent"]
    if concurrent:
        other = subprocess.Popen([*PAGETREE, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                                 env={**os.environ, **env})
    code, output, seconds, rss = run([*PAGETREE, *args], env)
    if concurrent:
        other.wait()
    store = base / "index"
    published = all((store / "docs" / d / "latest.json").exists() for d in case.good)
    v_code, v_out, _, _ = run([*PAGETREE, "verify", "--store", str(store)], env) if store.exists() else (0, "", 0, 0)
    outcome = outcome_of(store, case.hostile, output)
    if case.name == "bad-doc-id":
        outcome = "usage error" if code == 2 else f"exit {code}"
    row = Row(case.name, case.what, outcome, code, len(output.splitlines()), round(seconds, 2), round(rss, 1),
              published, v_code, "Traceback" in output or "Traceback" in v_out)
    row.ok = published and v_code == 0 and not row.traceback
    if "WARNING" in v_out:
        row.notes.append("verify: " + "; ".join(line[:100] for line in v_out.splitlines() if line.startswith("WARNING")))
    if case.name == "store-leftovers":
        g_code, g_out, _, _ = run([*PAGETREE, "gc", "--grace-hours", "0", "--store", str(store)], env)
        row.notes.append(f"gc --grace-hours 0: exit {g_code}, {g_out.strip().splitlines()[-1] if g_out.strip() else ''}")
        leftovers = [p.name for p in store.rglob(".*") if not p.name.endswith(".lock")]
        row.ok = row.ok and g_code == 0 and not leftovers
    if case.name == "report-unwritable":
        row.ok = published and code == 4 and not row.traceback and "documents:" in output
        row.verify_exit = v_code
    return row


def printable(text: str) -> str:
    """File names and titles are untrusted: escape control characters before they reach a table or a terminal."""
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in text)


def markdown(rows: list[Row], meta: dict) -> str:
    out = [f"# Hostile-input catalogue (issue 14)", "",
           f"`{meta['command']}` at {meta['commit']}, {meta['started']} - {meta['finished']} UTC, {meta['machine']}; "
           f"load before/after: {meta['load_before']} / {meta['load_after']} (seconds are wall time from the shell, "
           "interpreter start included, and grow with the load; exit codes and outcomes do not).", "",
           "Every row: the good documents of the batch published, `pagetree verify` exit 0, no traceback (column ok).", "",
           "| case | input | outcome (run report) | exit | lines | s | peak RSS MB | verify | ok |", "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        cell = r.outcome.replace("|", "/")
        out.append(f"| {r.case} | {r.what} | {cell} | {r.exit_code} | {r.lines} | {r.seconds} | {r.peak_rss_mb} | "
                   f"{r.verify_exit} | {'yes' if r.ok else '**no**'} |")
    notes = [f"- {r.case}: {n}" for r in rows for n in r.notes]
    if notes:
        out += ["", "Notes:", "", *notes]
    return "\n".join(out) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=None, help="run only these cases (repeatable)")
    args = ap.parse_args()
    cases = [c for c in CASES if not args.only or c.name in args.only]
    WORK.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("PREFECT_HOME", str(WORK / ".prefect"))
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    meta = {"command": "benchmarks/hostile.py" + "".join(f" --only {c}" for c in args.only or []),
            "commit": subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT).stdout.strip(),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
            "started": time.strftime("%Y-%m-%d %H:%M", time.gmtime()), "load_before": round(os.getloadavg()[0], 1)}
    rows = []
    # The CLI as a user runs it: no Prefect API configured, so index and ingest run in the CLI's own process
    # (flows/local.py). An API inherited from the caller's shell would turn every row into a Prefect flow run.
    os.environ.pop("PREFECT_API_URL", None)
    env = {"PYTHONPATH": str(ROOT)}
    ENV.update(env)
    for case in cases:
        row = run_case(case, env)
        rows.append(row)
        print(f"{row.case:<20} {'ok' if row.ok else 'NOT OK':<7} exit {row.exit_code}  {row.lines:>3} lines  "
              f"{row.seconds:>7.2f}s  {row.peak_rss_mb:>7.1f} MB  {row.outcome}", flush=True)
    meta.update(finished=time.strftime("%H:%M", time.gmtime()), load_after=round(os.getloadavg()[0], 1))
    results = ROOT / "benchmarks" / "results"
    name = "hostile" if not args.only else "hostile-partial"
    (results / f"{name}.json").write_text(json.dumps({"meta": meta, "rows": [asdict(r) for r in rows]}, indent=1,
                                                     ensure_ascii=True) + "\n")
    (results / f"{name}.md").write_text(markdown(rows, meta))
    print(markdown(rows, meta))
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
