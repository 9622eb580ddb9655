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


class RunFileError(ValueError):
    """A path that is not one of the run's archived files (outside it, or not a file)."""


def list_run_files(run_id: int) -> list[tuple[str, int]]:
    """Every archived file of the run as (path relative to its archive, size in bytes), sorted."""
    root = run_archive_dir(run_id)
    if not root.is_dir():
        return []
    return sorted(
        (p.relative_to(root).as_posix(), p.stat().st_size)
        for p in root.rglob("*")
        if p.is_file() and not p.is_symlink()
    )


def run_file(run_id: int, relative: str) -> Path:
    """The archived file at `relative`; RunFileError for anything that leaves the archive (.., an
    absolute path, a symlink) or is not a regular file there."""
    root = run_archive_dir(run_id).resolve()
    candidate = root / relative
    if Path(relative).is_absolute() or ".." in Path(relative).parts:
        raise RunFileError("not a file of this run")
    try:
        if candidate.is_symlink():
            raise RunFileError("not a file of this run")
        resolved = candidate.resolve()
        if not resolved.is_relative_to(root) or not resolved.is_file():
            raise RunFileError("not a file of this run")
    except OSError as err:  # a name the file system cannot hold (over 255 bytes): no such file
        raise RunFileError("not a file of this run") from err
    return resolved


def read_text_page(path: Path, offset: int, limit: int) -> tuple[str, int, bool]:
    """`limit` bytes of the file from `offset`, decoded as UTF-8 (a character cut at either end is
    moved to the page it starts in), the offset after it, and whether the bytes look binary."""
    with path.open("rb") as f:
        f.seek(offset)
        chunk = f.read(limit + 3)  # room to finish a multi-byte character
    data = chunk[:limit]
    # Leave a character cut by the page end for the next page (UTF-8 continuation bytes).
    end = len(data)
    if len(chunk) > limit:
        while end > 0 and end > len(data) - 3 and (chunk[end] & 0xC0) == 0x80:
            end -= 1
    data = chunk[:end]
    binary = b"\x00" in data
    return data.decode("utf-8", errors="replace"), offset + len(data), binary
