"""Combining stored per-source summaries into per-run metrics, and grid helpers."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.experiment import (
    SourceRow,
    by_configuration,
    combine_sources,
    total_clients,
    write_fraction,
)


def _row(run: int, source: str, tp: float, rt: float, **kw: float | None) -> SourceRow:
    base: dict[str, float | None] = dict(
        keys_per_s=None,
        p50_us=None,
        p90_us=None,
        p99_us=None,
        queue_time_us=None,
        server_time_us=None,
        processing_time_us=None,
        queue_length=None,
    )
    base.update(kw)
    return SourceRow(run, 7, run, source, tp, response_time_us=rt, **base)


def test_sources_sum_throughput_and_weight_times() -> None:
    runs = combine_sources(
        [
            _row(1, "client:0", 100.0, 1000.0, keys_per_s=300.0, p50_us=900.0),
            _row(1, "client:1", 300.0, 2000.0, keys_per_s=900.0, p50_us=1900.0),
            _row(2, "middleware:0", 50.0, 10.0, queue_length=2.0),
            _row(2, "middleware:1", 50.0, 30.0, queue_length=3.0),
        ]
    )
    one, two = runs
    assert one.values["throughput_per_s"] == 400.0
    assert one.values["response_time_us"] == pytest.approx(1750.0)
    assert one.values["keys_per_s"] == 1200.0
    assert one.values["p50_us"] == pytest.approx(0.25 * 900 + 0.75 * 1900)
    assert one.values["queue_time_us"] is None
    assert two.values["queue_length"] == 5.0 and two.values["keys_per_s"] is None
    assert by_configuration(runs, "response_time_us") == {7: [1750.0, 20.0]}


def test_total_clients_and_write_fraction() -> None:
    params = {
        "client_machines": 3,
        "instances_per_machine": 2,
        "threads_per_instance": 1,
        "clients_per_thread": 32,
    }
    assert total_clients(params) == 192
    assert write_fraction("1:9") == pytest.approx(0.1)
    with pytest.raises(AnalysisError) as err:
        write_fraction("x")
    assert err.value.field == "ratio"
