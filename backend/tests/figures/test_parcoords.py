"""The screen ticks of the parallel coordinates' axes: Plotly snaps a brush to tick values
(an axis with tickvals is ordinal), so ticks decide what a drag can select."""

from backend.figures.parcoords import screen_ticks
from backend.figures.parcoords_axes import (
    SCREEN_TICKFORMAT,
    DrawnAxis,
    nice_span,
    nice_ticks,
    tick_text,
)


def _axis(key: str, values: list[float], ticks: list[float]) -> DrawnAxis:
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    text = [tick_text(t, step) for t in ticks]
    return DrawnAxis(key, key, values, (min(values), max(values)), ticks, text, [])


def test_axes_ticked_at_their_levels_keep_the_ticks() -> None:
    dim = screen_ticks(_axis("workers", [8.0, 16.0, 8.0], [8.0, 16.0]))
    assert dim == {"tickvals": [8.0, 16.0], "ticktext": ["8", "16"]}
    experiments = DrawnAxis("experiment", "Experiment", [0, 1, 1], (0, 1), [0, 1], ["a", "b"], [])
    assert screen_ticks(experiments) == {"tickvals": [0, 1], "ticktext": ["a", "b"]}


def test_round_ticks_between_many_levels_leave_the_brush_unsnapped() -> None:
    # 1..40 ticked 10, 20, 30, 40: as tickvals, a drag from 20.5 up would snap to 28..40.
    workers = [float(w) for w in range(1, 41)]
    dim = screen_ticks(_axis("workers", workers, nice_ticks(1, 40)))
    assert "tickvals" not in dim and dim["tickformat"] == ",~r"


def test_metric_axes_are_unsnapped_and_ticked_with_thousands_separators() -> None:
    """One number format on every axis, in both drawings: Plotly's own ticks on the screen
    and tick_text's in files write 5,000 and 25,000 (not 5,000 beside 25k)."""
    tps = [1234.5 * i for i in range(1, 30)]
    big = screen_ticks(_axis("throughput_per_s", tps, nice_ticks(min(tps), max(tps))))
    assert "tickvals" not in big and big["tickformat"] == ",~r"
    assert big["tickformat"] == SCREEN_TICKFORMAT
    narrow = screen_ticks(_axis("response_time_us", [15_000.0, 15_002.0], [15_000.0, 15_001.0]))
    assert "tickvals" not in narrow and narrow["tickformat"] == ",~r"
    assert [tick_text(t, 5000) for t in (0, 5000, 25_000)] == ["0", "5,000", "25,000"]
    assert [tick_text(t, 500) for t in (500, 1500)] == ["500", "1,500"]
    assert [tick_text(t, 0.05) for t in (0.05, 1.5)] == ["0.05", "1.50"]
    assert tick_text(15_001, 1) == "15,001"


def test_metric_axes_end_on_round_ticks() -> None:
    # The ends are what Plotly labels on the screen: round numbers around the data, not its
    # extremes (533.333 and 10.0007k before).
    assert nice_span(533.333, 10_000.7) == (0.0, 12_000.0)
    assert nice_span(15_000.0, 15_002.0) == (15_000.0, 15_002.0)
    assert nice_span(0.0123, 0.0871) == (0.0, 0.1)
    lo, hi = nice_span(1234.5, 35_800.5)
    assert lo <= 1234.5 and hi >= 35_800.5 and nice_ticks(lo, hi)[0] == lo
    assert nice_ticks(lo, hi)[-1] == hi
