"""Histogram and time-series figures built from given data (no database): the zoom to where
the requests are, percentile labels, and per-instance traces."""

from backend.figures.distributions import histogram, time_series
from backend.figures.params import FigureQuery
from backend.schemas.analysis.statistics import HistogramPercentilePublic, HistogramPublic
from backend.schemas.series import CombinedSeriesPublic, InstanceSeriesPublic, RunSeriesPublic


def _pct(q: float, value: float, in_overflow: bool = False) -> HistogramPercentilePublic:
    return HistogramPercentilePublic(q=q, value_us=value, in_overflow=in_overflow)


def test_histogram_zooms_to_the_requests_and_counts_the_sparse_tail() -> None:
    upper = [100.0 * (i + 1) for i in range(1000)]
    counts = [1000.0 if u <= 2300 else 0.0 for u in upper]
    counts[900] = 1.0  # one request near 90 ms
    hist = HistogramPublic(
        upper_bounds_us=upper,
        counts=counts,
        overflow=2,
        total=sum(counts) + 2,
        percentiles=[_pct(99, 2290)],
    )
    fig = histogram((hist, {"workers": 8}), FigureQuery())
    lo, hi = fig.layout.xaxis.range
    assert lo == 0 and hi < 2500
    assert fig.layout.meta["beyond"] == 1 + 2  # the slow request and the overflow
    assert "8 worker threads" in fig.layout.meta["caption"]


def test_histogram_labels_equal_percentiles_once_and_overflow_as_a_bound() -> None:
    hist = HistogramPublic(
        upper_bounds_us=[100.0, 200.0, 400.0],
        counts=[10.0, 30.0, 20.0],
        overflow=5,
        total=65,
        percentiles=[_pct(90, 175), _pct(99, 175), _pct(99.9, 400, in_overflow=True)],
    )
    fig = histogram((hist, {}), FigureQuery())
    assert [a.text for a in fig.layout.annotations] == ["p90/p99", "≥p99.9"]
    assert [s.x0 for s in fig.layout.shapes] == [175, 175, 400]  # a line per percentile
    bars = fig.data[0]
    assert list(bars.x) == [50, 150, 300] and list(bars.width) == [100, 100, 200]


def test_time_series_adds_each_instance_hidden_at_its_offset() -> None:
    def inst(source: str, offset: float) -> InstanceSeriesPublic:
        return InstanceSeriesPublic(
            source=source,
            offset_s=offset,
            throughput=[100.0, 400.0, 410.0, 50.0],
            response_time_us=[900.0, 1000.0, 1100.0, None],
            queue_time_us=None,
            server_time_us=None,
            queue_length=None,
        )

    data = RunSeriesPublic(
        run_id=7,
        experiment_id=1,
        configuration_id=3,
        repetition=1,
        source="client",
        request_type="all",
        start_unix=1.7e9,
        window_start_s=1,
        window_end_s=3,
        window_stored=True,
        units={},
        combined=CombinedSeriesPublic(
            time_s=[0, 1, 2, 3], throughput=[100, 400, 410, 50], response_time_us=[900, 1, 1, None]
        ),
        instances=[inst("client:0", 0), inst("client:1", 2)],
    )
    fig = time_series(data, FigureQuery())
    assert len(fig.data) == 6
    last = fig.data[5]
    assert last.name == "client instance 1: response time" and list(last.x) == [2, 3, 4, 5]
    assert last.visible == "legendonly" and last.yaxis == "y2"
    assert [t.visible for t in fig.data[:2]] == [None, None]
    alone = time_series(data.model_copy(update={"instances": data.instances[:1]}), FigureQuery())
    assert len(alone.data) == 2


def test_percentile_bounds_are_open_markers_and_text() -> None:
    from backend.figures.results import percentiles
    from backend.schemas.analysis.experiments import (
        ConfigPercentilesPublic,
        ExperimentPercentilesPublic,
    )

    def row(cpt: int, p99: HistogramPercentilePublic) -> ConfigPercentilesPublic:
        return ConfigPercentilesPublic(
            configuration_id=cpt,
            index=cpt,
            values={"clients_per_thread": cpt},
            total=100,
            percentiles=[_pct(50, 150), p99],
        )

    data = ExperimentPercentilesPublic(
        metric="client",
        source="client",
        percentiles=[50, 99],
        span="whole_run",
        span_label="whole run, incl. warm-up",
        data=[row(1, _pct(99, 400)), row(4, _pct(99, 50000, in_overflow=True))],
        units={},
    )
    fig = percentiles(data, FigureQuery())
    p50, p99 = fig.data
    assert p50.text is None  # every p50 is a value
    assert list(p99.text) == ["", "≥"]
    assert list(p99.marker.symbol) == ["circle", "circle-open"]
    assert fig.layout.meta["span"] == "whole_run"
    assert "open markers are bounds" in fig.layout.meta["caption"]
