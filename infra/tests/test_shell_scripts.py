"""Every shell script of the project passes `bash -n` and shellcheck at warning level (the
set-up scripts run on fresh machines, where a quoting slip shows up first)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT_DIRS = ("infra/local", "infra/hosts", "middleware-cpp/scripts", "frontend/scripts")
SCRIPTS = sorted(p for d in SCRIPT_DIRS for p in (ROOT / d).glob("*.sh")) + [ROOT / ".ci" / "run"]


def test_every_script_is_listed() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in SCRIPTS}
    assert {"infra/local/install-deps.sh", "infra/hosts/setup-host.sh", ".ci/run"} <= names
    assert len(names) >= 15


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_script_is_clean(script: Path) -> None:
    proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert shutil.which("shellcheck"), (
        "shellcheck not installed (Debian package: shellcheck; make setup installs it)"
    )
    proc = subprocess.run(
        ["shellcheck", "-S", "warning", "-x", str(script)],
        capture_output=True,
        text=True,
        check=False,
        cwd=script.parent,
    )
    assert proc.returncode == 0, proc.stdout
