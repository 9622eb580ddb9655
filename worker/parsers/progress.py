"""Resumable live-progress parsing: the base every tool's progress parser extends (memtier's
in worker/parsers/memtier.py, memaslap's in worker/parsers/memaslap.py).

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

_TERMINATOR = re.compile(rb"[\r\n]")


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
