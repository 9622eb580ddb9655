"""The host monitor: shipped to a host as one small stdlib Python file and started like any
tool (Host.start: stopped by PID, swept with the run's work directory).

Why reading /proc with the host's own python3 rather than psutil or sysstat: a bare Ubuntu VM
has python3 but neither psutil nor sysstat (and the namespace hosts run the system python3,
which has no psutil either), so nothing is installed, no daemon runs, and the counters are the
ones dstat, sar and psutil read themselves. Its own CPU is measured as a process of the run
("process:monitor:<host>"); `make bench-monitor` prints it per second of run.
"""

import base64
import shlex
from pathlib import Path

from worker.drivers.errors import ProcessDiedError
from worker.drivers.host import COMMAND_TIMEOUT_S, Host, RemoteProcess

PROBE = Path(__file__).with_name("monitor_probe.py")
PYTHON = "python3"
FIRST_SAMPLE_TIMEOUT_S = 15.0


def probe_path(workdir: str) -> str:
    return f"{workdir}/monitor_probe.py"


def ship_probe(host: Host, workdir: str) -> str:
    """Write the probe into the run's work directory (one round trip); its path there."""
    path = probe_path(workdir)
    data = base64.b64encode(PROBE.read_bytes()).decode()
    host.run(f"printf %s {shlex.quote(data)} | base64 -d > {shlex.quote(path)}")
    return path


def monitor_name(host_name: str) -> str:
    """Its file names in the work directory (hosts may share one: the namespace testbed)."""
    return f"monitor-{host_name}"


def start_monitor(
    host: Host, workdir: str, host_name: str, follow: dict[str, int]
) -> RemoteProcess:
    """Ship and start the monitor; `follow`: name -> PID of processes outside the work
    directory (servers kept from an earlier run). Its samples go to `<name>.out`."""
    path = ship_probe(host, workdir)
    # Lowest priority: its few milliseconds each second must not delay a load generator's
    # per-second report on a busy host (nice execs python3: the PID is the monitor's).
    follows = (f"{name}={int(pid)}" for name, pid in sorted(follow.items()))
    argv = ["nice", "-n", "19", PYTHON, path, workdir, *follows]
    proc = host.start(argv, workdir, monitor_name(host_name))
    wait_first_sample(host, proc)
    return proc


def wait_first_sample(host: Host, proc: RemoteProcess) -> None:
    """Until the monitor wrote its first sample (header and one line): python3 takes a while
    to start on a busy host, and a process started before that sample would lose the CPU it
    spent until then. One round trip."""
    steps = int(FIRST_SAMPLE_TIMEOUT_S / 0.02)
    out = host.run(
        f"for i in $(seq {steps}); do "
        f'[ "$(wc -l < {shlex.quote(proc.path("out"))})" -ge 2 ] 2>/dev/null && '
        "{ echo up; exit 0; }; "
        f"kill -0 {int(proc.pid)} 2>/dev/null || {{ echo died; exit 0; }}; sleep 0.02; done; "
        "echo timeout",
        timeout=FIRST_SAMPLE_TIMEOUT_S + COMMAND_TIMEOUT_S,
    ).strip()
    if out != "up":
        raise ProcessDiedError(
            f"{host.label}: the monitor did not sample ({out}): "
            f"{host.tail(proc.path('err')) or 'no message on stderr'}"
        )
