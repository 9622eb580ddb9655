"""A planted test suite run through real pytest with one of the root conftest's report plugins
(test times, failed tests), for the tests of those plugins: the plugin is given with -p, the
planted files' folder is the root, and the run's order is the files' own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from backend.core.config import REPO_ROOT


def run_planted(
    folder: Path, plugin: str, env: dict[str, str], *targets: str
) -> subprocess.CompletedProcess[str]:
    """pytest over `targets` in `folder` with `plugin` and `env` added to this environment."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", plugin]
        + ["-p", "no:randomly", "-p", "no:cacheprovider", *targets],
        cwd=folder,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
