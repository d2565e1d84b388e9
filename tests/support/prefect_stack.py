"""A real local Prefect stack in subprocesses: `prefect server start` on a free loopback port with its own
PREFECT_HOME, the `prefect` CLI against it, and process workers, as docs/operations.md tells an operator.

Every process is started in its own session (process group) and ``close()`` ends each group it started
(SIGTERM, then SIGKILL), so a flow-run process a worker spawned goes with its worker. ``kill_worker`` is
what losing a worker host looks like: the worker and everything under it SIGKILLed at once.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LocalStack:
    def __init__(self, home: Path, log_dir: Path | None = None):
        self.home = Path(home)
        self.log_dir = Path(log_dir or home)
        self.port = free_port()
        self.api_url = f"http://127.0.0.1:{self.port}/api"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
        self.env.update(PREFECT_HOME=str(self.home / "prefect-home"), PREFECT_API_URL=self.api_url,
                        PREFECT_SERVER_ANALYTICS_ENABLED="false", PREFECT_UI_ENABLED="false",
                        PREFECT_CLI_COLORS="false", PREFECT_CLI_WRAP_LINES="false",
                        PREFECT_WORKER_QUERY_SECONDS="1", PREFECT_WORKER_PREFETCH_SECONDS="5")

    def _spawn(self, name: str, args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = open(self.log_dir / f"{name}.log", "ab")
        proc = subprocess.Popen(args, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        log.close()
        self.procs.append(proc)
        return proc

    def start_server(self, timeout: float = 120.0, **server_env: str) -> None:
        env = dict(self.env, **server_env)
        env.pop("PREFECT_API_URL")
        proc = self._spawn("server", [sys.executable, "-m", "prefect", "server", "start", "--host", "127.0.0.1",
                                      "--port", str(self.port)], self.home, env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"prefect server exited with {proc.returncode}: {self.log('server')}")
            try:
                with urllib.request.urlopen(f"{self.api_url}/health", timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise TimeoutError(f"prefect server not healthy after {timeout}s: {self.log('server')}")

    def prefect(self, *args: str, cwd: Path | None = None, timeout: float = 180.0, check: bool = True,
                **env: str) -> subprocess.CompletedProcess[str]:
        """Run the `prefect` CLI against this server; output in ``.stdout`` (stderr merged)."""
        done = subprocess.run([sys.executable, "-m", "prefect", *args], cwd=cwd or self.home, env=dict(self.env, **env),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        if check and done.returncode != 0:
            raise AssertionError(f"prefect {' '.join(args)} exited {done.returncode}:\n{done.stdout[-4000:]}")
        return done

    def start_worker(self, name: str = "worker", pool: str = "pagetree", **env: str) -> subprocess.Popen[bytes]:
        return self._spawn(name, [sys.executable, "-m", "prefect", "worker", "start", "--pool", pool,
                                  "--name", f"{name}-{self.port}"], self.home, dict(self.env, **env))

    def kill_worker(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL the worker and every process under it (its flow-run processes, their task workers)."""
        for pid in descendants(proc.pid) + [proc.pid]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait(timeout=10)

    def log(self, name: str, tail: int = 3000) -> str:
        path = self.log_dir / f"{name}.log"
        return path.read_text(errors="replace")[-tail:] if path.exists() else ""

    def client(self) -> Any:
        """A synchronous Prefect client on this server (use as a context manager)."""
        from prefect.client.orchestration import SyncPrefectClient

        return SyncPrefectClient(self.api_url)

    def close(self) -> None:
        # Snapshot the whole tree first: once a parent is gone its children are re-parented and out of sight.
        tree = {proc.pid: descendants(proc.pid) for proc in self.procs}
        for proc in reversed(self.procs):
            for pid in tree[proc.pid]:
                _signal(pid, signal.SIGTERM)
            _signal_group(proc, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
        for proc in reversed(self.procs):
            for pid in tree[proc.pid]:
                _signal(pid, signal.SIGKILL)
            _signal_group(proc, signal.SIGKILL)
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self.procs.clear()

    def __enter__(self) -> "LocalStack":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _signal(pid: int, sig: int) -> None:
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        pass


def _signal_group(proc: subprocess.Popen[bytes], sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)  # its own session: the group id is its pid
    except (ProcessLookupError, PermissionError):
        pass


def descendants(pid: int) -> list[int]:
    """Every process under ``pid`` (children first found, grandchildren after), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fh:
                ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out
