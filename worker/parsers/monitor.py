"""Parsing the host monitor's output (worker/drivers/monitor_probe.py) into per-second series.

The monitor writes cumulative counters once a second; element i of every series here is the
increase from sample i to sample i + 1 (samples on whole seconds of the monitor's clock, the
last one when it was stopped), so the series of a counter sums to its total over the run.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from worker.parsers.errors import ParseError

# /proc/stat's aggregate cpu line, as the monitor writes it.
USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL = range(8)


@dataclass(frozen=True)
class MonitorSeries:
    """One host's series from its monitor. start_unix: the first sample (element 0 covers the
    second after it). CPU in percent of one core (summed over CPUs), bytes and packets per
    interval of one second, memory in bytes at the interval's end."""

    start_unix: float
    ncpu: int
    host: dict[str, list[float]]
    net: dict[str, dict[str, list[float]]]
    processes: dict[str, list[float]]
    # Per process, its CPU total over the run in seconds (the last counter read).
    process_totals_s: dict[str, float] = field(default_factory=dict)

    @property
    def length(self) -> int:
        return len(self.host["host_cpus"])


def _load(line: str, number: int) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ParseError(f"not JSON: {exc.msg}", line=number) from exc
    if not isinstance(value, dict):
        raise ParseError("expected an object", line=number)
    return value


def _deltas(values: list[float]) -> list[float]:
    """Increase per interval; a counter that went back (interface re-created) counts 0."""
    return [max(0.0, b - a) for a, b in zip(values, values[1:], strict=False)]


def parse_monitor(text: str) -> MonitorSeries:
    """The monitor's lines into series; a last line cut short (stopped mid-write) is left out."""
    lines = text.splitlines()
    if text and not text.endswith("\n") and lines:
        lines = lines[:-1]
    if not lines:
        raise ParseError("empty monitor output", line=1)
    header = _load(lines[0], 1)
    try:
        clk = float(header["clk_tck"])
        ncpu = int(header["ncpu"])
        follow = set(header.get("follow", []))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParseError(f"bad header: {exc}", line=1) from exc
    samples = [_load(line, i) for i, line in enumerate(lines[1:], start=2)]
    if len(samples) < 2:
        raise ParseError("fewer than two samples: the monitor ran under a second", line=1)
    try:
        return _series(samples, clk, ncpu, follow)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ParseError(f"bad sample: {exc!r}") from exc


def _series(
    samples: list[dict[str, Any]], clk: float, ncpu: int, follow: set[str]
) -> MonitorSeries:
    cpu = [[float(x) for x in s["cpu"]] for s in samples]
    n = len(samples) - 1

    def pct(*fields: int) -> list[float]:
        return [100.0 * v / clk for v in _deltas([sum(c[f] for f in fields) for c in cpu])]

    mem = [(float(s["mem"][0]) - float(s["mem"][1])) * 1024.0 for s in samples[1:]]
    host = {
        "host_cpu_user_pct": pct(USER, NICE),
        "host_cpu_system_pct": pct(SYSTEM, IRQ, SOFTIRQ),
        "host_cpu_iowait_pct": pct(IOWAIT),
        "host_cpu_steal_pct": pct(STEAL),
        "host_cpu_busy_pct": pct(USER, NICE, SYSTEM, IRQ, SOFTIRQ),
        "host_cpus": [float(ncpu)] * n,
        "host_mem_used_bytes": mem,
    }
    names = (
        "net_rx_bytes_per_s",
        "net_rx_packets_per_s",
        "net_tx_bytes_per_s",
        "net_tx_packets_per_s",
    )
    interfaces = sorted({i for s in samples for i in s["net"]})
    net: dict[str, dict[str, list[float]]] = {}
    for iface in interfaces:
        net[iface] = {}
        for k, name in enumerate(names):
            raw = [s["net"].get(iface) for s in samples]
            first = next(float(r[k]) for r in raw if r is not None)
            filled, last = [], first  # before it appears: its first value (no traffic)
            for r in raw:
                last = float(r[k]) if r is not None else last
                filled.append(last)
            net[iface][name] = _deltas(filled)
    processes: dict[str, list[float]] = {}
    totals: dict[str, float] = {}
    for name in sorted({p for s in samples for p in s["proc"]}):
        raw_ticks = [s["proc"].get(name) for s in samples]
        seen = [float(r[0]) for r in raw_ticks if r is not None]
        # Started by this run: 0 until first seen. Followed (kept from an earlier run) or
        # already there at the first sample: the CPU before that is in no second of the
        # series, so it starts from its first reading.
        base = seen[0] if name in follow or raw_ticks[0] is not None else 0.0
        filled, last = [], base
        for r in raw_ticks:
            last = float(r[0]) if r is not None else last
            filled.append(last)
        processes[name] = [100.0 * d / clk for d in _deltas(filled)]
        totals[name] = (filled[-1] - base) / clk
    start = float(samples[0]["t"])
    if not math.isfinite(start):
        raise ValueError("sample time is not finite")
    return MonitorSeries(start, ncpu, host, net, processes, totals)
