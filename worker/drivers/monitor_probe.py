"""mcscope's host monitor: once a second, one JSON line of the host's /proc counters.

Shipped to every host of a run and started there like any tool (Host.start, stopped by PID);
standard library only, so it runs on a bare Ubuntu VM's python3 with nothing installed and no
daemon. It reads what dstat, sar and psutil read (/proc/stat, /proc/net/dev, /proc/meminfo,
/proc/<pid>/stat) and writes cumulative counters; worker/parsers/monitor.py turns them into
per-second series. Processes followed: every `<name>.pid` file of the run's work directory
(whatever mcscope started there, this monitor included) and `--follow name=pid` (servers kept
from an earlier run). An ended process's last counter is its wrapper's record of the CPU it
waited for (`<name>.cpu`, see Host.start), so no CPU of its last second is lost. SIGTERM: one
last sample, then exit.

Line 1: {"clk_tck", "ncpu", "pid", "follow"}; then per sample {"t", "cpu": [user, nice, system,
idle, iowait, irq, softirq, steal], "mem": [total_kb, available_kb], "net": {iface: [rx_bytes,
rx_packets, tx_bytes, tx_packets]}, "proc": {name: [cpu_ticks, final]}} (final: 1 once the
process ended and the value is its wrapper's exact total).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from typing import Any

CPU_FIELDS = 8  # user nice system idle iowait irq softirq steal
END_WAIT_S = 0.5  # at stop, how long to wait for an ended process's wrapper to write .cpu


class Stop(Exception):
    """SIGTERM arrived: take the last sample and exit."""


def _stop(signum: int, frame: Any) -> None:
    raise Stop()


def read_cpu() -> tuple[list[int], int]:
    """Aggregate jiffies of the `cpu` line (summed over CPUs) and the number of CPUs."""
    totals: list[int] = []
    ncpu = 0
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu "):
                totals = [int(x) for x in line.split()[1 : 1 + CPU_FIELDS]]
            elif line.startswith("cpu"):
                ncpu += 1
    return totals + [0] * (CPU_FIELDS - len(totals)), ncpu


def read_mem() -> list[int]:
    values: dict[str, int] = {}
    with open("/proc/meminfo") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("MemTotal", "MemAvailable"):
                values[key] = int(rest.split()[0])
    return [values.get("MemTotal", 0), values.get("MemAvailable", 0)]


def read_net() -> dict[str, list[int]]:
    """Per interface of this host's network namespace: rx bytes, rx packets, tx bytes, tx
    packets."""
    out: dict[str, list[int]] = {}
    with open("/proc/net/dev") as f:
        for line in f.readlines()[2:]:
            name, _, rest = line.partition(":")
            fields = rest.split()
            if len(fields) >= 10:
                out[name.strip()] = [int(fields[0]), int(fields[1]), int(fields[8]), int(fields[9])]
    return out


def proc_ticks(pid: int) -> int | None:
    """utime + stime of a live process in clock ticks; None once it is gone or a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()  # comm may hold spaces and ")"
    if fields[0] in ("Z", "X", "x"):
        return None
    return int(fields[11]) + int(fields[12])


def final_ticks(workdir: str, name: str) -> int | None:
    """The ended process's total CPU as its wrapper recorded it, if written."""
    try:
        with open(os.path.join(workdir, name + ".cpu")) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


class Monitor:
    def __init__(self, workdir: str, follow: dict[str, int]) -> None:
        self.workdir = workdir
        self.follow = follow
        self.last: dict[str, list[int]] = {}  # name -> [ticks, final]

    def pids(self) -> dict[str, int]:
        out = dict(self.follow)
        for entry in os.listdir(self.workdir):
            if entry.endswith(".pid"):
                try:
                    with open(os.path.join(self.workdir, entry)) as f:
                        out[entry[:-4]] = int(f.read().split()[0])
                except (OSError, ValueError, IndexError):
                    continue  # being written: next second
        return out

    def processes(self, stopping: bool) -> dict[str, list[int]]:
        for name, pid in self.pids().items():
            if self.last.get(name, [0, 0])[1]:
                continue  # ended and final
            ticks = proc_ticks(pid)
            if ticks is not None:
                self.last[name] = [ticks, 0]
                continue
            final = None if name in self.follow else final_ticks(self.workdir, name)
            if final is None and stopping and name in self.last and name not in self.follow:
                time.sleep(END_WAIT_S)
                final = final_ticks(self.workdir, name)
            if final is not None:
                self.last[name] = [final, 1]
        return {k: list(v) for k, v in self.last.items()}

    def sample(self, stopping: bool = False) -> dict[str, Any]:
        cpu, _ = read_cpu()
        return {
            "t": time.time(),
            "cpu": cpu,
            "mem": read_mem(),
            "net": read_net(),
            "proc": self.processes(stopping),
        }


def main(argv: list[str]) -> int:
    workdir = argv[1]
    follow: dict[str, int] = {}
    for item in argv[2:]:
        name, _, pid = item.partition("=")
        follow[name] = int(pid)
    signal.signal(signal.SIGTERM, _stop)
    monitor = Monitor(workdir, follow)
    out = sys.stdout
    header = {
        "clk_tck": os.sysconf("SC_CLK_TCK"),
        "ncpu": read_cpu()[1],
        "pid": os.getpid(),
        "follow": sorted(follow),
    }
    out.write(json.dumps(header) + "\n")
    start = time.time()
    k = 0
    try:
        while True:
            out.write(json.dumps(monitor.sample()) + "\n")
            out.flush()
            k += 1
            # On whole seconds of the monitor's own clock: samples do not drift apart.
            time.sleep(max(0.0, start + k - time.time()))
    except Stop:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        out.write(json.dumps(monitor.sample(stopping=True)) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
