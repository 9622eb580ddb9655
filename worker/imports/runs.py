"""Grouping recognised files into runs, and each run's parameters and result rows.

A run is one client output (memtier JSON, or memaslap stdout) plus, where present, the HDR
files memtier wrote with a prefix starting with the JSON's name, memtier's stdout report of
the same name, and the middleware stats folders beside it (in the same folder, when that
folder holds this one client output). The rows are made by the worker's own summaries
(client_rows, middleware_rows) from the parsers' results, as a native run's are
(worker/runs/outputs.py); only the locating of files differs.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from backend.domain.parameters import defaults
from worker.imports.recognise import Kind, Recognised, Recognition, Unused
from worker.parsers import (
    ClientResult,
    ParseError,
    client_result_from_memaslap,
    client_result_from_memtier,
    parse_memaslap,
    parse_memtier_json,
    parse_middleware_dir,
)
from worker.parsers.memtier import read_hdr_files
from worker.parsers.model import MiddlewareStats
from worker.runs.summarize import ResultRows, StableWindow, client_rows, middleware_rows

_HDR_RUN = re.compile(r"_(FULL_RUN|GET_command_run|SET_command_run)_(\d+)\.(hgrm|txt)$")
CLIENT_KINDS = (Kind.MEMTIER_JSON, Kind.MEMASLAP)


@dataclass
class RunFiles:
    """The files of one run, by role (paths relative to the staging root)."""

    client: Recognised
    hdr_prefix: str | None = None
    hdr: list[Recognised] = field(default_factory=list)
    companions: list[str] = field(default_factory=list)
    middlewares: list[str] = field(default_factory=list)

    @property
    def tool(self) -> str:
        return "memtier" if self.client.kind is Kind.MEMTIER_JSON else "memaslap"

    def roles(self) -> list[tuple[str, str, str]]:
        """(path, kind, role) of every file of the run; a middleware folder as one entry."""
        out = [(self.client.path, self.client.kind.value, "client")]
        out += [(f.path, f.kind.value, "hdr") for f in self.hdr]
        out += [(p, Kind.MEMTIER_STDOUT.value, "companion") for p in self.companions]
        out += [(p, Kind.MIDDLEWARE_DIR.value, "middleware") for p in self.middlewares]
        return out


def _stem(path: str) -> str:
    name = PurePosixPath(path).name
    return name[: -len(".json")] if name.endswith(".json") else name


def _parent(path: str) -> str:
    return PurePosixPath(path).parent.as_posix()


def group(found: Recognition) -> tuple[list[RunFiles], list[Unused]]:
    """Runs made of the recognised files, and the files no run uses (with the reason)."""
    unused = list(found.unused)
    runs = [RunFiles(f) for f in found.files if f.kind in CLIENT_KINDS]
    jsons = [r for r in runs if r.client.kind is Kind.MEMTIER_JSON]

    def owner(path: str) -> RunFiles | None:
        """The memtier run in the same folder whose name is the longest prefix of path's."""
        name = PurePosixPath(path).name
        mine = [
            r
            for r in jsons
            if _parent(r.client.path) == _parent(path) and name.startswith(_stem(r.client.path))
        ]
        return max(mine, key=lambda r: len(_stem(r.client.path)), default=None)

    for f in found.files:
        if f.kind in (Kind.HDR_LOG, Kind.HDR_TABLE):
            run = owner(f.path)
            match = _HDR_RUN.search(PurePosixPath(f.path).name)
            if run is None or match is None:
                unused.append(
                    Unused(
                        f.path,
                        "an HDR file without the memtier JSON it belongs "
                        "to (same folder, name starting with the JSON's name)",
                    )
                )
            elif match.group(2) != "1":
                unused.append(
                    Unused(
                        f.path,
                        f"HDR file of memtier's run {match.group(2)}: "
                        "only run 1's HDR files are read, as for native runs",
                    )
                )
            else:
                prefix = PurePosixPath(f.path).name[: match.start()]
                if run.hdr_prefix not in (None, prefix):
                    unused.append(Unused(f.path, f"a second HDR prefix for {run.client.path}"))
                    continue
                run.hdr_prefix = prefix
                run.hdr.append(f)
        elif f.kind is Kind.MEMTIER_STDOUT:
            run = owner(f.path)
            if run is None:
                unused.append(
                    Unused(
                        f.path,
                        "memtier stdout without its JSON: stored figures "
                        "are read from memtier's --json-out-file, as for native "
                        "runs (the stdout report has no per-second series)",
                    )
                )
            else:
                run.companions.append(f.path)
        elif f.kind is Kind.MIDDLEWARE_DIR:
            here = _parent(f.path)
            beside = [r for r in runs if _parent(r.client.path) == here]
            if len(beside) == 1:
                beside[0].middlewares.append(f.path)
            else:
                unused.append(
                    Unused(
                        f.path,
                        f"{len(beside)} client outputs in {here!r}: a "
                        "middleware stats folder is used when exactly one client "
                        "output sits beside it",
                    )
                )
    return runs, unused


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass(frozen=True)
class ReadRun:
    """What the files of one run say: its result, start, length and parameters."""

    result: ClientResult
    middlewares: tuple[MiddlewareStats, ...]
    start_unix: float
    started_from: str
    duration_s: float
    run_time_s: int
    read: dict[str, Any]

    @property
    def has_series(self) -> bool:
        return any(t.series for t in self.result.types.values())


def _memtier(root: Path, run: RunFiles) -> tuple[ClientResult, float, float, int, dict[str, Any]]:
    path = root / run.client.path
    parsed = parse_memtier_json(path.read_text(errors="replace"))
    hdr = read_hdr_files(path.parent, run.hdr_prefix) if run.hdr_prefix else None
    result = client_result_from_memtier(parsed, hdr=hdr)
    c = parsed.configuration
    read: dict[str, Any] = {"load_generator": "memtier"}
    for key, name in (
        ("clients", "clients_per_thread"),
        ("threads", "threads_per_instance"),
        ("ratio", "ratio"),
        ("data_size", "value_size"),
        ("key_maximum", "key_maximum"),
    ):
        if key in c:
            read[name] = c[key]
    read["multiget_size"] = max(1, int(c.get("multi_key_get") or 0))
    # The aggregated section of --run-count > 1 has no start; its first run's is the start.
    starts = [s.start_unix_ms for s in parsed.sections.values() if s.start_unix_ms > 0]
    if not starts:
        raise ParseError("memtier's JSON holds no start time")
    start = min(starts) / 1000.0
    test_time = int(c.get("test_time") or 0) or round(result.duration_s)
    return result, start, result.duration_s, test_time, read


def _ratio(set_share: float) -> str:
    share = Fraction(set_share).limit_denominator(100)
    return f"{share.numerator}:{share.denominator - share.numerator}"


def _memaslap(root: Path, run: RunFiles) -> tuple[ClientResult, float, float, int, dict[str, Any]]:
    path = root / run.client.path
    out = parse_memaslap(path.read_text(errors="replace"))
    result = client_result_from_memaslap(out)
    read: dict[str, Any] = {"load_generator": "memaslap"}
    header = out.header
    threads = int(header["threads count"]) if "threads count" in header else None
    if threads:
        read["threads_per_instance"] = threads
        concurrency = int(header.get("concurrency", "0") or 0)
        if concurrency and concurrency % threads == 0:
            read["clients_per_thread"] = concurrency // threads
    prop = re.search(r"set_prop=([0-9.]+)", header.get("set proportion", ""))
    if prop:
        read["ratio"] = _ratio(float(prop.group(1)))
    # memaslap prints no start time: the file's modification time is its end.
    start = path.stat().st_mtime - out.run_time_s
    return result, start, out.run_time_s, round(out.run_time_s), read


def read_run(root: Path, run: RunFiles) -> ReadRun:
    """Parse the run's files (ParseError/ValueError when one does not)."""
    if run.client.kind is Kind.MEMTIER_JSON:
        result, start, duration, run_time, read = _memtier(root, run)
        started_from = "memtier's JSON (ALL STATS Start time)"
    else:
        result, start, duration, run_time, read = _memaslap(root, run)
        started_from = "the file's modification time less the run time (memaslap prints none)"
    stats = tuple(parse_middleware_dir(root / m) for m in run.middlewares)
    if stats:
        read["middlewares"] = len(stats)
        summary = stats[0].summary
        if summary is not None:
            cfg = summary.config
            read["workers"] = cfg.workers
            read["sharded"] = cfg.sharded
            read["replication"] = cfg.replication
            read["servers"] = len(cfg.servers)
            read["queue_capacity"] = cfg.queue_capacity
    else:
        read["middlewares"] = 0  # no stats folder beside it: clients talked to the servers
    return ReadRun(result, stats, start, started_from, duration, run_time, read)


def result_rows(read: ReadRun, window: StableWindow, params: dict[str, Any]) -> ResultRows:
    """The rows a native run with these outputs would store (worker/runs/outputs.py), under
    the planner's source names: client:0, middleware:0, middleware:1..."""
    multiget = int(params["multiget_size"]) > 1
    rows = client_rows("client:0", read.result, window, multiget, read.start_unix)
    for i, stats in enumerate(read.middlewares):
        rows.extend(middleware_rows(f"middleware:{i}", stats, window))
    return rows


def full_parameters(values: dict[str, Any]) -> dict[str, Any]:
    return {**defaults(), **values}
