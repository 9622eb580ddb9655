"""parse_memaslap: memaslap / memcaslap stdout (periodic blocks, final statistics, run line).

Latencies are integer microseconds as printed (memaslap truncates its means).
Periodic blocks (with -S) come after an ANSI clear-screen; each has Get, Set
and Total tables with a Period row (the last interval, Time(s) = interval
length) and a Global row (since start, Time(s) = elapsed seconds). memaslap
swaps the Net(M/s) values of the two rows and derives them from the average
object size, so Net is kept but should not be trusted. With -d (multi-get) the
periodic and final "events" count requests while cmd_get and the final Ops/TPS
count keys. Log2 Dist bucket i holds latencies in (2^(i-1), 2^i] us.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from worker.parsers.errors import ParseError

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_HEADER = re.compile(r"^([a-z][a-z ]*):\s*(.*)$")
_BLOCK_TITLE = re.compile(r"^(Get|Set|Total) Statistics$")
_FINAL_TITLE = re.compile(r"^(Get|Set|Total) Statistics \((\d+) events\)$")
_FINAL_FIELD = re.compile(r"^(Min|Max|Avg|Geo|Std):\s+(\d+(?:\.\d+)?)$")
_DIST_ROW = re.compile(r"^(\d+):((?:\s+\d+)+)$")
_COUNTER = re.compile(r"^([a-z_]+):\s+(\d+)$")
_RUN = re.compile(
    r"^Run time: (\d+(?:\.\d+)?)s Ops: (\d+) TPS: (\d+) Net_rate: (\d+(?:\.\d+)?)M/s$"
)
_TABLE_HEADER = (
    "Type Time(s) Ops TPS(ops/s) Net(M/s) Get_miss Min(us) Max(us) Avg(us) Std_dev Geo_dist"
)


@dataclass(frozen=True, slots=True)
class PeriodicRow:
    """A Period or Global row: counts, TPS per second, latencies in us."""

    time_s: int
    ops: int
    tps: int
    net_mb_per_sec: float
    get_miss: int
    min_us: int
    max_us: int
    avg_us: int
    std_dev_us: float
    geo_dist_us: float


@dataclass(frozen=True, slots=True)
class PeriodicBlock:
    """Get, Set or Total table of one screen."""

    period: PeriodicRow
    global_: PeriodicRow


@dataclass(frozen=True, slots=True)
class FinalStats:
    """ "<Name> Statistics (N events)" block: latencies in us, Log2 histogram as
    (upper bound us, count) pairs; std is None for a single event."""

    events: int
    min_us: int
    max_us: int
    avg_us: int
    geo_us: float
    std_us: float | None
    log2_dist: tuple[tuple[float, int], ...]


@dataclass(frozen=True, slots=True)
class MemaslapOutput:
    """A whole memaslap stdout; ``screens`` holds one dict (Get/Set/Total) per report."""

    header: dict[str, str]
    screens: tuple[dict[str, PeriodicBlock], ...]
    finals: dict[str, FinalStats]
    counters: dict[str, int]
    run_time_s: float
    ops: int
    tps: int
    net_rate_mb_per_sec: float


def _periodic_row(kind: str, line: str, lineno: int) -> PeriodicRow:
    tokens = line.split()
    if len(tokens) != 11 or tokens[0] != kind:
        raise ParseError(f"expected a {kind} row with 11 fields, got {line[:60]!r}", line=lineno)
    try:
        ints = [
            int(t)
            for t in (tokens[1], tokens[2], tokens[3], tokens[5], tokens[6], tokens[7], tokens[8])
        ]
        floats = [float(t) for t in (tokens[4], tokens[9], tokens[10])]
    except ValueError:
        raise ParseError(f"bad number in {kind} row {line[:60]!r}", line=lineno) from None
    return PeriodicRow(
        ints[0],
        ints[1],
        ints[2],
        floats[0],
        ints[3],
        ints[4],
        ints[5],
        ints[6],
        floats[1],
        floats[2],
    )


class _Parser:
    """Walks the cleaned lines; ``pos`` is the index of the next line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.pos = 0
        self.header: dict[str, str] = {}
        self.screens: list[dict[str, PeriodicBlock]] = []
        self.finals: dict[str, FinalStats] = {}
        self.counters: dict[str, int] = {}
        self.run: tuple[float, int, int, float] | None = None

    def next_line(self, what: str) -> tuple[int, str]:
        if self.pos >= len(self.lines):
            raise ParseError(f"output ends before {what}", line=len(self.lines))
        self.pos += 1
        return self.pos, self.lines[self.pos - 1].strip()

    def periodic(self, name: str) -> None:
        lineno, line = self.next_line("the table header")
        if " ".join(line.split()) != _TABLE_HEADER:
            raise ParseError(f"unexpected table header {line[:60]!r}", line=lineno)
        period = _periodic_row("Period", self.next_line("the Period row")[1], self.pos)
        global_ = _periodic_row("Global", self.next_line("the Global row")[1], self.pos)
        if not self.screens or name in self.screens[-1]:
            raise ParseError(f"{name} table outside a report screen", line=lineno)
        self.screens[-1][name] = PeriodicBlock(period, global_)

    def final(self, name: str, events: int) -> None:
        fields: dict[str, float] = {}
        dist: list[tuple[float, int]] = []
        while self.pos < len(self.lines):
            lineno, line = self.next_line("the statistics")
            if not line:
                break
            field_match = _FINAL_FIELD.match(line)
            dist_match = _DIST_ROW.match(line)
            if field_match:
                fields[field_match.group(1)] = float(field_match.group(2))
            elif dist_match:
                first = int(dist_match.group(1))
                for offset, count in enumerate(dist_match.group(2).split()):
                    dist.append((float(2 ** (first + offset)), int(count)))
            elif line != "Log2 Dist:":
                raise ParseError(f"unexpected line in {name} statistics {line[:60]!r}", line=lineno)
        for key in ("Min", "Max", "Avg", "Geo"):
            if key not in fields:
                raise ParseError(f"{name} statistics lack {key}", line=self.pos)
        if sum(c for _, c in dist) != events:
            raise ParseError(
                f"{name} Log2 Dist sums to {sum(c for _, c in dist)}, not {events} events",
                line=self.pos,
            )
        self.finals[name] = FinalStats(
            events,
            int(fields["Min"]),
            int(fields["Max"]),
            int(fields["Avg"]),
            fields["Geo"],
            fields.get("Std"),
            tuple(dist),
        )

    def run_all(self) -> None:
        while self.pos < len(self.lines):
            lineno, raw = self.next_line("end")
            line = raw.strip()
            if raw.startswith("\x1b"):
                self.screens.append({})
                line = _ANSI.sub("", line).strip()
            if not line:
                continue
            self.dispatch(lineno, line)

    def dispatch(self, lineno: int, line: str) -> None:
        if m := _BLOCK_TITLE.match(line):
            self.periodic(m.group(1))
        elif m := _FINAL_TITLE.match(line):
            self.final(m.group(1), int(m.group(2)))
        elif m := _RUN.match(line):
            self.run = (float(m.group(1)), int(m.group(2)), int(m.group(3)), float(m.group(4)))
        elif (m := _COUNTER.match(line)) and "_" in m.group(1):
            self.counters[m.group(1)] = int(m.group(2))  # cmd_get, get_misses, ...
        elif (m := _HEADER.match(line)) and not (self.screens or self.finals or self.counters):
            self.header[m.group(1)] = m.group(2).strip()
        else:
            raise ParseError(f"unexpected line {line[:60]!r}", line=lineno)


def parse_memaslap(text: str) -> MemaslapOutput:
    """Parse memaslap/memcaslap stdout; ParseError with a line number on bad input."""
    lines = text.splitlines()
    parser = _Parser(lines)
    parser.run_all()
    if "servers" not in parser.header:
        raise ParseError("missing 'servers:' header line", line=1)
    if parser.run is None:
        raise ParseError(
            "missing final 'Run time: ... Ops: ... TPS: ... Net_rate: ...' line", line=len(lines)
        )
    run_time, ops, tps, net = parser.run
    return MemaslapOutput(
        header=parser.header,
        screens=tuple(s for s in parser.screens if s),
        finals=parser.finals,
        counters=parser.counters,
        run_time_s=run_time,
        ops=ops,
        tps=tps,
        net_rate_mb_per_sec=net,
    )
