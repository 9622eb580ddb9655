"""Resumable live-progress parsers for streamed memtier stderr and memaslap stdout.

Like asio's request_parser, the parser keeps its state between reads: feed it
whatever bytes arrived (split anywhere, even inside a UTF-8 character or an
ANSI escape) and it returns the ticks completed so far; the result is the same
however the stream was chunked. After each feed ``status`` says GOOD (all
input consumed cleanly), MORE (a partial record is buffered) or BAD (a record
looked like progress but did not parse; see ``errors``, which carry the line).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from worker.parsers.errors import ParseError

MAX_RECORD_BYTES = 64 * 1024  # a progress record is ~200 B; more means garbage
US_PER_MS = 1000.0

_MEMTIER_PREFIX = re.compile(r"^\[RUN #(\d+) (\d+)%,\s*(\d+) secs\]")
_MEMTIER_OPS = re.compile(r"(\d+) ops,\s+(\d+) \(avg:\s*(\d+)\) ops/sec")
_MEMTIER_LATENCY = re.compile(r"(\d+(?:\.\d+)?) \(avg:\s*(\d+(?:\.\d+)?)\) msec latency")
_TERMINATOR = re.compile(rb"[\r\n]")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_MEMASLAP_TITLE = re.compile(r"^(Get|Set|Total) Statistics$")


class Status(enum.Enum):
    """Outcome of the last feed: asio's good / bad / indeterminate (MORE)."""

    GOOD = "good"
    BAD = "bad"
    MORE = "more"


@dataclass(frozen=True, slots=True)
class ProgressTick:
    """One live sample: elapsed seconds since start, ops/s over the last
    interval, mean latency in us of that interval (None if not printed).

    memtier's elapsed seconds may skip or repeat (its final 100% record repeats
    the last interval's rate) and restart at each run of --run-count.
    memtier prints latency with 2 decimals of ms, so it is good to 10 us.
    """

    elapsed_s: int
    ops_per_sec: float
    mean_latency_us: float | None
    run: int = 1
    percent: int | None = None
    avg_ops_per_sec: float | None = None  # memtier: average since the run started


class ProgressParser:
    """Splits a byte stream into records at CR or LF and tracks file line numbers."""

    def __init__(self, *, strict: bool = False) -> None:
        self.strict = strict
        self.status = Status.GOOD
        self.errors: list[ParseError] = []
        self._buffer = bytearray()
        self._line = 1  # file line of the record being buffered

    def feed(self, chunk: bytes) -> list[ProgressTick]:
        """Consume ``chunk``; return the ticks of the records it completed."""
        ticks: list[ProgressTick] = []
        bad = False
        scan_from = len(self._buffer)  # the buffered tail holds no terminator
        self._buffer += chunk
        start = 0
        for match in _TERMINATOR.finditer(self._buffer, scan_from):
            index = match.start()
            bad |= self._record(bytes(self._buffer[start:index]), ticks)
            if match.group() == b"\n":
                self._line += 1
            start = index + 1
        del self._buffer[:start]
        if len(self._buffer) > MAX_RECORD_BYTES:
            bad |= self._bad(f"record longer than {MAX_RECORD_BYTES} bytes")
            self._buffer.clear()
        self.status = Status.BAD if bad else Status.MORE if self._buffer else Status.GOOD
        return ticks

    def finish(self) -> list[ProgressTick]:
        """End of stream: parse a final record that had no line terminator."""
        ticks: list[ProgressTick] = []
        bad = self._record(bytes(self._buffer), ticks) if self._buffer else False
        self._buffer.clear()
        self.status = Status.BAD if bad else Status.GOOD
        return ticks

    def _record(self, raw: bytes, ticks: list[ProgressTick]) -> bool:
        text = raw.decode("utf-8", errors="replace").strip()
        if not text:
            return False
        try:
            tick = self.parse_record(text)
        except ParseError as exc:
            return self._bad(exc.message)
        if tick is not None:
            ticks.append(tick)
        return False

    def _bad(self, message: str) -> bool:
        error = ParseError(message, line=self._line)
        if self.strict:
            raise error
        self.errors.append(error)
        return True

    def parse_record(self, text: str) -> ProgressTick | None:
        """One complete record -> a tick, None (not a progress record) or ParseError."""
        raise NotImplementedError


class MemtierProgressParser(ProgressParser):
    """memtier stderr: "[RUN #1 40%,   2 secs]  1 threads  2 conns: ... ops/sec, ... latency"."""

    def parse_record(self, text: str) -> ProgressTick | None:
        prefix = _MEMTIER_PREFIX.match(text)
        if prefix is None:
            return None  # "[RUN #1] Preparing...", "Writing results..." and the like
        ops = _MEMTIER_OPS.search(text, prefix.end())
        if ops is None:
            raise ParseError(f"progress record without ops/sec: {text[:80]!r}")
        latency = _MEMTIER_LATENCY.search(text, ops.end())
        return ProgressTick(
            elapsed_s=int(prefix.group(3)),
            ops_per_sec=float(ops.group(2)),
            mean_latency_us=float(latency.group(1)) * US_PER_MS if latency else None,
            run=int(prefix.group(1)),
            percent=int(prefix.group(2)),
            avg_ops_per_sec=float(ops.group(3)),
        )


class MemaslapProgressParser(ProgressParser):
    """memaslap stdout: one tick per periodic "Total Statistics" table (Period
    row over the interval, elapsed time from the Global row)."""

    def __init__(self, *, strict: bool = False) -> None:
        super().__init__(strict=strict)
        self._block: str | None = None
        self._period: list[str] | None = None

    def parse_record(self, text: str) -> ProgressTick | None:
        text = _ANSI.sub("", text).strip()
        title = _MEMASLAP_TITLE.match(text)
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
