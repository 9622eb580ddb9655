"""Benchmark: memcached direct vs twemproxy vs mcscope-middleware at several worker counts.

Per cell (value size x set:get mix) and load generator, the targets run in turn, repetition after
repetition (the order rotates, so drifts of the shared machine's load hit all alike); the tables
give medians. For each proxy: throughput ratios to twemproxy and to direct memcached, CPU per
request (the proxy process's user+system time from /proc over the requests served), voluntary
and involuntary context switches per request (all threads, /proc/PID/task/*/status), and
syscalls per request from a separate short `strace -c -f` run (traced runs are slow; only the
per-request count is kept). CPU per request does not depend on how the 2 cores are shared, so it
is the figure to compare on a loaded machine.

  scripts/bench.sh                                   # the full matrix (long: about an hour)
  scripts/bench.sh --cells 128-1:1,128-mget --workers 8,64 --reps 2 --seconds 4 --tools memtier
  scripts/bench.sh --build old=/tmp/mw_old --build new=build/release/mcscope-middleware ...
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "integration"))
sys.path.insert(0, str(HERE.parents[1]))  # the repository: mw_procs imports backend.tests.utils

from mw_procs import (  # noqa: E402
    HOST,
    Proc,
    memcached,
    middleware_bin,
    start_on_free_port,
)

from backend.tests.utils.ports import free_port  # noqa: E402

DEFAULT_CELLS = "128-1:0,128-0:1,128-1:1,4096-1:0,4096-0:1,4096-1:1,128-mget,128-mget-sharded"
MGET_KEYS = 10  # keys per multi-get; mget cells send 1 set per 9 multi-gets
KEY_MAX = 10_000
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MEMTIER_HINT = (
    "memtier_benchmark 2.3.0 is not on PATH: build it from the vendored source "
    "(memtier_benchmark-2.3.0.tar.gz: autoreconf -ivf && ./configure && make && make install; "
    "see the project README's set-up), or run with --tools memaslap"
)


@dataclass(frozen=True)
class Cell:
    """One benchmark cell: value size, set:get mix, multi-get and sharding."""

    name: str
    size: int
    sets: int
    gets: int
    mget: bool = False
    sharded: bool = False

    @property
    def servers(self) -> int:
        return 2 if self.sharded else 1  # sharding needs more than one memcached


def parse_cell(name: str) -> Cell:
    """SIZE-SET:GET (e.g. 128-1:1), SIZE-mget or SIZE-mget-sharded (1 set : 9 multi-gets)."""
    m = re.fullmatch(r"(\d+)-(?:(\d+):(\d+)|(mget)(-sharded)?)", name)
    if m is None or int(m.group(1)) < 1:
        raise ValueError(f"bad cell {name!r} (SIZE-SET:GET, SIZE-mget or SIZE-mget-sharded)")
    size = int(m.group(1))
    if m.group(4):
        return Cell(name, size, 1, 9, mget=True, sharded=bool(m.group(5)))
    sets, gets = int(m.group(2)), int(m.group(3))
    if sets + gets == 0:
        raise ValueError(f"bad cell {name!r}: set:get is 0:0")
    return Cell(name, size, sets, gets)


@dataclass
class Run:
    """One load-generator run against one target."""

    ops_per_s: float
    requests: int
    mean_us: float
    cpu_us_per_req: float = float("nan")
    vcs_per_req: float = float("nan")
    ivcs_per_req: float = float("nan")


@dataclass
class Target:
    """A process the load generator talks to; proxies are measured from /proc."""

    label: str
    proc: Proc
    proxy: bool


@dataclass
class Rows:
    """Runs of one cell and tool, per target label, plus the strace counts."""

    runs: dict[str, list[Run]] = field(default_factory=dict)
    syscalls_per_req: dict[str, float] = field(default_factory=dict)


# ---------------------------------------------------------------- /proc counters


def proc_counters(pid: int) -> tuple[float, int, int]:
    """(user+system seconds, voluntary, involuntary context switches) over all threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (all threads)
    vcs = ivcs = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            status = (task / "status").read_text()
        except FileNotFoundError:
            continue  # a thread that just exited
        vcs += int(re.search(r"^voluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
        ivcs += int(re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", status, re.M).group(1))  # type: ignore[union-attr]
    return cpu, vcs, ivcs


def measured(target: Target, load: Callable[[], Run]) -> Run:
    """Runs load; for a proxy, adds its CPU and context switches per request served."""
    if not target.proxy:
        return load()
    assert target.proc.popen is not None
    pid = target.proc.popen.pid
    before = proc_counters(pid)
    run = load()
    after = proc_counters(pid)
    n = max(run.requests, 1)
    run.cpu_us_per_req = (after[0] - before[0]) * 1e6 / n
    run.vcs_per_req = (after[1] - before[1]) / n
    run.ivcs_per_req = (after[2] - before[2]) / n
    return run


def strace_syscalls(target: Target, load: Callable[[], Run]) -> float:
    """Syscalls per request of a proxy during one load run under `strace -c -f`."""
    assert target.proc.popen is not None
    with tempfile.NamedTemporaryFile(suffix=".strace") as out:
        tracer = subprocess.Popen(
            ["strace", "-c", "-f", "-o", out.name, "-p", str(target.proc.popen.pid)],
            stderr=subprocess.DEVNULL,
        )
        time.sleep(0.5)  # attached to every thread before the load starts
        try:
            run = load()
        except subprocess.TimeoutExpired:
            return float("nan")  # the load generator stalled against the traced proxy
        finally:
            tracer.send_signal(signal.SIGINT)  # detach; strace writes its summary
            tracer.wait(30)
        text = Path(out.name).read_text()
    # "% time seconds usecs/call calls [errors] syscall": the calls column of the total line.
    total = [line.split() for line in text.splitlines() if line.endswith(" total")]
    if not total or len(total[-1]) < 5:
        raise RuntimeError(f"no total in strace output:\n{text[-1500:]}")
    calls = int(total[-1][3])
    return calls / max(run.requests, 1)


# ---------------------------------------------------------------- load generators


def run_memtier(port: int, cell: Cell, seconds: int) -> Run:
    """memtier_benchmark, 8 clients x 2 threads, 10,000 keys, one request outstanding each."""
    ratio = f"{cell.sets}:{cell.gets * MGET_KEYS}" if cell.mget else f"{cell.sets}:{cell.gets}"
    with tempfile.TemporaryDirectory() as tmp:
        js = Path(tmp) / "out.json"
        argv = [
            "memtier_benchmark",
            "--protocol=memcache_text",
            f"--server={HOST}",
            f"--port={port}",
            "--clients=8",
            "--threads=2",
            f"--test-time={seconds}",
            f"--ratio={ratio}",
            f"--data-size={cell.size}",
            f"--key-maximum={KEY_MAX}",
            "--hide-histogram",
            f"--json-out-file={js}",
        ]
        if cell.mget:
            argv.append(f"--multi-key-get={MGET_KEYS}")
        out = subprocess.run(
            argv, capture_output=True, text=True, timeout=seconds + 60, check=True
        ).stdout
        totals = json.loads(js.read_text())["ALL STATS"]["Totals"]
    row = re.search(r"^Totals\s+([\d.]+)\s+[\d.-]+\s+[\d.-]+\s+([\d.]+)", out, re.M)
    assert row is not None, out[-2000:]
    return Run(float(row.group(1)), int(totals["Count"]), float(row.group(2)) * 1000)


def run_memaslap(port: int, cell: Cell, seconds: int) -> Run:
    """memaslap (Debian: memcaslap) -T 2 -c 16: 16 closed-loop clients, 16 B keys; mget: -d 10."""
    get_share = cell.gets / (cell.sets + cell.gets)
    with tempfile.TemporaryDirectory() as tmp:
        cfg = Path(tmp) / "bench.cfg"
        cfg.write_text(
            f"key\n16 16 1\nvalue\n{cell.size} {cell.size} 1\n"
            f"cmd\n0 {1 - get_share:.2f}\n1 {get_share:.2f}\n"
        )
        argv = ["memcaslap", "-s", f"{HOST}:{port}", "-F", str(cfg), "-t", f"{seconds}s"]
        argv += ["-T", "2", "-c", "16", "-S", f"{seconds}s"]
        if cell.mget:
            argv += ["-d", str(MGET_KEYS)]
        out = subprocess.run(
            argv, capture_output=True, text=True, timeout=seconds + 60, check=True
        ).stdout
    last = re.findall(r"Run time: [\d.]+s Ops: (\d+) TPS: (\d+)", out)[-1]
    total = out[out.rindex("Total Statistics") :]
    mean = float(re.search(r"Avg:\s+(\d+)", total).group(1))  # type: ignore[union-attr]
    return Run(float(last[1]), int(last[0]), mean)


RUNNERS: dict[str, Callable[[int, Cell, int], Run]] = {
    "memtier": run_memtier,
    "memaslap": run_memaslap,
}


def populate(ports: list[int], cell: Cell) -> None:
    """Every key of the key range on every server, so gets hit through any routing."""
    if not shutil.which("memtier_benchmark"):
        return  # memaslap-only runs: memaslap sets its own keys
    for port in ports:
        subprocess.run(
            [
                "memtier_benchmark",
                "--protocol=memcache_text",
                f"--server={HOST}",
                f"--port={port}",
                "--clients=1",
                "--threads=1",
                "--ratio=1:0",
                "--key-pattern=P:P",
                f"--key-maximum={KEY_MAX}",
                f"--requests={KEY_MAX}",
                f"--data-size={cell.size}",
                "--hide-histogram",
            ],
            capture_output=True,
            check=True,
            timeout=120,
        )


# ---------------------------------------------------------------- targets


def twemproxy(server_ports: list[int], workdir: Path) -> Proc:
    def argv(port: int) -> list[str]:
        conf = workdir / f"nutcracker-{port}.yml"
        servers = "".join(f"   - {HOST}:{p}:1\n" for p in server_ports)
        conf.write_text(
            f"mcscope:\n  listen: {HOST}:{port}\n  hash: fnv1a_64\n  distribution: ketama\n"
            f"  timeout: 2000\n  auto_eject_hosts: false\n  servers:\n{servers}"
        )
        args = ["nutcracker", "-c", str(conf), "-s", str(free_port()), "-a", HOST]
        return args + ["-o", str(workdir / f"nutcracker-{port}.log")]

    return start_on_free_port(argv)


def middleware_proc(binary: str, server_ports: list[int], workers: int, cell: Cell) -> Proc:
    def argv(port: int) -> list[str]:
        args = [binary, "-l", HOST, "-p", str(port), "-t", str(workers)]
        args += ["-s", "true" if cell.sharded else "false", "-m"]
        args += [f"{HOST}:{p}" for p in server_ports]
        if cell.sharded:
            args += ["-r", "1"]  # keys live on one server each, like twemproxy's
        return args

    return start_on_free_port(argv)


@contextmanager
def cell_targets(
    cell: Cell, builds: dict[str, str], workers: list[int], workdir: Path
) -> Iterator[list[Target]]:
    """memcached(s), twemproxy and one middleware per build and worker count for a cell."""
    procs: list[Proc] = []
    try:
        servers = [memcached() for _ in range(cell.servers)]
        procs += servers
        ports = [s.port for s in servers]
        targets = [Target("direct", servers[0], False)]
        tw = twemproxy(ports, workdir)
        procs.append(tw)
        targets.append(Target("twemproxy", tw, True))
        for label, binary in builds.items():
            for w in workers:
                p = middleware_proc(binary, ports, w, cell)
                procs.append(p)
                targets.append(Target(f"{label} -t {w}", p, True))
        populate(ports, cell)
        yield targets
    finally:
        for p in reversed(procs):
            p.stop()


# ---------------------------------------------------------------- report


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def fmt(x: float, digits: int = 2) -> str:
    return "-" if x != x else f"{x:,.{digits}f}"  # nan -> "-"


def cell_table(tool: str, cell: Cell, rows: Rows) -> list[str]:
    """Markdown rows of one cell: medians per target and ratios to twemproxy and direct."""
    ops = {k: med([r.ops_per_s for r in v]) for k, v in rows.runs.items()}
    cpu = {k: med([r.cpu_us_per_req for r in v]) for k, v in rows.runs.items()}
    out = []
    for label, runs in rows.runs.items():
        out.append(
            "| "
            + " | ".join(
                [
                    tool,
                    cell.name,
                    label,
                    f"{ops[label]:,.0f}",
                    fmt(ops[label] / ops["twemproxy"]),
                    fmt(ops[label] / ops["direct"]),
                    fmt(cpu[label], 1),
                    fmt(cpu[label] / cpu["twemproxy"]) if label != "direct" else "-",
                    fmt(med([r.vcs_per_req for r in runs])),
                    fmt(med([r.ivcs_per_req for r in runs])),
                    fmt(rows.syscalls_per_req.get(label, float("nan"))),
                    f"{med([r.mean_us for r in runs]):,.0f}",
                    " ".join(f"{r.ops_per_s:.0f}" for r in runs),
                ]
            )
            + " |"
        )
    return out


def bench_cell(
    runner: Callable[[int, Cell, int], Run], cell: Cell, targets: list[Target], args: Any
) -> Rows:
    """Alternated repetitions over the targets, then one strace run per proxy."""
    rows = Rows({t.label: [] for t in targets})
    for rep in range(args.reps):
        k = rep % len(targets)
        for t in targets[k:] + targets[:k]:  # rotate the order each repetition
            rows.runs[t.label].append(measured(t, partial(runner, t.proc.port, cell, args.seconds)))
    # memaslap against a traced proxy runs for about a minute whatever its -t: memtier only.
    if args.strace_seconds and runner is run_memtier:
        for t in targets:
            if t.proxy:
                load = partial(runner, t.proc.port, cell, args.strace_seconds)
                rows.syscalls_per_req[t.label] = strace_syscalls(t, load)
    return rows


HEADER = [
    "| tool | cell | target | ops/s | vs twemproxy | vs direct | CPU µs/req | CPU vs twemproxy "
    "| vol. cs/req | invol. cs/req | syscalls/req | mean µs | ops/s per repetition |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
]


def summary(table: list[str]) -> list[str]:
    """Per tool and cell, each middleware's throughput and CPU per request as ratios to
    twemproxy's ("ops x / CPU x"), derived from the detailed rows."""
    cells: dict[tuple[str, str], dict[str, str]] = {}
    labels: list[str] = []
    for row in table:
        f = [c.strip() for c in row.strip().strip("|").split("|")]
        columns = len(HEADER[1].split("|")) - 2
        if len(f) != columns or f[2] in ("direct", "twemproxy", "target", "---"):
            continue
        cells.setdefault((f[0], f[1]), {})[f[2]] = f"{f[4]} / {f[7]}"
        if f[2] not in labels:
            labels.append(f[2])
    out = [
        "| tool | cell | " + " | ".join(f"{x}: ops / CPU vs twemproxy" for x in labels) + " |",
        "|---|---|" + "---|" * len(labels),
    ]
    for (tool, cell), v in cells.items():
        out.append(f"| {tool} | {cell} | " + " | ".join(v.get(x, "-") for x in labels) + " |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--cells", default=DEFAULT_CELLS, help=f"comma-separated ({DEFAULT_CELLS})")
    ap.add_argument("--workers", default="2,8,32,64", help="middleware worker counts")
    ap.add_argument("--reps", type=int, default=3, help="alternated repetitions per target")
    ap.add_argument("--seconds", type=int, default=10, help="length of each run")
    ap.add_argument("--tools", default="memtier,memaslap", help="load generators")
    ap.add_argument(
        "--strace-seconds", type=int, default=3, help="length of the strace run (0: skip)"
    )
    ap.add_argument(
        "--build",
        action="append",
        default=[],
        metavar="LABEL=BINARY",
        help="middleware build(s) to compare (default: mw=the release build)",
    )
    ap.add_argument(
        "--out",
        default=str(HERE.parent / "bench-results.md"),
        help="results file (markdown; default middleware-cpp/bench-results.md)",
    )
    ap.add_argument(
        "--summarize",
        metavar="FILE",
        help="print the ratio summary of an existing results file and exit",
    )
    args = ap.parse_args()
    if args.summarize:
        print("\n".join(summary(Path(args.summarize).read_text().splitlines())))
        return 0
    try:
        cells = [parse_cell(c) for c in args.cells.split(",") if c]
        workers = [int(w) for w in args.workers.split(",") if w.strip()]
    except ValueError as e:
        ap.error(str(e))
    if not cells or not workers or min(workers) < 1:
        ap.error("--workers: comma-separated integers >= 1; --cells: at least one")
    if args.reps < 1 or args.seconds < 1:
        ap.error("--reps and --seconds must be >= 1")
    tools = [t for t in args.tools.split(",") if t]
    for t in tools:
        if t not in RUNNERS:
            ap.error(f"--tools: unknown tool {t!r} (memtier, memaslap)")
    if "memtier" in tools and not shutil.which("memtier_benchmark"):
        print(f"bench: {MEMTIER_HINT}", file=sys.stderr)
        return 1
    if args.strace_seconds and not shutil.which("strace"):
        print("bench: strace missing (apt install strace), or --strace-seconds 0", file=sys.stderr)
        return 1
    builds = dict(b.split("=", 1) for b in args.build) or {"mw": str(middleware_bin())}
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the processes on the way out

    commit = subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    lines = [
        f"# Middleware benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"commit {commit})",
        "",
        f"Command: `scripts/bench.sh {' '.join(sys.argv[1:])}`. Load average at start: "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores.",
        f"Each run {args.seconds} s, medians of {args.reps} alternated repetitions; memtier "
        "8 clients x 2 threads, 10,000 keys (populated first); memaslap -T 2 -c 16; mget cells "
        f"1 set : 9 multi-gets of {MGET_KEYS} keys; sharded cells 2 memcached, middleware "
        "`-s true -r 1`, twemproxy over the same 2 (direct: the first one). memcached -t 1. "
        "CPU = proxy user+system from /proc per request served; cs = context switches of all "
        f"its threads per request; syscalls from a {args.strace_seconds} s `strace -c -f` run "
        "under memtier (memtier rows only: memaslap against a traced proxy stalls for a minute).",
        "",
        *HEADER,
    ]
    print("\n".join(lines), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for cell in cells:
            with cell_targets(cell, builds, workers, Path(tmp)) as targets:
                for tool in tools:
                    rows = bench_cell(RUNNERS[tool], cell, targets, args)
                    table = cell_table(tool, cell, rows)
                    print("\n".join(table), flush=True)
                    lines += table
                    Path(args.out).write_text("\n".join(lines) + "\n")  # kept if a later cell fails
    lines += ["", "Summary (medians): middleware throughput / CPU per request vs twemproxy", ""]
    lines += summary(lines)
    print("\n".join(lines[-len(cells) * len(tools) - 2 :]))
    Path(args.out).write_text("\n".join(lines) + "\n")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
