"""memaslap / memcaslap stdout (periodic blocks, final statistics, run line): parse_memaslap,
its ClientResult (client_result_from_memaslap) and its live progress (MemaslapProgressParser).

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
from worker.parsers.memaslap_clock import loop_stretch, on_real_clock
from worker.parsers.model import ClientResult, ClientType, SecondSample, Summary, TypeResult
from worker.parsers.progress import ProgressParser, ProgressTick

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


# ------------------------------------------------------------ ClientResult

_MEMASLAP_TYPES: dict[ClientType, str] = {"all": "Total", "get": "Get", "set": "Set"}


def _memaslap_sample(
    kind: ClientType, screen: dict[str, PeriodicBlock], keys_per_get: float
) -> tuple[SecondSample, int] | None:
    """One report as memaslap counted it, with its interval's length in counted seconds."""
    block = screen.get(_MEMASLAP_TYPES[kind])
    if block is None:
        return None
    period, freq = block.period, max(block.period.time_s, 1)
    get_ops = screen["Get"].period.tps if "Get" in screen else 0
    set_ops = screen["Set"].period.tps if "Set" in screen else 0
    # "all": its own requests plus the extra keys of multi-gets (works without Get/Set tables).
    keys = {"get": get_ops * keys_per_get, "set": float(set_ops)}.get(
        kind, period.tps + get_ops * (keys_per_get - 1)
    )
    misses = None if kind == "set" else period.get_miss / freq
    hits = None if misses is None else max(keys - set_ops * (kind == "all") - misses, 0.0)
    sample = SecondSample(
        second=block.global_.time_s - freq,
        ops_per_sec=float(period.tps),
        mean_latency_us=float(period.avg_us) if period.ops else None,
        keys_per_sec=keys,
        hits_per_sec=hits,
        misses_per_sec=misses,
    )
    return sample, freq


def _log2_contiguous(dist: tuple[tuple[float, int], ...]) -> tuple[tuple[float, int], ...]:
    """memaslap prints Log2 rows from the first non-empty group of 4; add the empty
    buckets below (bounds 1, 2, 4, ...) so the histogram starts at 0 us."""
    if not dist:
        return ()
    first = int(dist[0][0]).bit_length() - 1
    return (*((float(2**i), 0) for i in range(first)), *dist)


def _memaslap_run_time(out: MemaslapOutput) -> float:
    """Run time in s: Ops / TPS (5 digits) when it agrees with the printed 1-decimal time."""
    if out.run_time_s <= 0:
        raise ParseError("memaslap run time is 0 s")
    if out.tps > 0:
        precise = out.ops / out.tps
        if abs(precise - out.run_time_s) <= 0.05 + 1e-3 * precise:
            return precise
    return out.run_time_s


def client_result_from_memaslap(out: MemaslapOutput) -> ClientResult:
    """ClientResult from parsed memaslap stdout.

    Series come from the periodic Period rows (second = Global elapsed - period), placed on
    the real clock when memaslap's counted seconds ran long (memaslap_clock); summaries from
    the final statistics over the run time (Ops / TPS, which is more precise than the printed
    1-decimal "Run time"). With -d, keys per get is estimated as cmd_get / get events.
    memaslap prints no percentiles, so ``percentiles`` is empty; histograms are its Log2
    buckets.
    """
    run = _memaslap_run_time(out)
    cmd_get = out.counters.get("cmd_get", 0)
    cmd_set = out.counters.get("cmd_set", 0)
    misses = out.counters.get("get_misses", 0) / run
    get_events = out.finals["Get"].events if "Get" in out.finals else 0
    keys_per_get = cmd_get / get_events if get_events else 1.0
    net_bytes = out.counters.get("written_bytes", 0) + out.counters.get("read_bytes", 0)
    kb_all = net_bytes / 1024 / run if net_bytes else out.net_rate_mb_per_sec * 1024
    last_counted = max(
        (block.global_.time_s for screen in out.screens for block in screen.values()),
        default=None,
    )
    stretch = loop_stretch(out.header, last_counted, run)
    types: dict[ClientType, TypeResult] = {}
    for kind, name in _MEMASLAP_TYPES.items():
        final = out.finals.get(name)
        if final is None and not (kind == "all" and not out.finals):
            continue
        keys = {"get": cmd_get / run, "set": cmd_set / run}.get(kind, out.ops / run)
        count = final.events if final is not None else out.ops
        gets = kind != "set"
        summary = Summary(
            ops_per_sec=count / run,
            count=count,
            mean_latency_us=float(final.avg_us) if final is not None else None,
            keys_per_sec=keys,
            hits_per_sec=max(cmd_get / run - misses, 0.0) if gets else None,
            misses_per_sec=misses if gets else None,
            kb_per_sec=kb_all if kind == "all" else None,
        )
        samples = (_memaslap_sample(kind, screen, keys_per_get) for screen in out.screens)
        types[kind] = TypeResult(
            summary=summary,
            series=on_real_clock([s for s in samples if s is not None], stretch),
            histogram=_log2_contiguous(final.log2_dist) if final is not None else (),
        )
    return ClientResult(tool="memaslap", duration_s=run, types=types)


# ---------------------------------------------------------------- progress


class MemaslapProgressParser(ProgressParser):
    """memaslap stdout: one tick per periodic "Total Statistics" table (Period
    row over the interval, elapsed time from the Global row)."""

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(strict=strict)
        self._block: str | None = None
        self._period: list[str] | None = None

    def parse_record(self, text: str) -> ProgressTick | None:
        text = _ANSI.sub("", text).strip()
        title = _BLOCK_TITLE.match(text)
        if title:
            self._block, self._period = title.group(1), None
            return None
        tokens = text.split()
        if self._block != "Total" or not tokens or tokens[0] not in ("Period", "Global"):
            return None
        if len(tokens) != 11:
            raise ParseError(f"{tokens[0]} row has {len(tokens)} fields, expected 11")
        if tokens[0] == "Period":
            self._period = tokens
            return None
        period, self._period, self._block = self._period, None, None
        if period is None:
            raise ParseError("Global row without a Period row")
        try:
            elapsed, ops, tps, avg = (
                int(tokens[1]),
                int(period[2]),
                float(period[3]),
                float(period[8]),
            )
        except ValueError:
            raise ParseError(f"bad number in Total table: {text[:80]!r}") from None
        return ProgressTick(
            elapsed_s=elapsed, ops_per_sec=tps, mean_latency_us=avg if ops else None
        )
