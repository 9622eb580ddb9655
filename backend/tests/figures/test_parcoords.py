"""The screen ticks of the parallel coordinates' axes: Plotly snaps a brush to tick values
(an axis with tickvals is ordinal), so ticks decide what a drag can select."""

from backend.figures.parcoords import screen_ticks
from backend.figures.parcoords_axes import DrawnAxis, nice_span, nice_ticks, tick_text


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


def test_metric_axes_are_unsnapped_and_ticked_in_k_as_tick_text_does() -> None:
    tps = [1234.5 * i for i in range(1, 30)]
    big = screen_ticks(_axis("throughput_per_s", tps, nice_ticks(min(tps), max(tps))))
    assert "tickvals" not in big and big["tickformat"] == "~s"
    # Large values but a narrow span: full digits, as tick_text writes them.
    narrow = screen_ticks(_axis("response_time_us", [15_000.0, 15_002.0], [15_000.0, 15_001.0]))
    assert "tickvals" not in narrow and narrow["tickformat"] == ",~r"


def test_metric_axes_end_on_round_ticks() -> None:
    # The ends are what Plotly labels on the screen: round numbers around the data, not its
    # extremes (533.333 and 10.0007k before).
    assert nice_span(533.333, 10_000.7) == (0.0, 12_000.0)
    assert nice_span(15_000.0, 15_002.0) == (15_000.0, 15_002.0)
    assert nice_span(0.0123, 0.0871) == (0.0, 0.1)
    lo, hi = nice_span(1234.5, 35_800.5)
    assert lo <= 1234.5 and hi >= 35_800.5 and nice_ticks(lo, hi)[0] == lo
    assert nice_ticks(lo, hi)[-1] == hi
