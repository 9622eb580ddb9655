"""The network between roles, measured from the hosts themselves over their Fabric connections:
TCP connect round trips (python3 on the source host: connect() returns after one SYN /
SYN-ACK exchange; a refused port answers RST after the same one round trip, so a closed port
measures too) and iperf3 uploads (server on the receiving host, stopped by its PID).

Shapes are those of backend.domain.round_trip.
"""

import json
import logging
import shlex
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from backend.domain.round_trip import PROBE_METHOD, SAMPLES
from worker.drivers.errors import DriverError, ToolMissingError
from worker.drivers.host import Host

logger = logging.getLogger(__name__)

# One line per sample: the connect time in microseconds, or "timeout".
RTT_SCRIPT = """import socket, sys, time
addr, port, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
family = socket.AF_INET6 if ":" in addr else socket.AF_INET
for _ in range(n):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(3.0)
    t = time.perf_counter()
    try:
        s.connect((addr, port))
    except ConnectionRefusedError:
        pass
    except OSError:
        print("timeout")
        continue
    finally:
        s.close()
    print(round((time.perf_counter() - t) * 1e6, 1))
"""
IPERF_PORT = 5201
IPERF_SECONDS = 3


@dataclass(frozen=True)
class Leg:
    """One path to measure: from a host of `from_role` to `address:port` of a `to_role` host."""

    from_role: str
    from_host: str
    to_role: str
    to_host: str
    address: str
    port: int


def parse_rtt_samples(text: str) -> list[float]:
    """Connect times in us from RTT_SCRIPT's output; timeouts are left out."""
    out = []
    for line in text.split():
        try:
            out.append(float(line))
        except ValueError:
            continue
    return out


def measure_rtt(source: Host, leg: Leg, samples: int = SAMPLES) -> dict[str, Any]:
    """`samples` TCP connect round trips from `source` along `leg`, as one stored path."""
    command = (
        f"python3 -c {shlex.quote(RTT_SCRIPT)} "
        f"{shlex.quote(leg.address)} {int(leg.port)} {int(samples)}"
    )
    path: dict[str, Any] = {
        "from_role": leg.from_role,
        "from_host": leg.from_host,
        "to_role": leg.to_role,
        "to_host": leg.to_host,
        "address": leg.address,
        "port": leg.port,
    }
    try:
        values = parse_rtt_samples(source.run(command, timeout=5.0 * samples + 10))
    except DriverError as exc:
        return {**path, "samples_us": [], "rtt_us": None, "error": str(exc)[-300:]}
    return {
        **path,
        "samples_us": values,
        "rtt_us": statistics.median(values) if values else None,
        "error": None if values else "no connection answered",
    }


def probe(legs: list[tuple[Host, Leg]], samples: int = SAMPLES) -> dict[str, Any]:
    """Round trips of every leg (one after another: concurrent probes would queue on the same
    links and measure each other)."""
    return {
        "method": PROBE_METHOD,
        "measured_at": datetime.now(UTC).isoformat(),
        "paths": [measure_rtt(host, leg, samples) for host, leg in legs],
    }


def parse_iperf_json(text: str) -> float:
    """The receiver's throughput in Mbit/s from `iperf3 -J` output."""
    try:
        doc = json.loads(text)
        if "error" in doc:
            raise DriverError(f"iperf3: {doc['error']}")
        return float(doc["end"]["sum_received"]["bits_per_second"]) / 1e6
    except (ValueError, KeyError, TypeError) as exc:
        raise DriverError(f"iperf3 printed no result: {text[-300:]}") from exc


def measure_upload(
    sender: Host, receiver: Host, receiver_address: str, workdir: str, role: str
) -> dict[str, Any]:
    """iperf3 from `sender` to `receiver` for IPERF_SECONDS: the sender's upload bandwidth."""
    for host in (sender, receiver):
        if not host.run("command -v iperf3", check=False).strip():
            raise ToolMissingError(
                f"{host.label}: iperf3 is not installed (infra/hosts/setup-host.sh installs it)"
            )
    receiver.mkdir(workdir)
    server = receiver.start(
        ["iperf3", "-s", "-1", "-B", receiver_address, "-p", str(IPERF_PORT)], workdir, "iperf3-s"
    )
    try:
        receiver.wait_listening(server, IPERF_PORT)
        argv = ["iperf3", "-J", "-c", receiver_address, "-p", str(IPERF_PORT)]
        argv += ["-t", str(IPERF_SECONDS)]
        # iperf3 -J prints its error as JSON on stdout too, with a non-zero exit.
        mbit = parse_iperf_json(sender.run(shlex.join(argv), IPERF_SECONDS + 30, check=False))
    finally:
        receiver.stop(server.pid, grace_s=2.0)
    return {
        "role": role,
        "from_host": sender.spec.name,
        "to_host": receiver.spec.name,
        "mbit_s": round(mbit, 3),
    }
