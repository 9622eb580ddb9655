"""parse_memtier_stdout: memtier_benchmark's text report (stats tables + latency distribution).

Latencies are printed in ms with 5 decimals and converted to us. "Avg. Latency"
here is the HDR histogram mean (bucket-quantized), not the exact mean of the JSON.
With --run-count > 1 there are BEST, WORST and AGGREGATED sections.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from worker.parsers.errors import ParseError
from worker.parsers.memtier_json import section_key

US_PER_MS = 1000.0
_SECTION = re.compile(
    r"^(ALL STATS|BEST RUN RESULTS|WORST RUN RESULTS|RUN #\d+ RESULTS"
    r"|AGGREGATED AVERAGE RESULTS \(\d+ runs\))$"
)
_COLUMN = re.compile(
    r"Ops/sec|Hits/sec|Misses/sec|Avg\. Latency|p\d+(?:\.\d+)? Latency|KB/sec|[^\s]+"
)
_HEADER_ITEM = re.compile(r"^(\d+)\s+(\S.*)$")
_DIST_ROW = re.compile(r"^([A-Z]+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)$")
_ROW_TYPES = ("Sets", "Gets", "Waits", "Totals")


@dataclass(frozen=True, slots=True)
class StdoutRow:
    """One stats row; None where memtier prints "---"; latencies in us."""

    ops_per_sec: float
    hits_per_sec: float | None
    misses_per_sec: float | None
    mean_latency_us: float | None
    percentiles_us: dict[float, float]
    kb_per_sec: float | None
    extra: dict[str, float | None] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StdoutSection:
    """A results section: rows by type (Sets/Gets/Waits/Totals) and the
    distribution per SET/GET/WAIT as (latency us, cumulative percent)."""

    name: str
    rows: dict[str, StdoutRow]
    distribution: dict[str, tuple[tuple[float, float], ...]]


@dataclass(frozen=True, slots=True)
class MemtierStdout:
    """The whole report; ``header`` holds the leading "N  What" lines ("Threads": 1, ...)."""

    header: dict[str, int]
    sections: dict[str, StdoutSection]


def _section_key(title: str) -> str:
    key = section_key(title)
    assert key is not None, title  # _SECTION only matches known titles
    return key


def _value(token: str, lineno: int) -> float | None:
    if token == "---":
        return None
    try:
        return float(token)
    except ValueError:
        raise ParseError(f"expected a number or '---', got {token!r}", line=lineno) from None


def _row(columns: list[str], tokens: list[str], lineno: int) -> StdoutRow:
    if len(tokens) != len(columns) + 1:
        raise ParseError(
            f"row has {len(tokens) - 1} values for {len(columns)} columns", line=lineno
        )
    values = dict(zip(columns, (_value(t, lineno) for t in tokens[1:]), strict=True))
    ops = values.pop("Ops/sec", None)
    if ops is None:
        raise ParseError("row without Ops/sec", line=lineno)
    avg = values.pop("Avg. Latency", None)
    percentiles: dict[float, float] = {}
    for name in [c for c in columns if c.startswith("p") and c.endswith(" Latency")]:
        value = values.pop(name)
        if value is not None:
            percentiles[float(name[1:].split()[0])] = value * US_PER_MS
    return StdoutRow(
        ops_per_sec=ops,
        hits_per_sec=values.pop("Hits/sec", None),
        misses_per_sec=values.pop("Misses/sec", None),
        mean_latency_us=None if avg is None else avg * US_PER_MS,
        percentiles_us=percentiles,
        kb_per_sec=values.pop("KB/sec", None),
        extra=values,
    )


class _Builder:
    """Line-by-line state for the report; one instance per parse."""

    def __init__(self) -> None:
        self.header: dict[str, int] = {}
        self.sections: dict[str, StdoutSection] = {}
        self.current: StdoutSection | None = None
        self.columns: list[str] | None = None
        self.in_distribution = False

    def line(self, lineno: int, line: str) -> None:
        stripped = line.strip()
        if not stripped or set(stripped) <= {"=", "-"} and len(stripped) > 3:
            return
        title = _SECTION.match(stripped)
        if title:
            key = _section_key(title.group(1))
            self.current = StdoutSection(title.group(1), {}, {})
            self.sections[key] = self.current
            self.columns, self.in_distribution = None, False
            return
        if self.current is None:
            item = _HEADER_ITEM.match(stripped)
            if not item:
                raise ParseError(
                    f"unexpected line before the results {stripped[:60]!r}", line=lineno
                )
            self.header[item.group(2).strip()] = int(item.group(1))
            return
        self._in_section(self.current, lineno, stripped)

    def _in_section(self, section: StdoutSection, lineno: int, stripped: str) -> None:
        tokens = stripped.split()
        if tokens[0] == "Type" and not self.in_distribution and self.columns is None:
            self.columns = _COLUMN.findall(stripped)[1:]
            return
        if stripped == "Request Latency Distribution":
            self.in_distribution = True
            return
        if self.in_distribution:
            if stripped == "---" or tokens[0] == "Type":
                return
            dist = _DIST_ROW.match(stripped)
            if not dist:
                raise ParseError(f"bad latency distribution row {stripped[:60]!r}", line=lineno)
            point = (float(dist.group(2)) * US_PER_MS, float(dist.group(3)))
            section.distribution[dist.group(1)] = (
                *section.distribution.get(dist.group(1), ()),
                point,
            )
            return
        if self.columns is None or tokens[0] not in _ROW_TYPES:
            raise ParseError(f"unexpected line {stripped[:60]!r}", line=lineno)
        section.rows[tokens[0]] = _row(self.columns, tokens, lineno)


def parse_memtier_stdout(text: str) -> MemtierStdout:
    """Parse memtier's stdout report; ParseError with a line number on bad input."""
    builder = _Builder()
    for lineno, line in enumerate(text.splitlines(), start=1):
        builder.line(lineno, line)
    if not builder.sections:
        raise ParseError("no results section (ALL STATS / BEST RUN RESULTS ...)", line=1)
    for key, section in builder.sections.items():
        missing = [t for t in _ROW_TYPES if t not in section.rows]
        if missing:
            raise ParseError(
                f"section {key!r} lacks the {missing[0]} row", line=text.count("\n") + 1
            )
    return MemtierStdout(builder.header, builder.sections)
