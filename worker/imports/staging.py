"""The staging area of imports: an upload (a tar or zip archive, or one file) or a folder on
the server unpacked under var/imports/<id>/files without trusting it, kept until confirmed or
expired (settings IMPORT_*).

Nothing is left to `extractall`: members are read one by one; a link, a device, an absolute
or `..` path, a member over IMPORT_MAX_FILE_BYTES, more than IMPORT_MAX_FILES members, more
than IMPORT_MAX_EXPANDED_BYTES unpacked, or a zip member that unpacks to more than
IMPORT_MAX_RATIO times its compressed size refuses the whole upload with its reason (an
archive bomb stops before it is written). tarfile's `data_filter` vets each tar member as a
second opinion; its verdict is never the only check (worker/drivers/archive.py says why).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import tarfile
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from backend.core.config import settings

CHUNK = 1 << 20
META = "meta.json"
FILES = "files"
UPLOAD = "upload"


class StagingError(ValueError):
    """The upload or folder is refused as a whole (the reason says why); nothing is kept."""


class StagedNotFound(LookupError):
    """No staged upload with this id (never made, confirmed already, or expired)."""


@dataclass(frozen=True)
class Limits:
    archive_bytes: int
    files: int
    expanded_bytes: int
    file_bytes: int
    ratio: float

    @classmethod
    def from_settings(cls) -> Limits:
        return cls(
            settings.IMPORT_MAX_ARCHIVE_BYTES,
            settings.IMPORT_MAX_FILES,
            settings.IMPORT_MAX_EXPANDED_BYTES,
            settings.IMPORT_MAX_FILE_BYTES,
            settings.IMPORT_MAX_RATIO,
        )


@dataclass(frozen=True)
class Staged:
    """An unpacked upload: `root` holds its files under their archive paths."""

    id: str
    source: str
    root: Path
    created_at: datetime
    expires_at: datetime


def staging_root() -> Path:
    return settings.VAR_DIR / "imports"


def _safe_parts(name: str) -> tuple[str, ...]:
    """The member's path as plain parts; StagingError for an absolute or `..` path."""
    if "\x00" in name or "\\" in name:
        raise StagingError(f"{name!r}: a path with a NUL or a backslash is refused")
    path = PurePosixPath(name)
    if path.is_absolute():
        raise StagingError(f"{name!r}: an absolute path is refused")
    if ".." in path.parts:
        raise StagingError(f"{name!r}: a path outside the archive (..) is refused")
    return tuple(p for p in path.parts if p not in (".", ""))


class _Readable(Protocol):
    def read(self, n: int = -1, /) -> bytes: ...


class _Writer:
    """Writes members below `root`, counting files and bytes against the limits."""

    def __init__(self, root: Path, limits: Limits) -> None:
        self.root = root.resolve()
        self.limits = limits
        self.files = 0
        self.total = 0

    def target(self, name: str) -> Path | None:
        parts = _safe_parts(name)
        if not parts:
            return None
        target = self.root.joinpath(*parts)
        if not target.parent.resolve().is_relative_to(self.root):
            raise StagingError(f"{name!r}: leads outside the archive")
        return target

    def write(self, name: str, source: _Readable, declared: int, mtime: float | None) -> None:
        self.files += 1
        if self.files > self.limits.files:
            raise StagingError(f"more than {self.limits.files} files (IMPORT_MAX_FILES)")
        if declared > self.limits.file_bytes:
            raise StagingError(
                f"{name!r}: {declared} bytes, over the {self.limits.file_bytes}-byte limit "
                "of one file (IMPORT_MAX_FILE_BYTES)"
            )
        target = self.target(name)
        if target is None:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        written = 0
        with open(target, "xb") as out:
            # The declared size is not trusted: count what really comes out.
            while chunk := source.read(CHUNK):
                written += len(chunk)
                self.total += len(chunk)
                if written > self.limits.file_bytes:
                    raise StagingError(
                        f"{name!r}: over the {self.limits.file_bytes}-byte limit of one file "
                        "(IMPORT_MAX_FILE_BYTES)"
                    )
                if self.total > self.limits.expanded_bytes:
                    raise StagingError(
                        f"unpacks to more than {self.limits.expanded_bytes} bytes "
                        "(IMPORT_MAX_EXPANDED_BYTES)"
                    )
                out.write(chunk)
        if mtime is not None:
            os.utime(target, (mtime, mtime))


def _unpack_tar(archive: Path, writer: _Writer) -> None:
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            writer.target(member.name)  # the path first: absolute or `..` is refused as such
            if member.isdir():
                continue  # folders are made with their files
            if member.issym() or member.islnk():
                raise StagingError(f"{member.name!r}: a link is refused")
            if not member.isreg():
                raise StagingError(f"{member.name!r}: not a regular file (device, fifo...)")
            try:
                tarfile.data_filter(member, str(writer.root))
            except tarfile.FilterError as exc:
                raise StagingError(f"{member.name!r}: {exc}") from exc
            source = tar.extractfile(member)
            if source is None:
                raise StagingError(f"{member.name!r}: no data")
            with source:
                writer.write(member.name, source, member.size, float(member.mtime))


def _unpack_zip(archive: Path, writer: _Writer) -> None:
    with zipfile.ZipFile(archive) as zf:
        for info in zf.infolist():
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise StagingError(f"{info.filename!r}: a link is refused")
            if info.is_dir():
                writer.target(info.filename)
                continue
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                raise StagingError(f"{info.filename!r}: not a regular file")
            limit = writer.limits.ratio * max(info.compress_size, 1)
            if info.file_size > CHUNK and info.file_size > limit:
                raise StagingError(
                    f"{info.filename!r}: unpacks to {info.file_size} bytes from "
                    f"{info.compress_size}, more than {writer.limits.ratio:g} times "
                    "(IMPORT_MAX_RATIO): refused as an archive bomb"
                )
            mtime = time.mktime((*info.date_time, 0, 0, -1))
            with zf.open(info) as source:
                writer.write(
                    info.filename, _RatioGuard(source, info, writer.limits), info.file_size, mtime
                )


class _RatioGuard:
    """Reads a zip member, refusing it once it unpacks beyond its declared size or the ratio
    (the declared sizes of a crafted archive may lie)."""

    def __init__(self, source: IO[bytes], info: zipfile.ZipInfo, limits: Limits) -> None:
        self.source = source
        self.info = info
        self.cap = max(info.file_size, 0)
        self.ratio_cap = max(limits.ratio * max(info.compress_size, 1), CHUNK)
        self.read_bytes = 0

    def read(self, n: int = -1) -> bytes:
        chunk = self.source.read(n)
        self.read_bytes += len(chunk)
        if self.read_bytes > self.cap or self.read_bytes > self.ratio_cap:
            raise StagingError(
                f"{self.info.filename!r}: unpacks beyond its declared size or "
                "IMPORT_MAX_RATIO: refused as an archive bomb"
            )
        return chunk


def _copy_folder(folder: Path, writer: _Writer) -> None:
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=False):
        here = Path(dirpath)
        for name in sorted(dirnames + filenames):
            path = here / name
            rel = path.relative_to(folder).as_posix()
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                raise StagingError(f"{rel!r}: a link is refused")
            if stat.S_ISDIR(st.st_mode):
                continue
            if not stat.S_ISREG(st.st_mode):
                raise StagingError(f"{rel!r}: not a regular file")
            with open(path, "rb") as source:
                writer.write(rel, source, st.st_size, st.st_mtime)


def _new_dir() -> tuple[str, Path]:
    sweep_expired()
    staging_id = uuid.uuid4().hex
    base = staging_root() / staging_id
    (base / FILES).mkdir(parents=True)
    return staging_id, base


def _finish(staging_id: str, base: Path, source: str) -> Staged:
    now = datetime.now(UTC)
    expires = datetime.fromtimestamp(now.timestamp() + settings.IMPORT_STAGING_TTL_S, UTC)
    (base / META).write_text(
        json.dumps(
            {"source": source, "created_at": now.isoformat(), "expires_at": expires.isoformat()}
        )
    )
    return Staged(staging_id, source, base / FILES, now, expires)


def stage_upload(chunks: Iterator[bytes], filename: str, limits: Limits | None = None) -> Staged:
    """Stage an upload streamed in `chunks` (see stage_file). StagingError refuses it."""
    limits = limits or Limits.from_settings()
    incoming = new_incoming()
    try:
        size = 0
        with open(incoming, "wb") as out:
            for chunk in chunks:
                size += len(chunk)
                if size > limits.archive_bytes:
                    raise StagingError(too_large(limits))
                out.write(chunk)
    except BaseException:
        incoming.unlink(missing_ok=True)
        raise
    return stage_file(incoming, filename, limits)


def too_large(limits: Limits) -> str:
    return f"the upload is larger than {limits.archive_bytes} bytes (IMPORT_MAX_ARCHIVE_BYTES)"


def new_incoming() -> Path:
    """A fresh path for an upload's bytes as they arrive (stage_file takes it over)."""
    incoming = staging_root() / "incoming"
    incoming.mkdir(parents=True, exist_ok=True)
    return incoming / uuid.uuid4().hex


def stage_file(upload: Path, filename: str, limits: Limits | None = None) -> Staged:
    """Stage the uploaded bytes at `upload` (removed in every case): a tar (any compression)
    or zip archive is unpacked, anything else is kept as the one file `filename`."""
    limits = limits or Limits.from_settings()
    name = PurePosixPath(filename.replace("\\", "/")).name or "upload"
    try:
        size = upload.stat().st_size
        if size > limits.archive_bytes:
            raise StagingError(too_large(limits))
        staging_id, base = _new_dir()
    except BaseException:
        upload.unlink(missing_ok=True)
        raise
    try:
        kept = base / UPLOAD
        shutil.move(upload, kept)
        writer = _Writer(base / FILES, limits)
        try:
            if zipfile.is_zipfile(kept):
                _unpack_zip(kept, writer)
            elif tarfile.is_tarfile(kept):
                _unpack_tar(kept, writer)
            else:
                with open(kept, "rb") as source:
                    writer.write(name, source, size, None)
        except (tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
            raise StagingError(f"{name}: the archive is damaged ({exc})") from exc
        kept.unlink()
        return _finish(staging_id, base, name)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise


def stage_folder(folder: Path, limits: Limits | None = None) -> Staged:
    """Stage a folder on the server (the CLI's import), under the same rules as an upload."""
    limits = limits or Limits.from_settings()
    if not folder.is_dir():
        raise StagingError(f"{folder}: not a folder")
    staging_id, base = _new_dir()
    try:
        _copy_folder(folder, _Writer(base / FILES, limits))
        return _finish(staging_id, base, folder.resolve().name)
    except BaseException:
        shutil.rmtree(base, ignore_errors=True)
        raise


def open_staged(staging_id: str) -> Staged:
    """The staged upload `staging_id`; StagedNotFound when absent or expired."""
    if not staging_id.isalnum() or len(staging_id) != 32:
        raise StagedNotFound(staging_id)
    base = staging_root() / staging_id
    try:
        meta = json.loads((base / META).read_text())
    except (OSError, ValueError) as exc:
        raise StagedNotFound(staging_id) from exc
    expires = datetime.fromisoformat(meta["expires_at"])
    if expires <= datetime.now(UTC):
        shutil.rmtree(base, ignore_errors=True)
        raise StagedNotFound(staging_id)
    created = datetime.fromisoformat(meta["created_at"])
    return Staged(staging_id, meta["source"], base / FILES, created, expires)


def discard(staging_id: str) -> None:
    shutil.rmtree(staging_root() / staging_id, ignore_errors=True)


def sweep_expired() -> None:
    """Remove expired staged uploads (and half-written ones older than the TTL)."""
    root = staging_root()
    if not root.is_dir():
        return
    now = time.time()
    for base in root.iterdir():
        try:
            meta = json.loads((base / META).read_text())
            gone = datetime.fromisoformat(meta["expires_at"]).timestamp() <= now
        except (OSError, ValueError, KeyError):
            gone = base.stat().st_mtime + settings.IMPORT_STAGING_TTL_S <= now
        if gone:
            shutil.rmtree(base, ignore_errors=True)
