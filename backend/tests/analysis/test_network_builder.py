"""The DOMAIN.md network built from a configuration, and model-vs-measurement rows."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mva.network import StationKind
from backend.analysis.network_builder import (
    SystemConfig,
    build_network,
    model_vs_measurement,
    service_time_from_throughput,
)

ONE_MW = SystemConfig(
    servers=1,
    middlewares=1,
    workers=64,
    network_delay_s=0.3e-3,
    net_thread_service_s=0.08661008e-3,
    worker_service_s=1.094205e-3,
    server_service_s=service_time_from_throughput(2940),
)


def test_builder_reproduces_the_octave_network() -> None:
    st = build_network(ONE_MW)
    assert [s.kind for s in st] == [
        StationKind.DELAY,
        StationKind.QUEUE,
        StationKind.MULTI,
        StationKind.QUEUE,
        StationKind.DELAY,
    ]
    _, rows = model_vs_measurement(ONE_MW, (24,), (2940.0,), (24 / 2940.0,))
    assert round(rows[0].model_throughput_per_s, 2) == 2940.00
    assert abs(rows[0].throughput_deviation_percent) < 1e-3


def test_visit_ratios_follow_hashing_and_replication() -> None:
    cfg = SystemConfig(
        servers=3,
        middlewares=2,
        workers=8,
        network_delay_s=0.0,
        net_thread_service_s=1e-5,
        worker_service_s=1e-3,
        server_service_s=1e-4,
        write_fraction=0.1,
        replication=3,
    )
    st = {s.name: s for s in build_network(cfg)}
    assert st["workers_1"].visits == pytest.approx(0.5)
    assert st["workers_0"].servers == 8
    assert st["memcached_2"].visits == pytest.approx((0.9 + 0.1 * 3) / 3)


def test_model_rows_compare_each_client_count() -> None:
    _, rows = model_vs_measurement(ONE_MW, (1, 6, 24), (900.0, 2500.0, 2900.0))
    assert [r.clients for r in rows] == [1, 6, 24]
    assert rows[0].model_throughput_per_s < rows[2].model_throughput_per_s
    assert all(r.response_deviation_percent is None for r in rows)


def test_builder_rejects_bad_replication() -> None:
    bad = SystemConfig(
        servers=2,
        middlewares=1,
        workers=8,
        network_delay_s=0.0,
        net_thread_service_s=0.0,
        worker_service_s=1e-3,
        server_service_s=1e-4,
        replication=3,
    )
    with pytest.raises(AnalysisError) as err:
        build_network(bad)
    assert err.value.field == "replication"
