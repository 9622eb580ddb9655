"""Unpacking a host's archive of outputs without trusting it.

tarfile's extraction filters on this interpreter predate the 2025 fixes (CVE-2025-4517 and
kin), so nothing is left to `extractall`: members are read one by one, only regular files
and directories with plain names are accepted, written below the destination with exclusive
creation, and the count and unpacked size are capped. A member that is a link, a device, an
absolute or `..` path, or over a cap refuses the whole archive.
"""

import re
import shutil
import tarfile
from pathlib import Path, PurePosixPath

from worker.drivers.errors import DriverError

# Output files are named after their tool and role ("client-0.out", "mw-1/stats.csv").
_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
MAX_DEPTH = 4


class ArchiveError(DriverError):
    """The archive of outputs breaks a rule: the run fails, nothing outside dest is written."""


def _parts(name: str) -> tuple[str, ...]:
    path = PurePosixPath(name)
    if path.is_absolute():
        raise ArchiveError(f"member {name!r} has an absolute path")
    parts = tuple(p for p in path.parts if p != ".")
    if len(parts) > MAX_DEPTH or not all(_NAME.match(p) for p in parts):
        raise ArchiveError(f"member {name!r} is not a plain output file name")
    return parts


def extract_outputs(archive: Path, dest: Path, *, max_members: int, max_bytes: int) -> int:
    """Unpack `archive` (tar.gz) into `dest`; returns the number of files written."""
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    members = written = total = 0
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            members += 1
            if members > max_members:
                raise ArchiveError(f"more than {max_members} members")
            parts = _parts(member.name)
            if not parts:
                continue  # "." itself
            if member.isdir():
                (root.joinpath(*parts)).mkdir(parents=True, exist_ok=True)
                continue
            if not member.isreg():
                raise ArchiveError(f"member {member.name!r} is not a regular file or directory")
            total += member.size
            if total > max_bytes:
                raise ArchiveError(f"more than {max_bytes} bytes unpacked")
            target = root.joinpath(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.resolve().is_relative_to(root):
                raise ArchiveError(f"member {member.name!r} leads outside the run's folder")
            source = tar.extractfile(member)
            if source is None:
                raise ArchiveError(f"member {member.name!r} has no data")
            with source, open(target, "xb") as out:
                shutil.copyfileobj(source, out)
            written += 1
    return written
