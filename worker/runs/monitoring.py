"""Monitoring every host of a run: a monitor started on each host before the first server
and stopped after the last process (it is the oldest, and stop goes newest first), and its
samples turned into result rows of "host:", "net:" and "process:" sources."""

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from backend.domain.metrics import RESOURCE
from backend.models import RequestType
from backend.results.aggregate import SourceSeries, offset_s, source_window
from backend.results.aggregate import Window as ClockWindow
from worker.drivers.host import Host, RemoteProcess
from worker.drivers.monitor import monitor_name, start_monitor
from worker.parsers import ParseError
from worker.parsers.monitor import MonitorSeries, parse_monitor
from worker.runs.context import RunContext
from worker.runs.launch import Launch, launch_on_hosts
from worker.runs.summarize import ResultRows, StableWindow
from worker.runs.watch import Started

logger = logging.getLogger(__name__)

ROLE = "monitor"
NAN = float("nan")


def start_monitors(ctx: RunContext) -> None:
    """One monitor per host the run uses, hosts in parallel, recorded like every process."""

    def launch(spec_index: int) -> Launch:
        spec = ctx.layout.used(ctx.params)[spec_index]
        follow = {
            st.proc.name: st.proc.pid
            for st in ctx.started
            if st.proc.host.spec == spec and st.proc.workdir != ctx.workdir
        }

        def start(host: Host) -> RemoteProcess:
            return start_monitor(host, ctx.workdir, spec.name, follow)

        return Launch(spec, f"{ROLE}:{spec.name}", start)

    specs = ctx.layout.used(ctx.params)
    launch_on_hosts(
        [launch(i) for i in range(len(specs))],
        ctx.host,
        lambda item, proc: ctx.launched(ROLE, item.source, proc),
    )


def monitor_rows(archive: Path, started: Sequence[Started], window: StableWindow) -> ResultRows:
    """Rows of every monitor of the run from its archive (one directory per host)."""
    rows = ResultRows()
    for mon in (st for st in started if st.role == ROLE):
        spec = mon.proc.host.spec
        path = archive / spec.name / f"{monitor_name(spec.name)}.out"
        try:
            series = parse_monitor(path.read_text())
        except (ParseError, OSError) as exc:
            raise ParseError(
                f"{mon.source} (on {spec.name}): cannot parse monitor output: {exc}; "
                f"raw files kept in {path.parent}"
            ) from exc
        # Processes of this host only: namespace hosts share one work directory.
        names = {st.proc.name: st.source for st in started if st.proc.host.spec == spec}
        rows.extend(host_rows(spec.name, series, names, window))
    return rows


def host_rows(
    host: str, series: MonitorSeries, names: dict[str, str], window: StableWindow
) -> ResultRows:
    """Series and window summaries of one host's monitor: the host, each interface, and each
    process named in `names` (file name -> source, e.g. "server-0" -> "server:0")."""
    rows = ResultRows()
    per_source: list[tuple[str, dict[str, list[float]]]] = [(f"host:{host}", series.host)]
    per_source += [(f"net:{host}:{iface}", cols) for iface, cols in series.net.items()]
    per_source += [
        (f"process:{names[name]}", {"process_cpu_pct": cpu})
        for name, cpu in series.processes.items()
        if name in names
    ]
    for source, cols in per_source:
        row = {"source": source, "request_type": RequestType.ALL, "start_unix": series.start_unix}
        row |= {"throughput": [NAN] * series.length, "response_time_us": [NAN] * series.length}
        rows.series.append(row | cols)
        summary = resource_summary(source, series.start_unix, cols, series.length, window)
        if summary is not None:
            rows.summaries.append(summary)
    return rows


def resource_summary(
    source: str, start_unix: float, cols: dict[str, list[float]], length: int, window: StableWindow
) -> dict[str, Any] | None:
    """The stored window means of one monitor source (rule 2 of backend.results.aggregate)."""
    values: dict[str, Any] = {"throughput": [NAN] * length, **cols}
    sw = source_window(
        SourceSeries(source, start_unix, values),
        offset_s(start_unix, window.load_start_unix),
        ClockWindow(window.start_s, window.end_s),
        RESOURCE,
    )
    if sw is None:
        return None
    return {
        "source": source,
        "request_type": RequestType.ALL,
        "window_start_s": window.start_s,
        "window_end_s": window.end_s,
        "count": 0,
        "throughput": NAN,
        "response_time_us": NAN,
        "weight": None,
        **{m.column: sw.values.get(m.name) for m in RESOURCE if m.column in cols},
    }
