"""CLI start-to-finish benchmark (issue 14 item 10): `pagetree index` of one 20-page PDF, from the shell.

Each round runs, in fresh processes and alternating so that both see the same machine load:
  * ``local``   — `python -m flows.cli index X.pdf --store S` with no Prefect API configured (today's CLI:
                  the flows' run without a Prefect server and without importing Prefect, flows/local.py);
  * ``prefect`` — the same flow called as a Prefect flow with no API configured, as the CLI did before:
                  Prefect starts its temporary API server for the call (`index_files(...)`).
  * ``before``  — with ``--before DIR`` (a checkout of the commit to compare with, e.g.
                  ``mkdir /tmp/old && git archive 08dd93f | tar -x -C /tmp/old``): that checkout's own
                  `python -m flows.cli index X.pdf`, with this venv.
  * ``imports`` / ``prefect_import`` — only the imports `local` pays for (pagetree's CLI and the local run's
                  modules), and only `import prefect.flows`: where the CPU goes.
Wall time includes interpreter start and imports; `uptime` is recorded before and after the rounds. Also:
`index` of an empty file (lines printed, exit code). Prints a markdown table; writes
benchmarks/results/cli.{json,md}.

    python benchmarks/cli.py [--rounds 5] [--before /tmp/old] [--modes local,prefect,imports,prefect_import]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def make_pdf(path: Path, pages: int = 20) -> Path:
    import pymupdf

    doc = pymupdf.open()
    toc = []
    for n in range(1, pages + 1):
        page = doc.new_page(width=612, height=792)
        if n % 4 == 1:
            toc.append([1, f"{n // 4 + 1} Chapter {n // 4 + 1}", n])
            page.insert_text((72, 90), f"{n // 4 + 1} Chapter {n // 4 + 1}", fontsize=16)
        body = " ".join(f"Sentence {i} of page {n} about pump maintenance, torque limits and error codes." for i in range(25))
        page.insert_textbox(pymupdf.Rect(72, 110, 540, 740), body, fontsize=10)
    doc.set_toc(toc)
    doc.save(path)
    return path


def env(home: Path) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_API", "PAGETREE_", "OPENAI_"))}
    out.update(PREFECT_HOME=str(home), PREFECT_SERVER_ALLOW_EPHEMERAL_MODE="true", PREFECT_SERVER_ANALYTICS_ENABLED="false",
               DO_NOT_TRACK="1")
    return out


def timed(argv: list[str], environ: dict[str, str], cwd: Path | str = ROOT) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall seconds, CPU seconds of the process and its children, the finished process). On a machine shared by
    many busy processes the wall time mostly measures waiting for a core; the CPU time does not."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(argv, env=environ, text=True, capture_output=True, cwd=cwd, timeout=900)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", default=None, help="source tree of the CLI to compare with (run with PYTHONPATH=DIR)")
    ap.add_argument("--modes", default="local", help="comma list of modes (before is added with --before)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks/results/cli.json"))
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="pagetree-cli-bench-"))
    pdf = make_pdf(work / "twenty.pdf")
    (work / "empty.pdf").write_bytes(b"")
    home = work / "prefect-home"
    modes = tuple(args.modes.split(",")) + (("before",) if args.before else ())
    if "local" not in modes:
        raise SystemExit("--modes must include local")
    times: dict[str, list[float]] = {mode: [] for mode in modes}
    cpu: dict[str, list[float]] = {mode: [] for mode in modes}
    before_lines: list[int] = []
    failures: dict[str, list[str]] = {}
    load = [os.getloadavg()[0]]
    uptime = [subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()]
    for r in range(args.rounds):
        for mode in modes if r % 2 == 0 else modes[::-1]:
            store = str(work / f"store-{mode}-{r}")
            environ, cwd = env(home), ROOT
            if mode in ("local", "before"):
                argv = [sys.executable, "-m", "flows.cli", "index", str(pdf), "--store", store]
                if mode == "before":  # `-m` puts the working directory first on sys.path
                    environ["PYTHONPATH"], cwd = args.before, Path(args.before)
            elif mode == "imports":
                argv = [sys.executable, "-c", "import flows.cli, flows.cli_run, flows.ingest_run"]
            elif mode == "prefect_import":
                argv = [sys.executable, "-c", "import prefect.flows"]
            else:
                argv = [sys.executable, "-c", "import sys; from flows.ingest import index_files; "
                        f"r = index_files([{str(pdf)!r}], store={store!r}); sys.exit(bool(r['failures']))"]
            seconds, cpu_s, done = timed(argv, environ, cwd)
            if mode == "before":
                before_lines.append(len([ln for ln in (done.stdout + done.stderr).splitlines() if ln.strip()]))
            if done.returncode != 0:  # the temporary Prefect server may not come up in time on a loaded machine
                lines = done.stderr.strip().splitlines() or ["?"]
                last = next((ln for ln in reversed(lines) if "Error" in ln), lines[-1])
                failures.setdefault(mode, []).append(f"{seconds:.1f}s exit {done.returncode}: {last[:200]}")
                print(f"{mode}: failed after {seconds:.1f}s: {last[:200]}", file=sys.stderr)
                continue
            times[mode].append(seconds)
            cpu[mode].append(cpu_s)
        load.append(os.getloadavg()[0])
    uptime.append(subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    _, _, empty = timed([sys.executable, "-m", "flows.cli", "index", str(work / "empty.pdf"), "--store", str(work / "e")],
                     env(home))
    empty_lines = [ln for ln in (empty.stdout + empty.stderr).splitlines() if ln.strip()]
    rows = {mode: {"median_s": round(statistics.median(t), 3) if t else None, "min_s": round(min(t), 3) if t else None,
                   "max_s": round(max(t), 3) if t else None, "runs": [round(x, 3) for x in t],
                   "cpu_median_s": round(statistics.median(cpu[mode]), 3) if cpu[mode] else None,
                   "failed": failures.get(mode, [])} for mode, t in times.items()}

    def ratio_to(other: str) -> float | None:
        a, b = rows["local"]["median_s"], rows.get(other, {}).get("median_s")
        return round(a / b, 3) if a and b else None

    ratio, ratio_before = ratio_to("prefect"), ratio_to("before")
    result = {"command": "python benchmarks/cli.py " + " ".join(sys.argv[1:]),
              "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
              "machine": {"python": platform.python_version(), "cpus": os.cpu_count(), "platform": platform.platform()},
              "load_1min": [round(x, 2) for x in load], "uptime": uptime, "pdf_pages": 20, "modes": rows, "ratio_local_to_prefect": ratio,
              "ratio_local_to_before": ratio_before,
              "before_lines_printed": before_lines,
              "empty_file": {"exit_code": empty.returncode, "lines": len(empty_lines), "output": empty_lines}}
    md = [f"# CLI: `pagetree index` of one 20-page PDF ({result['date']})", "",
          f"Command: `{result['command']}`; {os.cpu_count()} CPUs; 1-min load during the run: "
          f"{', '.join(map(str, result['load_1min']))}.", "", "`uptime` before and after the rounds:", "", "```",
          *uptime, "```", "",
          "| mode | wall median s | min s | max s | CPU median s | runs ok | failed |", "|---|---|---|---|---|---|---|"]
    md += [f"| {m} | {v['median_s']} | {v['min_s']} | {v['max_s']} | {v['cpu_median_s']} | {len(v['runs'])} | "
           f"{len(v['failed'])} |" for m, v in rows.items()]
    md += [f"- {m} failure: {f}" for m, v in rows.items() for f in v["failed"]]
    ratios = ([f"local / prefect: x{ratio}"] if ratio else []) + \
        ([f"local / before: x{ratio_before} (before printed {before_lines} lines)"] if ratio_before else [])
    md += ["", "Same rounds, alternating: " + ("; ".join(ratios) or "no ratio (one mode)"), "",
           f"Empty file: exit {empty.returncode}, {len(empty_lines)} lines:", "", "```", *empty_lines, "```"]
    text = "\n".join(md)
    print(text)
    out = Path(args.out)
    out.write_text(json.dumps(result, indent=1) + "\n")
    out.with_suffix(".md").write_text(text + "\n")


if __name__ == "__main__":
    main()
