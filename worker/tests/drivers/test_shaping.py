"""Cloud-shaped namespace hosts (backend/rehearsal/shaping.py): iperf3 between two hosts shaped as
the reports' Basic A1 (101 Mbit/s) and A2 (201 Mbit/s) measures each sender's cap within 5 %.
Needs root, iproute2, tbf and iperf3 (infra/local/install-deps.sh installs it); elsewhere it
fails saying why. All traffic stays between the namespaces the test creates."""

import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from backend.rehearsal.shaping import LinkCap, egress_cap_mbit_s, tbf_args
from worker.tests.drivers.delaynet import DelayedTestbed
from worker.tests.drivers.netns import NetnsHost, NetnsTestbed, netns_supported

pytestmark = pytest.mark.integration
A1, A2 = 101.0, 201.0  # Mbit/s, the reports' iperf (backend/domain/vm_sizes.py)
# Long enough for TCP to fill the queue and the rate to settle; the first second is omitted.
SECONDS, OMIT = 5, 1


@pytest.fixture()
def shaped(local_sshd: None, tmp_path: Path) -> Iterator[NetnsTestbed]:
    reason = netns_supported()
    if reason:
        pytest.fail(f"cannot create the namespace testbed: {reason}")
    bed = NetnsTestbed(2, tmp_path, caps=[LinkCap(A1, "measured"), LinkCap(A2, "measured")])
    try:
        bed.up()
        yield bed
    finally:
        bed.down()


def _iperf3(sender: NetnsHost, receiver: NetnsHost) -> float:
    """The receiver's throughput of one `sender` -> `receiver` iperf3 run, Mbit/s."""
    server = subprocess.Popen(
        ["ip", "netns", "exec", receiver.name, "iperf3", "-s", "-1", "-B", receiver.address],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        time.sleep(0.5)  # the server binds
        out = subprocess.run(
            [
                "ip",
                "netns",
                "exec",
                sender.name,
                "iperf3",
                "-J",
                "-c",
                receiver.address,
                "-t",
                str(SECONDS),
                "-O",
                str(OMIT),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
    finally:
        if server.poll() is None:
            os.kill(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
    return float(json.loads(out.stdout)["end"]["sum_received"]["bits_per_second"]) / 1e6


def test_each_host_sends_at_its_cap(shaped: NetnsTestbed) -> None:
    a1, a2 = shaped.hosts
    # tc prints the rate rounded to its unit.
    assert egress_cap_mbit_s(a1.name, a1.device) == pytest.approx(A1, rel=1e-3)
    assert egress_cap_mbit_s(a2.name, a2.device) == pytest.approx(A2, rel=1e-3)
    # A cap is on egress: the sender's link bounds each direction.
    assert _iperf3(a1, a2) == pytest.approx(A1, rel=0.05)
    assert _iperf3(a2, a1) == pytest.approx(A2, rel=0.05)


# Behind the user-space delay router: a cap it can carry (one Python thread forwards every
# packet) and the reports' ~1 ms round trip (0.5 ms each way).
DELAYED_CAP, DELAY_S = 20.0, 0.0005


@pytest.fixture()
def delayed(local_sshd: None, tmp_path: Path) -> Iterator[DelayedTestbed]:
    reason = netns_supported()
    if reason:
        pytest.fail(f"cannot create the namespace testbed: {reason}")
    bed = DelayedTestbed(2, tmp_path, DELAY_S, caps=[LinkCap(DELAYED_CAP), None])
    try:
        bed.up()
        yield bed
    finally:
        bed.down()


def test_a_cap_behind_the_delay_router(delayed: DelayedTestbed) -> None:
    sender, receiver = delayed.hosts
    assert egress_cap_mbit_s(sender.name, f"{sender.name}t") == pytest.approx(DELAYED_CAP, rel=1e-3)
    assert _iperf3(sender, receiver) == pytest.approx(DELAYED_CAP, rel=0.05)


def test_tbf_arguments() -> None:
    # 101 Mbit/s of goodput is 101 x 1,514 / 1,448 Mbit/s of frames on the wire.
    assert tbf_args(101) == ["tbf", "rate", "105603591bit", "burst", "66002b", "latency", "50ms"]
    # 5 ms at 1 Gbit/s of goodput (1.0456 Gbit/s of frames) is 653,487 B.
    assert tbf_args(1000)[4] == "653487b"
    with pytest.raises(ValueError, match="must be positive"):
        tbf_args(0)
