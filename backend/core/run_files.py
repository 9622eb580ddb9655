"""Where a run's raw files (every host's outputs, per attempt) are archived: var/runs/<run>.

The worker writes there, the API streams it as a zip and removes it with the experiment.
"""

import shutil
from collections.abc import Iterable
from pathlib import Path

from backend.core.config import settings


def run_archive_dir(run_id: int) -> Path:
    return settings.VAR_DIR / "runs" / str(run_id)


def has_run_files(run_id: int) -> bool:
    root = run_archive_dir(run_id)
    return root.is_dir() and any(p.is_file() for p in root.rglob("*"))


def remove_run_files(run_ids: Iterable[int]) -> None:
    """Delete the raw files of these runs; runs that never archived anything are skipped."""
    for run_id in run_ids:
        shutil.rmtree(run_archive_dir(run_id), ignore_errors=True)
