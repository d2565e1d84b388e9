"""The CLI's local path (`pagetree index` / `ingest` without a Prefect API) never imports Prefect (issue 14's 2 s
target: importing Prefect alone took ~0.9 s of it), and its choice of that path reads Prefect's configuration as
Prefect does. Real processes: what a module import costs shows only in a fresh interpreter."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Modules the local `index` of one offline PDF into a folder store has no use for.
UNNEEDED = ("prefect", "openai", "boto3", "botocore", "lxml", "fastapi", "dask", "distributed")


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PAGETREE_", "OPENAI_"))}
    env.update(PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_SERVER_ANALYTICS_ENABLED="false", DO_NOT_TRACK="1",
               PYTHONPATH=str(ROOT), **extra)
    return env


def _run(code: str, tmp_path: Path, cwd: Path | None = None, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=_clean_env(tmp_path, **env), text=True,
                          capture_output=True, cwd=cwd or tmp_path, timeout=300)


@pytest.mark.parametrize("command", ["index", "ingest"])
def test_the_local_index_and_ingest_never_import_prefect(samples_dir: Path, tmp_path: Path, command: str) -> None:
    target = samples_dir / "manual.pdf"
    if command == "ingest":  # a folder of PDFs (an HTML file would rightly need lxml)
        (tmp_path / "src").mkdir()
        target = Path(shutil.copy(target, tmp_path / "src"))
        target = target.parent
    done = _run(f"""
        import json, sys
        from flows.cli import main
        code = main([{command!r}, {str(target)!r}, "--store", {str(tmp_path / "index")!r}, "--no-ocr"])
        loaded = sorted({{name.split(".")[0] for name in sys.modules}} & set({UNNEEDED!r}))
        print(json.dumps({{"code": code, "loaded": loaded}}))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result == {"code": 0, "loaded": []}, result
    assert list((tmp_path / "index" / "runs").glob("*.json"))  # the run report, as with Prefect


PROFILES = 'active = "{active}"\n[profiles.local]\nPREFECT_API_URL = "http://127.0.0.1:4200/api"\n[profiles.plain]\n' \
           'PREFECT_LOGGING_LEVEL = "INFO"\n'
#: name -> (environment, files in the working directory, profiles.toml in PREFECT_HOME or None)
CONFIGS = {
    "nothing": ({}, {}, None),
    "environment": ({"PREFECT_API_URL": "http://127.0.0.1:4200/api"}, {}, None),
    "empty environment value": ({"PREFECT_API_URL": ""}, {}, PROFILES.format(active="local")),
    "active profile": ({}, {}, PROFILES.format(active="local")),
    "profile without an api": ({}, {}, PROFILES.format(active="plain")),
    "PREFECT_PROFILE picks one": ({"PREFECT_PROFILE": "local"}, {}, PROFILES.format(active="plain")),
    "PREFECT_PROFILE picks none": ({"PREFECT_PROFILE": "plain"}, {}, PROFILES.format(active="local")),
    "prefect.toml": ({}, {"prefect.toml": '[api]\nurl = "http://127.0.0.1:4200/api"\n'}, None),
    "pyproject.toml": ({}, {"pyproject.toml": '[tool.prefect.api]\nurl = "http://127.0.0.1:4200/api"\n'}, None),
    ".env": ({}, {".env": "PREFECT_API_URL=http://127.0.0.1:4200/api\n"}, None),
    "profiles path in .env": ({}, {".env": "PREFECT_PROFILES_PATH=elsewhere.toml\n",
                                   "elsewhere.toml": PROFILES.format(active="local")}, None),
}


def test_prefect_api_configured_reads_env_files_and_profiles_as_prefect_does(tmp_path: Path) -> None:
    """Each configuration answered without Prefect first, then by Prefect's own settings, in one process."""
    setups = {}
    for i, (name, (env, files, profiles)) in enumerate(CONFIGS.items()):
        cwd, home = tmp_path / f"cwd{i}", tmp_path / f"home{i}"
        cwd.mkdir()
        home.mkdir()
        for file, text in files.items():
            (cwd / file).write_text(text)
        if profiles is not None:
            (home / "profiles.toml").write_text(profiles)
        setups[name] = {"env": {"PREFECT_HOME": str(home), **env}, "cwd": str(cwd)}
    done = _run(f"""
        import json, os, sys
        setups = json.loads({json.dumps(setups)!r})
        base = dict(os.environ)

        def enter(setup):
            os.environ.clear()
            os.environ.update(base, **setup["env"])
            os.chdir(setup["cwd"])

        from flows.prefect_api import prefect_api_configured
        ours = {{}}
        for name, setup in setups.items():
            enter(setup)
            ours[name] = prefect_api_configured()
        assert "prefect" not in sys.modules
        from prefect.settings import Settings
        theirs = {{}}
        for name, setup in setups.items():
            enter(setup)
            theirs[name] = bool(Settings().api.url)
        print(json.dumps([ours, theirs]))
    """, tmp_path)
    assert done.returncode == 0, done.stderr
    ours, theirs = json.loads(done.stdout.splitlines()[-1])
    assert ours == theirs
    assert sum(ours.values()) == 7  # both answers occur: the comparison is not trivially all False
