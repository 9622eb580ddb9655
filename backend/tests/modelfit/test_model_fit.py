"""Models filled from measurements: known service times give the published predictions."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.mva.exact import solve_mva
from backend.analysis.network_builder import build_network
from backend.modelfit.fit import MeasuredConfig, Stat, measured_utilization
from backend.modelfit.network import estimate_inputs, network_groups
from backend.modelfit.queues import queue_model_rows

PARAMS = {"workers": 8, "middlewares": 2, "servers": 1, "replication": 1, "ratio": "0:1"}
S_WORKER_US = 1e6 / 421.93  # DOMAIN.md's M/M/m check: mu = 421.93/s per server, m = 16


def _config(
    i: int, clients: int, x: float, mw: dict[str, float], client_r_us: float, **params: object
) -> MeasuredConfig:
    return MeasuredConfig(
        configuration_id=100 + i,
        index=i,
        values={"clients_per_thread": clients, **{k: v for k, v in params.items()}},
        params={**PARAMS, **params},
        clients=clients,
        client={
            "throughput_per_s": Stat(x, 0.01 * x, 3),
            "response_time_us": Stat(client_r_us, 10.0, 3),
        },
        middleware={
            "throughput_per_s": Stat(x, None, 3),
            **{k: Stat(v, None, 3) for k, v in mw.items()},
        },
    )


def _mw(wait_us: float, queue_length: float) -> dict[str, float]:
    return {
        "response_time_us": S_WORKER_US + wait_us,
        "queue_time_us": wait_us,
        "queue_length": queue_length,
    }


def test_mmm_from_measured_times_reproduces_the_published_check() -> None:
    # Measured: lambda = 5,955.95/s, worker time S = 1/421.93 s, 2 middlewares x 8 workers.
    rows = queue_model_rows([_config(0, 96, 5955.95, _mw(670.0, 4.0), 4000.0)])
    mmm = rows[0].mmm
    assert mmm is not None and mmm.stable and mmm.servers == 16
    assert round(mmm.utilization, 2) == 0.88
    assert round(mmm.queue_length.predicted or 0, 2) == 3.98
    assert round((mmm.waiting_time_s.predicted or 0) * 1e3, 2) == 0.67
    assert round((mmm.response_time_s.predicted or 0) * 1e3, 2) == 3.04
    # Relative errors against what the middleware measured.
    predicted = mmm.queue_length.predicted or 0.0
    assert mmm.queue_length.error_percent == pytest.approx(100 * (predicted - 4.0) / 4.0)
    assert rows[0].service_time_s == pytest.approx(1 / 421.93)
    # M/M/1 treats the layer as one server of rate m mu = 6,750.88/s.
    assert rows[0].mm1 is not None and rows[0].mm1.service_rate_per_s == pytest.approx(16 * 421.93)


def test_mmm_low_load_check_and_max_throughput_convention() -> None:
    low = _config(0, 12, 2840.73, _mw(5.0, 0.01), 2500.0)
    high = _config(1, 96, 5955.95, _mw(670.0, 4.0), 4000.0)
    rows = queue_model_rows([low, high])
    assert round(rows[0].mmm.utilization, 2) == 0.42  # type: ignore[union-attr]
    assert round(rows[0].mmm.response_time_s.predicted * 1e3, 2) == 2.37  # type: ignore[union-attr,operator]
    peak = queue_model_rows([low, high], "max_throughput")
    # The group's largest throughput is the layer's capacity: the peak itself is unstable.
    assert peak[1].mmm is not None and not peak[1].mmm.stable
    assert peak[1].mmm.response_time_s.predicted is None
    assert peak[1].note is not None and "unstable" in peak[1].note
    assert peak[0].mmm.service_rate_per_s == pytest.approx(5955.95 / 16)  # type: ignore[union-attr]


# DOMAIN.md's Octave check, one middleware serving gets: delay 0.3 ms each way, net thread
# 0.08661008 ms, 64 workers of 1.094205 ms, memcached 1/2940 s; X(24) = 2,940.00/s.
OCTAVE = {"workers": 64, "middlewares": 1, "servers": 1}
NET_THREAD_US = 0.08661008e3
WORKER_US = 1.094205e3


def _octave_group() -> list[MeasuredConfig]:
    # Lowest load N = 6 at X = 2,000/s: R = N / X (Z = 0); middleware times give the services.
    r6 = 6 / 2000 * 1e6
    mw6 = r6 - 600.0  # client response - 2 x 0.3 ms of network
    low_mw = {
        "response_time_us": mw6,
        "queue_time_us": mw6 - WORKER_US,
        "server_time_us": WORKER_US - NET_THREAD_US,
        "processing_time_us": NET_THREAD_US,
    }
    high_mw = {"response_time_us": 7000.0, "queue_time_us": 3000.0, "server_time_us": 3500.0}
    return [
        _config(0, 6, 2000.0, low_mw, r6, **OCTAVE),
        _config(1, 24, 2940.0, high_mw, 24 / 2940 * 1e6, **OCTAVE),
    ]


def test_network_inputs_from_known_times_give_the_octave_prediction() -> None:
    system, estimates = estimate_inputs(
        _octave_group(), replication=1, write_fraction=0.0, server_utilization=1.0
    )
    assert system.network_delay_s == pytest.approx(0.3e-3)
    assert system.net_thread_service_s == pytest.approx(0.08661008e-3)
    assert system.worker_service_s == pytest.approx(1.094205e-3)
    assert system.server_service_s == pytest.approx(1 / 2940)  # utilization law, U = 1
    assert system.think_time_s == pytest.approx(0.0, abs=1e-12)
    sources = {e.parameter: e.source for e in estimates}
    assert sources["server_service_s"].startswith("utilization law")
    assert "N = 6" in sources["worker_service_s"]
    res = solve_mva(build_network(system), 24, system.think_time_s)
    assert round(float(res.throughput_per_s[-1]), 2) == 2940.00
    memcached = next(c for c in res.stations if c.station.name == "memcached_0")
    assert round(float(memcached.queue_length[-1]), 2) == 18.68


def test_network_server_time_without_utilization_is_labelled_an_upper_bound() -> None:
    system, estimates = estimate_inputs(_octave_group(), replication=1, write_fraction=0.0)
    assert system.server_service_s == pytest.approx((WORKER_US - NET_THREAD_US) / 1e6)
    source = {e.parameter: e.source for e in estimates}["server_service_s"]
    assert "upper bound" in source


def test_network_groups_split_by_everything_but_clients() -> None:
    group = _octave_group()
    other = [
        _config(
            c.index + 2,
            c.clients,
            c.client["throughput_per_s"].mean,
            {k: s.mean for k, s in c.middleware.items() if k != "throughput_per_s"},
            c.client["response_time_us"].mean,
            workers=32,
            middlewares=1,
            servers=1,
        )
        for c in group
    ]
    groups = network_groups(
        group + other, replication_of=lambda p: 1, write_fraction_of=lambda p: 0.0
    )
    assert sorted(g.system.workers for g in groups) == [32, 64]
    assert all([p.clients for p in g.points] == [6, 24] for g in groups)
    assert all(g.points[0].throughput_std_per_s == pytest.approx(20.0) for g in groups)


def test_no_middleware_times_is_an_analysis_error() -> None:
    bare = MeasuredConfig(1, 0, {}, {**PARAMS}, 6, {"throughput_per_s": Stat(10, None, 1)}, {})
    with pytest.raises(AnalysisError) as err:
        estimate_inputs([bare], 1, 0.0)
    assert err.value.field == "experiment"


def test_demand_is_per_client_request_over_all_its_visits() -> None:
    # Each client request reaches the workers twice (X_mw = 2 X): busy = X_mw S, D = 2 S.
    c = _config(0, 48, 1000.0, _mw(0.0, 0.0), 3000.0)
    doubled = MeasuredConfig(
        **{
            **c.__dict__,
            "middleware": {**c.middleware, "throughput_per_s": Stat(2000.0, None, 3)},
        }
    )
    u = measured_utilization(doubled)
    assert u is not None
    assert u.busy == pytest.approx(2000.0 * S_WORKER_US / 1e6)
    assert u.utilization == pytest.approx(u.busy / 16)
    assert u.demand_s == pytest.approx(2 * S_WORKER_US / 1e6)
    assert u.note is None
    # More worker time than m workers have: shown, and flagged as inconsistent.
    over = MeasuredConfig(
        **{**c.__dict__, "middleware": {**c.middleware, "throughput_per_s": Stat(1e4, None, 3)}}
    )
    flagged = measured_utilization(over)
    assert flagged is not None and flagged.utilization > 1
    assert flagged.note is not None and "> 1" in flagged.note
    # No queue time reported: no busy time, no row (never a made-up utilization).
    bare = _config(1, 48, 1000.0, {"response_time_us": 900.0}, 3000.0)
    assert measured_utilization(bare) is None


def test_queue_models_flag_what_does_not_fit() -> None:
    # The published check fits: E[r] = 3.04 ms modelled and measured, rho = 0.88 < 1.
    rows = queue_model_rows([_config(0, 96, 5955.95, _mw(670.0, 4.0), 4000.0)])
    mmm = rows[0].mmm
    assert mmm is not None and mmm.capacity.verdict == "fits"
    assert mmm.response_time_s.fit is not None and mmm.response_time_s.fit.verdict == "fits"
    # More worker time than 16 workers have (X S = 8,000 x 2.37 ms = 19 busy): the measured
    # arrival rate lies above the layer's capacity m mu, so the model has no steady state.
    over = queue_model_rows([_config(1, 96, 8000.0, _mw(670.0, 4.0), 4000.0)])[0].mmm
    assert over is not None and not over.stable
    assert over.capacity.verdict == "beyond_bound" and over.capacity.bound_side == "upper"
    assert over.capacity.bound == pytest.approx(16 * 421.93)
    assert over.capacity.message is not None and "M/M/m at N = 96" in over.capacity.message
    # Unstable: no model value, so the response time is not judged against one.
    assert over.response_time_s.fit is not None and over.response_time_s.fit.model is None
