"""Cloud-shaped links for namespace hosts: cap a host's egress at a VM's bandwidth with tc's
token bucket filter (tbf), the one shaping qdisc these machines' kernels have (no netem).

Why here (backend/rehearsal, beside the namespace hosts it shapes): a rehearsal testbed shapes
its hosts as product code, and the product (backend, worker) imports nothing from infra, the
deployment folder; it is set-up of this machine (tc run as root on a device of a namespace
this machine owns), not a tool a run drives over SSH (worker/drivers). The namespace hosts of
the worker tests, the fake Azure's VMs and a rehearsal all call it.

A cap is on egress, as a cloud VM's is (DOMAIN.md section 9): a server's get replies leave on
its own link, a client's sets on its own. Shape the host's end of its veth (or TUN) inside the
namespace. Delay is not tbf's: a one-way delay needs the user-space router of the tests
(worker/tests/drivers/delaynet.py), whose TUN devices can be shaped here the same way.

The parameters (`tbf_args`):
- rate: the VM's bandwidth on the wire. Its figure (the reports' iperf, Azure's expected
  bandwidth) is TCP goodput in 10^6 bit/s; tbf counts whole frames, so the rate is the figure x
  backend.domain.saturation.WIRE_PER_GOODPUT (1,514 B frames per 1,448 B of payload): iperf3
  between shaped hosts then reads the figure (a cap of the figure itself read 4.4 % less);
- burst: the larger of 64 KiB and 5 ms at the rate. 64 KiB holds one whole GSO/TSO segment
  (veth offloads up to 64 KiB), so it leaves as one; 5 ms of tokens (above one 4 ms jiffy at
  HZ=250) keep the bucket from running dry between timer wake-ups, which would lose rate.
  What a full bucket lets out above the rate is at most 5 ms' worth: 0.05 % of a 10 s run;
- latency: 50 ms, the longest a packet waits in the qdisc (its queue holds rate x 50 ms, 631 KB
  at 101 Mbit/s). A saturated link then queues rather than drops: a closed-loop load of a few
  hundred clients with one 4 KB reply each in flight fits, so the measured rate is the link's,
  not TCP's recovery from losses. The queueing shows in response times, as a saturated link's
  does (R = N / X).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass

from backend.domain.saturation import WIRE_PER_GOODPUT

MBIT = 1_000_000  # bit/s in iperf3's (and Azure's) Mbit/s
MIN_BURST_B = 64 * 1024
BURST_S = 0.005
LATENCY_MS = 50
TC_TIMEOUT_S = 30


class ShapingError(RuntimeError):
    """tc refused the shape (no tbf in the kernel, no such device or namespace)."""


@dataclass(frozen=True)
class LinkCap:
    """A host's egress cap and the figure it follows (backend.domain.vm_sizes' basis, or
    "custom" for a rate given directly)."""

    mbit_s: float
    basis: str = "custom"


def wire_bit_s(mbit_s: float) -> int:
    """The rate on the wire, bit/s, that gives `mbit_s` of TCP goodput."""
    return int(round(mbit_s * MBIT * WIRE_PER_GOODPUT))


def burst_bytes(mbit_s: float) -> int:
    return max(MIN_BURST_B, int(wire_bit_s(mbit_s) / 8 * BURST_S))


def tbf_args(mbit_s: float) -> list[str]:
    """tc arguments of a tbf giving `mbit_s` of goodput (see the module docstring)."""
    if mbit_s <= 0:
        raise ValueError(f"a link cap must be positive, not {mbit_s} Mbit/s")
    rate_bit = wire_bit_s(mbit_s)
    return [
        "tbf",
        "rate",
        f"{rate_bit}bit",
        "burst",
        f"{burst_bytes(mbit_s)}b",
        "latency",
        f"{LATENCY_MS}ms",
    ]


def _tc(namespace: str | None, *args: str) -> subprocess.CompletedProcess[str]:
    prefix = ["ip", "netns", "exec", namespace] if namespace else []
    return subprocess.run(
        [*prefix, "tc", *args], capture_output=True, text=True, timeout=TC_TIMEOUT_S
    )


def shape_egress(namespace: str | None, device: str, mbit_s: float) -> None:
    """Cap `device`'s egress (in `namespace`, None: this one) at `mbit_s`; replaces any
    earlier shape. ShapingError with tc's words when it refuses."""
    done = _tc(namespace, "qdisc", "replace", "dev", device, "root", *tbf_args(mbit_s))
    if done.returncode != 0:
        where = f" in namespace {namespace}" if namespace else ""
        raise ShapingError(f"tc could not shape {device}{where}: {done.stderr.strip()}")


def unshape(namespace: str | None, device: str) -> None:
    """Back to the device's default qdisc (nothing to remove is not an error)."""
    _tc(namespace, "qdisc", "del", "dev", device, "root")


_RATE = re.compile(r"\btbf\b.*?\brate (\d+(?:\.\d+)?)([KMG]?)bit", re.IGNORECASE)
_UNIT = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}


def egress_cap_mbit_s(namespace: str | None, device: str) -> float | None:
    """The goodput figure of the tbf rate on `device` as the kernel holds it (tc prints the
    rate rounded to its unit), Mbit/s; None when not shaped."""
    done = _tc(namespace, "qdisc", "show", "dev", device)
    match = _RATE.search(done.stdout)
    if done.returncode != 0 or match is None:
        return None
    return float(match.group(1)) * _UNIT[match.group(2).upper()] / MBIT / WIRE_PER_GOODPUT
