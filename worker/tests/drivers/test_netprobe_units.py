"""Pure parts of the network probe: parsing its outputs, and which legs a run and a testbed
measure."""

import json

import pytest

from worker.drivers.errors import DriverError
from worker.drivers.host import HostSpec
from worker.drivers.netprobe import parse_iperf_json, parse_rtt_samples
from worker.runs import network
from worker.runs.testbed import TestbedLayout
from worker.tests.runs.test_plan import _plan

C = HostSpec("c", "10.0.0.3", "u", 22, "/k")
M = HostSpec("m", "10.0.0.4", "u", 2222, "/k")
S1 = HostSpec("s1", "10.0.0.5", "u", 22, "/k")
S2 = HostSpec("s2", "10.0.0.6", "u", 22, "/k")


def test_rtt_samples_skip_timeouts() -> None:
    assert parse_rtt_samples("2001.5\ntimeout\n1999.0\n") == [2001.5, 1999.0]


def test_iperf_json_gives_the_receivers_rate() -> None:
    doc = {"end": {"sum_received": {"bits_per_second": 201.4e6}}}
    assert parse_iperf_json(json.dumps(doc)) == pytest.approx(201.4)
    with pytest.raises(DriverError, match="unable to connect"):
        parse_iperf_json(json.dumps({"error": "unable to connect to server"}))
    with pytest.raises(DriverError, match="printed no result"):
        parse_iperf_json("")


def test_run_legs_follow_the_plan_once_each() -> None:
    plan = _plan(servers=2, middlewares=1, client_machines=2, instances_per_machine=2)
    legs = [leg for _, leg in network.run_legs(plan)]
    mw = plan.middlewares[0]
    # Two client machines (a, b), each once to the middleware's port; the middleware to each
    # server's port.
    assert [(x.from_role, x.from_host, x.to_role, x.port) for x in legs] == [
        ("client", "a", "middleware", mw.port),
        ("client", "b", "middleware", mw.port),
        *[("middleware", mw.host.name, "server", s.port) for s in plan.servers],
    ]


def test_testbed_legs_use_the_ssh_ports() -> None:
    layout = TestbedLayout(1, "t", (S1, S2), (M,), (C,), None, "/w")
    legs = [(spec.name, leg.to_host, leg.port) for spec, leg in network.testbed_legs(layout)]
    assert legs == [("c", "m", 2222), ("m", "s1", 22), ("m", "s2", 22)]
    bare = TestbedLayout(1, "t", (S1,), (), (C,), None, "/w")
    assert [(leg.from_role, leg.to_role) for _, leg in network.testbed_legs(bare)] == [
        ("client", "server")
    ]
