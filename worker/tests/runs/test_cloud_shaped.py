"""Item 5 of issue 39, the proof: on a testbed shaped like the reports' Azure VMs (a Basic A1
server at 101 Mbit/s, a Basic A2 client at 201 Mbit/s; worker/tests/utils/cloud_shaped.py)
the network is the bottleneck, as it was there: gets/s of 4 KB values within 5 % of the
server link's bound (3,055) and of the reports' 2,940, sets/s within 5 % of the client
link's (6,078), each link named saturated by the product's rule (SATURATED_SHARE of its cap:
the throughput claims already hold the load within 5 % of the links' bounds; the link's own
share is counted over the monitor's samples, 94.99 % once at CPU saturation, 2026-11-29).

Within 5 % of a physical cap is a correctness claim, not a timing threshold. Steady load is
needed (the links must fill): 12 s runs, the window 3..11 s. Needs root, iproute2 and tbf;
traffic stays inside the namespaces the test creates."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from backend.domain.saturation import SATURATED_SHARE
from worker.tests.drivers.netns import NetnsTestbed, netns_supported
from worker.tests.utils.cloud_shaped import (
    REPORTS_GETS_PER_S,
    outcomes,
    register,
    run_experiments,
    shaped_testbed,
)

pytestmark = pytest.mark.integration
RUN_TIME_S = 12


@pytest.fixture()
def bed(local_sshd: None, tmp_path: Path) -> Iterator[NetnsTestbed]:
    reason = netns_supported()
    if reason:
        pytest.fail(f"cannot create the namespace testbed: {reason}")
    testbed = shaped_testbed(tmp_path)
    try:
        testbed.up()
        yield testbed
    finally:
        testbed.down()


def test_the_links_bound_gets_and_sets_as_on_azure(db: Session, bed: NetnsTestbed) -> None:
    exps = run_experiments(db, register(db, bed), RUN_TIME_S)
    by_ratio = {o.ratio: o for o in outcomes(db, exps)}
    gets, sets = by_ratio["0:1"], by_ratio["1:0"]
    print(gets, sets, sep="\n")  # the figures, in -s runs and failure reports

    assert gets.limiting_role == "server" and gets.bandwidth_source == "link cap (measured)"
    assert gets.bound_per_s == pytest.approx(3_055, rel=0.002)
    assert gets.throughput_per_s == pytest.approx(gets.bound_per_s, rel=0.05)
    assert gets.throughput_per_s == pytest.approx(REPORTS_GETS_PER_S, rel=0.05)
    assert gets.link_host_role == "server" and gets.link_utilization >= SATURATED_SHARE
    assert gets.summary.startswith("server link of ") and "saturated" in gets.summary

    assert sets.limiting_role == "client"
    assert sets.bound_per_s == pytest.approx(6_078, rel=0.002)
    assert sets.throughput_per_s == pytest.approx(sets.bound_per_s, rel=0.05)
    assert sets.link_host_role == "client" and sets.link_utilization >= SATURATED_SHARE
    assert sets.summary.startswith("client link of ") and "saturated" in sets.summary
