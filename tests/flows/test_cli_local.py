"""The `pagetree` CLI as an operator runs it (issue 14 items 7, 10, 11, 13): a real process, no Prefect API
configured, so `index` / `ingest` run the flow's code without a Prefect server; quiet by default, one line
per document, each failure once, start-up checks of the model provider with their own exit code."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.openai_server import FakeOpenAI

pytestmark = pytest.mark.integration


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PREFECT_API", "PAGETREE_", "OPENAI_"))}
    # Prefect's default profile allows a temporary server: without pagetree's local mode one would start here.
    env.update(PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_SERVER_ALLOW_EPHEMERAL_MODE="true",
               PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1", **extra)
    return env


def _cli(tmp_path: Path, *argv: str, stderr: int | None = subprocess.PIPE, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "flows.cli", *argv], env=_env(tmp_path, **env), text=True,
                          stdout=subprocess.PIPE, stderr=stderr, timeout=300)


def _lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_index_of_one_good_file_needs_no_prefect_server_and_prints_one_line_and_the_summary(samples_dir: Path,
                                                                                            tmp_path: Path) -> None:
    store = tmp_path / "index"
    done = _cli(tmp_path, "index", str(samples_dir / "manual.pdf"), "--store", str(store))
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = _lines(done.stdout)
    assert len(out) == 3 and out[0].startswith("new       manual  v")
    assert out[1].startswith("documents: 1 seen, 1 new") and out[2].startswith("pages: ")
    run = re.search(r"report runs/(\S+)\.json", out[2]).group(1)
    report = json.loads((store / "runs" / f"{run}.json").read_text())
    assert report["flow"] == "index-files" and report["counts"]["published"] == 1
    # No temporary Prefect server was started: it would have created its database under PREFECT_HOME.
    assert not list((tmp_path / "prefect-home").rglob("*.db"))
    again = _cli(tmp_path, "index", str(samples_dir / "manual.pdf"), "--store", str(store))
    assert again.returncode == 0 and _lines(again.stdout)[0].startswith("documents: 1 seen, 0 new")


def test_an_empty_file_is_three_lines_and_exit_1(tmp_path: Path) -> None:
    bad = tmp_path / "empty.pdf"
    bad.write_bytes(b"")
    done = _cli(tmp_path, "index", str(bad), "--store", str(tmp_path / "index"))
    assert done.returncode == 1
    printed = _lines(done.stdout) + _lines(done.stderr)
    assert len(printed) <= 3, printed
    failed = [line for line in printed if line.startswith("FAILED")]
    assert len(failed) == 1 and "empty file" in failed[0]
    assert "Traceback" not in done.stderr


def test_file_names_in_failed_lines_are_escaped(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "e\x1b]0;owned\x07\u202egnp.pdf").write_bytes(b"")
    done = _cli(tmp_path, "ingest", str(src), "--store", str(tmp_path / "index"))
    assert done.returncode == 1
    failed = [line for line in _lines(done.stderr) if line.startswith("FAILED")]
    assert len(failed) == 1 and "\\x1b]0;owned" in failed[0]
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e]", done.stdout + done.stderr)


def test_ingest_prints_each_failure_once_and_honours_quiet_and_verbose(samples_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(samples_dir, src)
    (src / "zero.pdf").write_bytes(b"")
    (src / "fake.pdf").write_text("not a pdf")
    store = str(tmp_path / "index")
    done = _cli(tmp_path, "ingest", str(src), "--store", store, "--no-ocr")
    assert done.returncode == 1
    assert sorted(_lines(done.stderr)) == [line for line in sorted(_lines(done.stderr)) if line.startswith("FAILED")]
    assert len(_lines(done.stderr)) == 2 and sum("zero" in line for line in _lines(done.stderr)) == 1
    assert sum(line.split()[0] == "new" for line in _lines(done.stdout)) == 5  # 3 PDFs, an HTML and a Markdown sample

    quiet = _cli(tmp_path, "-q", "ingest", str(src), "--store", store, "--no-ocr")
    assert quiet.returncode == 1 and quiet.stdout == "" and len(_lines(quiet.stderr)) == 2

    verbose = _cli(tmp_path, "ingest", str(src), "--store", store, "--no-ocr", "-v")
    assert "planned 7 objects" in verbose.stderr  # the flow's own log lines
    assert sum(line.startswith("unchanged") for line in _lines(verbose.stdout)) == 5
    assert not list((tmp_path / "prefect-home").rglob("*.db"))


def _on_terminal(tmp_path: Path, *argv: str) -> tuple[subprocess.CompletedProcess, bytes]:
    """Run the CLI with stderr on a pseudo-terminal: (the run, every byte drawn there)."""
    primary, secondary = pty.openpty()
    try:
        done = _cli(tmp_path, *argv, stderr=secondary)
        os.close(secondary)
        secondary = -1
        drawn = b""
        while True:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
    finally:
        os.close(primary)
        if secondary >= 0:
            os.close(secondary)
    return done, drawn


def test_progress_is_drawn_on_a_terminal_only(samples_dir: Path, tmp_path: Path) -> None:
    src = tmp_path / "two"
    src.mkdir()
    for name in ("manual.pdf", "filing.pdf"):
        shutil.copy(samples_dir / name, src / name)
    args = ("--no-ocr", "--workers", "1", "--batch-size", "1")
    done, drawn = _on_terminal(tmp_path, "ingest", str(src), "--store", str(tmp_path / "a"), *args)
    assert done.returncode == 0
    assert re.search(rb"\[1/2\] [0-9.]+ pages/s, ETA \d+:\d\d", drawn), drawn
    plain = _cli(tmp_path, "ingest", str(src), "--store", str(tmp_path / "b"), *args)
    assert "pages/s" not in plain.stderr and "\r" not in plain.stdout + plain.stderr


def test_a_document_being_built_shows_its_stage_on_a_terminal(samples_dir: Path, tmp_path: Path) -> None:
    # One document is the whole run: without its stages the line would sit at [0/1] until it is done.
    done, drawn = _on_terminal(tmp_path, "index", str(samples_dir / "scanned.pdf"), "--store", str(tmp_path / "s"))
    assert done.returncode == 0, done.stdout
    shown = [part.split(b"\x1b[K")[0] for part in drawn.split(b"\r")]
    assert any(re.fullmatch(rb"\[0/1\]  scanned: OCR 1/1 pages", line) for line in shown), drawn
    assert "new       scanned" in done.stdout and "OCR 1/1" not in done.stdout  # stages go to the terminal line only


def test_program_version_and_document_version_flags_read_clearly(tmp_path: Path) -> None:
    done = _cli(tmp_path, "--version")
    assert done.returncode == 0 and re.fullmatch(r"pagetree \S+\n", done.stdout)
    helped = _cli(tmp_path, "tree", "--help")
    assert "document version" in helped.stdout and "default 10" in helped.stdout
    assert "pagetree's own version" in _cli(tmp_path, "--help").stdout
    assert "case-insensitive" in _cli(tmp_path, "grep", "--help").stdout


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_model_without_key_or_endpoint_stops_before_any_work_with_exit_6(samples_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "index"
    pdf = str(samples_dir / "manual.pdf")
    no_key = _cli(tmp_path, "index", pdf, "--store", str(store), "--model", "gpt-4o-mini")
    assert no_key.returncode == 6 and len(_lines(no_key.stderr)) == 1 and "OPENAI_API_KEY" in no_key.stderr
    from_env = _cli(tmp_path, "ingest", str(samples_dir), "--store", str(store), PAGETREE_MODEL="gpt-4o-mini")
    assert from_env.returncode == 6 and "OPENAI_API_KEY" in from_env.stderr
    down = _cli(tmp_path, "index", pdf, "--store", str(store), "--model", "m",
                OPENAI_BASE_URL=f"http://127.0.0.1:{_closed_port()}/v1")
    assert down.returncode == 6 and "unreachable" in down.stderr and len(_lines(down.stderr)) == 1
    assert not store.exists()  # nothing started: no store, no run report


def test_a_refused_key_is_exit_6_and_allow_fallback_indexes_and_says_so(samples_dir: Path, tmp_path: Path) -> None:
    pdf = str(samples_dir / "manual.pdf")
    with FakeOpenAI(expected_api_key="right") as server:
        refused = _cli(tmp_path, "index", pdf, "--store", str(tmp_path / "a"), "--model", "m",
                       OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="wrong")
        assert refused.returncode == 6 and "refused the API key" in refused.stderr
        fallback = _cli(tmp_path, "index", pdf, "--store", str(tmp_path / "a"), "--model", "m", "--allow-fallback",
                        OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY="wrong", PAGETREE_MODEL_MAX_RETRIES="0")
    assert fallback.returncode == 0, fallback.stderr
    model_line = [line for line in _lines(fallback.stdout) if line.startswith("model:")]
    assert len(model_line) == 1 and "FALLBACKS" in model_line[0]


def test_the_cli_starts_no_server_process_and_a_sigterm_ends_it_cleanly(samples_dir: Path, tmp_path: Path) -> None:
    import signal

    import psutil

    src = tmp_path / "many"
    src.mkdir()
    for i in range(12):
        shutil.copy(samples_dir / "manual.pdf", src / f"m{i}.pdf")
    proc = subprocess.Popen([sys.executable, "-m", "flows.cli", "ingest", str(src), "--store", str(tmp_path / "index"),
                             "--no-ocr", "--workers", "1", "--batch-size", "1"],
                            env=_env(tmp_path), text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    children: set[int] = set()
    first = proc.stdout.readline()  # the first document is done: the run is under way
    try:
        children.update(c.pid for c in psutil.Process(proc.pid).children(recursive=True))
    except psutil.NoSuchProcess:
        pass
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=120)
    assert first.startswith("new"), err
    assert children == set()  # before: Prefect's temporary API server ran as a child process
    assert proc.returncode == 130 and "interrupted" in err and "Traceback" not in err


def test_every_flag_the_issue_names_has_help_with_its_default(capsys) -> None:
    from flows.cli import main

    named = {"--depth", "--node", "--max-chars", "--cursor", "--json", "--max-hits", "--keep", "--navigator",
             "--max-steps", "--top-k", "--host", "--port", "--transport", "--size", "--version"}
    commands = ("index", "ingest", "rebuild-stale", "tree", "read", "grep", "show", "list", "versions", "gc", "verify",
                "samples", "search", "outline", "pages", "find", "chunks", "serve", "mcp")
    seen = set()
    for command in commands:
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        # One entry per option: from a line starting with "  -" to the next such line.
        for entry in re.split(r"\n(?=  -)", text.split("options:", 1)[1]):
            flags = set(re.findall(r"--[a-z-]+", entry.split("  ", 2)[1] if entry.count("  ") > 1 else entry)) & named
            for flag in flags:
                seen.add(flag)
                assert "default" in " ".join(entry.split()), (command, flag, entry)
    assert seen == named
