"""The breakdown's network time split into the measured round trip and the rest; the model's
network delay taken from the measured round trip."""

from typing import Any

import pytest

from backend.analysis.breakdown import breakdown
from backend.analysis.errors import AnalysisError
from backend.domain.round_trip import bandwidths_mbit_s, leg_rtt_us, rest_label
from backend.modelfit.network import network_delay


def test_network_split_into_round_trip_and_rest() -> None:
    b = breakdown(1000.0, 450.0, 100.0, 200.0, round_trip_us=60.0)
    assert b.network_us == 550.0
    assert (b.round_trip_us, b.rest_us) == (60.0, 490.0)
    unmeasured = breakdown(1000.0, 450.0, 100.0, 200.0)
    assert (unmeasured.round_trip_us, unmeasured.rest_us) == (None, None)


def test_negative_round_trip_is_refused() -> None:
    with pytest.raises(AnalysisError) as err:
        breakdown(1000.0, 450.0, 100.0, 200.0, round_trip_us=-1.0)
    assert err.value.field == "round_trip_us"


def test_rest_is_named_for_the_testbed() -> None:
    assert "load generator's CPU" in rest_label("local", True)
    assert "shared cores" in rest_label("remote", True)
    assert "TCP stacks" in rest_label("azure", False)


def test_round_trips_read_from_probes() -> None:
    def path(src: str, dst: str, rtt: float | None) -> dict[str, Any]:
        return {"from_role": src, "to_role": dst, "rtt_us": rtt}

    probes: list[dict[str, Any] | None] = [
        {"paths": [path("client", "middleware", 2000.0), path("middleware", "server", 90.0)]},
        {"paths": [path("client", "middleware", 2100.0), path("client", "middleware", None)]},
        None,
        {"paths": [path("client", "middleware", 1900.0)]},
    ]
    assert leg_rtt_us(probes, "client", "middleware") == 2000.0
    assert leg_rtt_us(probes, "middleware", "server") == 90.0
    assert leg_rtt_us([], "client", "middleware") is None
    bw = {"bandwidth": [{"role": "client", "mbit_s": 201.0}, {"role": "client", "mbit_s": 190.0}]}
    assert bandwidths_mbit_s(bw) == {"client": 190.0}


def test_model_delay_is_half_the_measured_round_trip() -> None:
    delay, source = network_delay(2000.0, 5000.0, 1000.0, "at N = 2")
    assert delay == pytest.approx(1e-3)
    assert "measured client -> middleware TCP round trip" in source
    fallback, why = network_delay(None, 5000.0, 1000.0, "at N = 2")
    assert fallback == pytest.approx(2e-3)
    assert "no round trip measured" in why
