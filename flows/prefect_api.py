"""Whether a Prefect API is configured, read the way Prefect reads it but without importing Prefect.

The CLI's local mode (flows/local.py) is chosen when no API is configured, and importing Prefect alone costs
that path about a second (benchmarks/results/cli.md), so the answer comes from Prefect's own sources, highest
priority first: the environment, a ``.env`` file, ``prefect.toml`` and ``pyproject.toml`` ([tool.prefect]) in
the working directory, then the active profile of the profiles file (``PREFECT_PROFILES_PATH``, else
``$PREFECT_HOME/profiles.toml``). Once Prefect is loaded (a test harness's temporary settings live only in
Prefect), Prefect's own answer is used.
"""

from __future__ import annotations

import os
import sys
import tomllib
from pathlib import Path
from typing import Any


def prefect_api_configured() -> bool:
    """A Prefect API to record runs in (``PREFECT_API_URL`` from any of Prefect's sources)."""
    if "prefect.settings" in sys.modules:
        from prefect.settings import PREFECT_API_URL

        return bool(PREFECT_API_URL.value())
    return bool(_prefect_setting("PREFECT_API_URL", ("api", "url")))


def _prefect_setting(name: str, keys: tuple[str, ...]) -> str | None:
    """A Prefect setting from Prefect's sources, highest priority first (env, .env, prefect.toml, pyproject.toml,
    the active profile); None when none sets it. An unreadable file counts as not setting it, as in Prefect."""
    if name in os.environ:
        return os.environ[name]
    dotenv, tomls = _dotenv(Path(".env")), _project_tomls()
    for value in (dotenv.get(name), *(_dig(data, keys) for data in tomls), _active_profile(dotenv, tomls).get(name)):
        if value is not None:
            return str(value)
    return None


def _project_tomls() -> tuple[dict[str, Any], dict[str, Any]]:
    """prefect.toml and pyproject.toml's [tool.prefect] in the working directory ({} each when absent)."""
    return _toml(Path("prefect.toml")), _toml(Path("pyproject.toml"), "tool", "prefect")


def _toml(path: Path, *prefix: str) -> dict[str, Any]:
    try:
        data: Any = tomllib.loads(path.read_text())
    except (OSError, ValueError):  # missing, unreadable or not TOML
        return {}
    if not prefix:
        return data
    found = _dig(data, prefix)
    return found if isinstance(found, dict) else {}


def _dig(data: Any, keys: tuple[str, ...]) -> Any:
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def _dotenv(path: Path) -> dict[str, str]:
    """KEY=VALUE lines of a .env file (optional ``export``, quotes), as far as Prefect settings go."""
    try:
        text = path.read_text()
    except (OSError, ValueError):
        return {}
    out = {}
    for line in text.splitlines():
        key, sep, value = line.strip().removeprefix("export ").partition("=")
        if sep and not key.startswith("#"):
            out[key.strip()] = value.strip().strip("'\"")
    return out


def _active_profile(dotenv: dict[str, str], tomls: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """The settings of Prefect's active profile (``PREFECT_PROFILE`` or the file's ``active``); {} when there is
    no profiles file (Prefect's default profile sets no API URL) or no such profile."""
    where = next((p for p in (os.environ.get("PREFECT_PROFILES_PATH"), dotenv.get("PREFECT_PROFILES_PATH"),
                              *(data.get("profiles_path") for data in tomls)) if p), None)
    home = Path(os.environ.get("PREFECT_HOME") or Path.home() / ".prefect").expanduser()
    profiles = _toml(Path(str(where)).expanduser() if where else home / "profiles.toml")
    active = os.environ.get("PREFECT_PROFILE") or profiles.get("active")
    found = _dig(profiles, ("profiles", str(active)))
    return found if isinstance(found, dict) else {}
