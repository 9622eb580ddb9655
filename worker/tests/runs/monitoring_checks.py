"""What a monitored run must have stored: shared by the local and the namespace testbed tests."""

import math
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run, RunSeries, RunSummary

HOST_COLUMNS = (
    "host_cpu_user_pct",
    "host_cpu_system_pct",
    "host_cpu_iowait_pct",
    "host_cpu_steal_pct",
    "host_cpu_busy_pct",
    "host_cpus",
    "host_mem_used_bytes",
)
NET_COLUMNS = (
    "net_rx_bytes_per_s",
    "net_tx_bytes_per_s",
    "net_rx_packets_per_s",
    "net_tx_packets_per_s",
)


def _proc_totals(archive: Path) -> dict[tuple[str, int], float]:
    """(host, pid) -> CPU seconds, from each wrapper's record of /proc (Host.start's .cpu)."""
    out = {}
    for pid_file in archive.glob("*/*.pid"):
        cpu = pid_file.with_suffix(".cpu")
        if cpu.exists():
            out[(pid_file.parent.name, int(pid_file.read_text().split()[0]))] = (
                int(cpu.read_text().split()[0]) / 100.0  # USER_HZ: 100 on Linux
            )
    return out


def check_monitor_rows(db: Session, run: Run, hosts: list[str]) -> set[str]:
    """Series of every host, an interface per host and every process the run started, of
    the run's length; each ended process's CPU series sums to its /proc total within 2 %.
    Returns the sources stored."""
    series = {s.source: s for s in db.scalars(select(RunSeries).where(RunSeries.run_id == run.id))}
    summaries = {
        s.source for s in db.scalars(select(RunSummary).where(RunSummary.run_id == run.id))
    }
    for host in hosts:
        row = series[f"host:{host}"]
        for col in HOST_COLUMNS:
            values = getattr(row, col)
            assert values is not None and len(values) >= 3, (host, col)
            assert all(math.isfinite(v) and v >= 0 for v in values), (host, col, values)
        assert sum(row.host_cpu_busy_pct or []) > 0
        assert f"host:{host}" in summaries
        nets = [s for src, s in series.items() if src.startswith(f"net:{host}:")]
        assert nets, f"no interface of {host}"
        for s in nets:
            assert all(getattr(s, c) is not None for c in NET_COLUMNS)
    (archive,) = Path(run.artifact_dir or "").glob("attempt-*")
    totals = _proc_totals(archive)
    checked = 0
    for entry in run.commands:
        source = f"process:{entry['source']}"
        assert source in series, f"no CPU series of {entry['source']}"
        cpu = series[source].process_cpu_pct
        assert cpu is not None and all(math.isfinite(v) and v >= 0 for v in cpu)
        if entry["role"] == "monitor":
            continue  # its wrapper also counts what it spent after its last sample
        total = totals[(entry["host"], entry["pid"])]
        print(f"{source}: series {sum(cpu) / 100:.2f} s, /proc {total:.2f} s")
        assert sum(cpu) / 100 == pytest.approx(total, rel=0.02, abs=1e-9)
        checked += 1
    assert checked >= 2
    return set(series)
