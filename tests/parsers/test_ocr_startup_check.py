"""Start-up check: a missing tesseract or language pack is one clear error naming the apt package, before any work."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from parsers.errors import DependencyError
from parsers.ocr import apt_package, check_tesseract

pytestmark = pytest.mark.integration


def test_installed_languages_pass_and_missing_ones_name_their_package() -> None:
    version, installed = check_tesseract("deu+eng")
    assert version.startswith("5.") and {"eng", "deu"} <= installed
    with pytest.raises(DependencyError, match="tesseract-ocr-chi-sim") as err:
        check_tesseract("eng+chi_sim")
    assert "sudo apt-get install -y tesseract-ocr-chi-sim" in str(err.value)
    assert apt_package("chi_sim") == "tesseract-ocr-chi-sim"


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flows.cli", *args], capture_output=True, text=True, env=env, timeout=120)


def test_cli_refuses_to_start_without_tesseract(samples_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    env = {**os.environ, "PATH": str(tmp_path / "empty-bin")}  # no tesseract anywhere on PATH
    run = _cli(["index", str(samples_dir / "scanned.pdf"), "--store", str(store)], env)
    assert run.returncode == 5
    assert "tesseract is not installed" in run.stderr and "apt-get install -y tesseract-ocr" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not store.exists()  # nothing was started


def test_cli_refuses_a_missing_language_pack(samples_dir: Path, tmp_path: Path) -> None:
    store = tmp_path / "store"
    run = _cli(["ingest", str(samples_dir), "--store", str(store), "--ocr-lang", "deu+fra"], dict(os.environ))
    assert run.returncode == 5
    assert run.stderr.strip() == ("pagetree: tesseract language pack missing for fra; install it with: "
                                  "sudo apt-get install -y tesseract-ocr-fra")
    assert not store.exists()
