"""Recognising each staged file by its content, with the parsers the worker's own runs use
(worker/parsers stays the one home of every format): a cheap signature picks the candidate
format, then that format's parser must accept the whole file. A file whose signature matches
but whose parser refuses it is truncated or corrupt; a file with no signature is unrelated.
Both are listed with their reason and never used.

Why the recogniser lives in the worker package: it is the parsers' caller, as the run
pipeline is; the backend's import contracts (pyproject.toml [tool.importlinter]) are about
backend's own packages, and the worker imports the backend, never the other way round except
at the edge, where the import routes call this package (docs/user-guide/import.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from worker.parsers import (
    ParseError,
    parse_hdr_txt,
    parse_hgrm,
    parse_memaslap,
    parse_memtier_json,
    parse_memtier_stdout,
    parse_middleware_dir,
)
from worker.parsers.middleware_dir import WINDOWS_FILE

HEAD = 8192  # bytes read for the signature


class Kind(StrEnum):
    MEMTIER_JSON = "memtier_json"
    MEMTIER_STDOUT = "memtier_stdout"
    HDR_LOG = "hdr_log"
    HDR_TABLE = "hdr_table"
    MEMASLAP = "memaslap"
    MIDDLEWARE_DIR = "middleware_dir"


KIND_WORDS: dict[Kind, str] = {
    Kind.MEMTIER_JSON: "memtier_benchmark JSON (--json-out-file)",
    Kind.MEMTIER_STDOUT: "memtier_benchmark stdout report",
    Kind.HDR_LOG: "HDR histogram log (.hgrm, --hdr-file-prefix)",
    Kind.HDR_TABLE: "HDR percentile table (--hdr-file-prefix .txt)",
    Kind.MEMASLAP: "memaslap (memcaslap) stdout",
    Kind.MIDDLEWARE_DIR: "middleware stats folder (--stats-dir)",
}


@dataclass(frozen=True)
class Recognised:
    path: str  # relative to the staging root, POSIX
    kind: Kind


@dataclass(frozen=True)
class Unused:
    path: str
    reason: str


@dataclass
class Recognition:
    files: list[Recognised] = field(default_factory=list)
    unused: list[Unused] = field(default_factory=list)


_SIGNATURES: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (Kind.MEMTIER_JSON, re.compile(r'^\s*\{.*"(configuration|ALL STATS|run information)"', re.S)),
    (Kind.HDR_LOG, re.compile(r"#\[Histogram log format version|Interval_Compressed_Histogram")),
    (Kind.HDR_TABLE, re.compile(r"^\s*Value\s+Percentile\s+TotalCount", re.M)),
    (Kind.MEMASLAP, re.compile(r"^servers: .*\n(?:.*\n)*?threads count: ", re.M)),
    (Kind.MEMTIER_STDOUT, re.compile(r"^(ALL STATS|BEST RUN RESULTS|AGGREGATED AVERAGE)", re.M)),
)

_PARSERS = {
    Kind.MEMTIER_JSON: parse_memtier_json,
    Kind.MEMTIER_STDOUT: parse_memtier_stdout,
    Kind.HDR_LOG: parse_hgrm,
    Kind.HDR_TABLE: parse_hdr_txt,
    Kind.MEMASLAP: parse_memaslap,
}


def _signature(head: str, text: str) -> Kind | None:
    for kind, pattern in _SIGNATURES:
        # memtier's stdout report begins with its header; its ALL STATS table can be far in.
        haystack = text if kind is Kind.MEMTIER_STDOUT else head
        if pattern.search(haystack):
            return kind
    return None


def recognise_file(root: Path, path: Path) -> Recognised | Unused:
    """What one file is, by content; Unused with the reason when it is nothing we read."""
    rel = path.relative_to(root).as_posix()
    raw = path.read_bytes()
    if b"\x00" in raw[:HEAD]:
        return Unused(rel, "binary content: not a text output of memtier, memaslap or HDR")
    text = raw.decode("utf-8", errors="replace")
    kind = _signature(text[:HEAD], text)
    if kind is None:
        return Unused(
            rel,
            "not a recognised output (memtier JSON or stdout, HDR log or table, memaslap "
            "stdout, middleware stats)",
        )
    try:
        _PARSERS[kind](text)
    except (ParseError, ValueError) as exc:
        return Unused(
            rel, f"looks like a {KIND_WORDS[kind]} but does not parse (truncated or corrupt): {exc}"
        )
    return Recognised(rel, kind)


def recognise(root: Path) -> Recognition:
    """Every staged file under `root`, recognised or listed unused with its reason. A folder
    holding the middleware's windows.jsonl is read whole as one middleware stats folder."""
    out = Recognition()
    stats_dirs = sorted({p.parent for p in root.rglob(WINDOWS_FILE) if p.is_file()})
    for directory in stats_dirs:
        rel = directory.relative_to(root).as_posix()
        try:
            parse_middleware_dir(directory)
        except (ParseError, ValueError, OSError) as exc:
            out.unused.append(
                Unused(rel, f"looks like a middleware stats folder but does not parse: {exc}")
            )
            continue
        out.files.append(Recognised(rel, Kind.MIDDLEWARE_DIR))
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if any(path.is_relative_to(d) for d in stats_dirs):
            continue
        out_item = recognise_file(root, path)
        if isinstance(out_item, Recognised):
            out.files.append(out_item)
        else:
            out.unused.append(out_item)
    return out
