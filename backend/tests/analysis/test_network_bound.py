"""The network bound per role (DOMAIN.md section 7: iperf client 201, middleware 802, server
101 Mbit/s; 4,131 B set requests, 8 B set replies, 19 B get requests, 4,132 B get replies),
and what multi-gets of K keys, sharded or not, make each role send (counted on the messages
themselves, backend/tests/utils/memcached_text.py)."""

import math

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.network_bound import (
    configuration_bounds,
    design_sizes,
    requests_per_s,
    role_bound,
    sent_bytes,
)
from backend.analysis.request_mix import GetShape, RequestMix, single_key_gets
from backend.analysis.wire_bytes import MessageSizes
from backend.tests.utils.memcached_text import get_line, get_reply, memtier_key, shards, value

REPORT = MessageSizes(set_request_b=4131, set_reply_b=8, get_request_b=19, get_reply_b=4132)
SETS, GETS = single_key_gets(1.0), single_key_gets(0.0)


def test_report_table_server_gets() -> None:
    server = role_bound("server", 1, 101.0, REPORT, GETS, replication=1)
    assert math.floor(server.gets_per_s_per_host) == 3055


def test_report_table_client_sets() -> None:
    # The report's 6,078 sets/s is 4,131 B at its unrounded iperf figure (200.87 Mbit/s);
    # the rounded 201 Mbit/s DOMAIN.md quotes gives 6,082, 0.07 % more.
    client = role_bound("client", 1, 201.0, REPORT, SETS, replication=1)
    assert math.floor(client.sets_per_s_per_host) == 6082
    assert client.sets_per_s_per_host == pytest.approx(6078, rel=1e-3)
    assert math.floor(requests_per_s(200.87, 4131)) == 6078


def test_system_bound_spreads_over_hosts() -> None:
    # Three client VMs writing: three times one VM's sets.
    clients = role_bound("client", 3, 201.0, REPORT, SETS, replication=1)
    assert clients.bound_per_s == pytest.approx(3 * clients.sets_per_s_per_host)
    # Gets over 3 servers: each get's reply leaves one server, so 3 x 3,055.
    servers = role_bound("server", 3, 101.0, REPORT, GETS, replication=3)
    assert servers.bound_per_s == pytest.approx(3 * 101e6 / 8 / 4132)
    # A middleware forwards each set to R = 3 servers and answers its client.
    mw = role_bound("middleware", 1, 802.0, REPORT, SETS, replication=3)
    assert mw.bytes_per_request == 8 + 3 * 4131


def _keys(k: int) -> list[str]:
    return [memtier_key(10_000 + 7 * i) for i in range(k)]  # 13 B, as memtier-99999


@pytest.mark.parametrize("k", [1, 3, 9])
def test_non_sharded_multiget_per_role(k: int) -> None:
    # The client sends one line of K keys, the middleware forwards it to one server and the
    # server's reply to the client; the server sends K blocks and END.
    sizes = design_sizes(4096, 99_999)
    keys, data = _keys(k), value(4096)
    line, reply = len(get_line(keys)), len(get_reply(keys, data))
    mix = RequestMix(0.0, (GetShape(k),))
    assert sent_bytes("client", sizes, 1, mix).per_get_b == line
    assert sent_bytes("middleware", sizes, 1, mix).per_get_b == line + reply
    assert sent_bytes("server", sizes, 1, mix).per_get_b == reply
    server = role_bound("server", 1, 101.0, sizes, mix, 1)
    assert server.gets_per_s_per_host == pytest.approx(101e6 / 8 / reply)


@pytest.mark.parametrize(("k", "servers"), [(3, 3), (6, 3), (9, 5)])
def test_sharded_multiget_per_role(k: int, servers: int) -> None:
    # One real split: the middleware sends each server asked its own line and the client one
    # merged reply; the servers send their parts, each with END.
    sizes = design_sizes(4096, 99_999)
    keys, data = _keys(k), value(4096)
    parts = shards(keys, servers)
    asked = len(parts)
    mix = RequestMix(0.0, (GetShape(k, float(asked)),))
    lines = sum(len(get_line(p)) for p in parts.values())
    replies = sum(len(get_reply(p, data)) for p in parts.values())
    assert sent_bytes("client", sizes, 1, mix).per_get_b == len(get_line(keys))
    assert sent_bytes("middleware", sizes, 1, mix).per_get_b == lines + len(get_reply(keys, data))
    assert sent_bytes("server", sizes, 1, mix).per_get_b == replies
    # Per server host: what it sends for its part of a get it takes part in.
    server = role_bound("server", servers, 101.0, sizes, mix, 1)
    assert server.gets_per_s_per_host == pytest.approx(101e6 / 8 / (replies / asked))
    assert server.bound_per_s == pytest.approx(servers * 101e6 / 8 / replies)


def test_mix_weights_requests() -> None:
    # 1:9 with K = 6: a set, a 6-key and a 3-key get per cycle, a third of the requests sets.
    sizes = design_sizes(4096, 99_999)
    mix = RequestMix(1 / 3, (GetShape(6), GetShape(3)))
    data = value(4096)
    client = role_bound("client", 1, 201.0, sizes, mix, 1)
    cycle = sizes.set_request_b + len(get_line(_keys(6))) + len(get_line(_keys(3)))
    assert client.bytes_per_request == pytest.approx(cycle / 3)
    server = role_bound("server", 1, 101.0, sizes, mix, 1)
    replies = len(get_reply(_keys(6), data)) + len(get_reply(_keys(3), data))
    assert server.bytes_per_request == pytest.approx((sizes.set_reply_b + replies) / 3)


def _design(k: int, sharded: bool, ratio: str = "0:9") -> dict[str, object]:
    return {
        "ratio": ratio,
        "multiget_size": k,
        "sharded": sharded,
        "servers": 3,
        "replication": "all",
        "middlewares": 1,
        "client_machines": 1,
        "value_size": 4096,
        "key_maximum": 10_000,
    }


def test_configuration_bounds_follow_the_design() -> None:
    bandwidth = {"client": 201.0, "middleware": 802.0, "server": 101.0}
    hosts = {"client": 1, "middleware": 1, "server": 3}

    def bounds(k: int, sharded: bool) -> dict[str, float]:
        rows = configuration_bounds(_design(k, sharded), bandwidth, hosts)
        return {r.role: r.bound_per_s for r in rows}

    one, plain, sharded = bounds(1, False), bounds(3, False), bounds(3, True)
    # A 3-key get carries three blocks: about a third of the requests, as many keys.
    assert plain["server"] == pytest.approx(one["server"] / 3, rel=1e-3)
    # Sharding adds a line and an END per extra server asked: fewer requests, never more.
    assert sharded["server"] < plain["server"]
    assert sharded["middleware"] < plain["middleware"]
    assert sharded["client"] == plain["client"]
    # K = 1 is unchanged by sharding (a one-key get goes to one server).
    assert bounds(1, True) == one


@pytest.mark.parametrize(
    ("role", "bandwidth", "field"),
    [("router", 100.0, "role"), ("client", 0.0, "bandwidth_mbit_s")],
)
def test_bad_input_names_the_field(role: str, bandwidth: float, field: str) -> None:
    with pytest.raises(AnalysisError) as err:
        role_bound(role, 1, bandwidth, REPORT, single_key_gets(0.5), 1)
    assert err.value.field == field
