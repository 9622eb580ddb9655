"""The line figures' selection rule: x, series, pins (as the results page chooses them)."""

import pytest

from backend.analysis.errors import AnalysisError
from backend.domain.labels import level_label
from backend.figures.labels import source_label
from backend.figures.lines import Point, factor_axis, level_ticks, select, shape_lines
from backend.figures.params import FigureQuery

POINTS = [
    Point({"workers": w, "sharded": s, "ratio": r}, float(w * (2 if s else 1)), 1.0)
    for w in (8, 16)
    for s in (False, True)
    for r in ("1:9", "1:1")
]


def test_select_pins_the_other_factors_to_their_first_level() -> None:
    sel = select(POINTS, FigureQuery(x="workers", series="sharded"))
    assert sel.pins == {"ratio": "1:1"}  # text levels in natural order
    lines = shape_lines(POINTS, sel)
    assert [line.name for line in lines] == ["sharded: no", "sharded: yes"]
    assert lines[1].x == [8, 16] and lines[1].y == [16.0, 32.0]


@pytest.mark.parametrize("level", ["true", "yes"])
def test_select_accepts_levels_as_the_ui_and_as_figures_write_them(level: str) -> None:
    sel = select(POINTS, FigureQuery(x="workers", series="ratio", pin=[f"sharded={level}"]))
    assert sel.pins == {"sharded": "yes"}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        (FigureQuery(x="servers"), "x"),
        (FigureQuery(x="workers", series="workers"), "series"),
        (FigureQuery(x="workers", series="ratio", pin=["sharded=maybe"]), "pin"),
        (FigureQuery(x="workers", series="ratio", pin=["ratio=1:9"]), "pin"),
        (FigureQuery(x="workers", series="ratio", pin=["sharded"]), "pin"),
    ],
)
def test_select_rejects_names_the_experiment_lacks(query: FigureQuery, field: str) -> None:
    with pytest.raises(AnalysisError) as err:
        select(POINTS, query)
    assert err.value.field == field


def test_level_labels_read_as_words() -> None:
    assert level_label("workers", 8) == "8 worker threads"
    assert level_label("workers", 1) == "1 worker thread"
    assert level_label("clients_per_thread", 2) == "2 clients per thread"
    assert level_label("ratio", "1:9") == "SET:GET 1:9"
    assert level_label("unknown_knob", 3) == "unknown knob 3"


def test_source_labels_read_as_words() -> None:
    assert source_label("client:1") == "client instance 1"
    assert source_label("middleware:0") == "middleware 0"
    assert source_label("client") == "client"


def test_a_numeric_factor_axis_is_ticked_at_its_levels() -> None:
    # Clients per thread 1, 4, 8, 16, 32, 48: Plotly's own ticks were 10, 20, 30, 40.
    axis = factor_axis("Clients per thread", [1, 4, 8, 16, 32, 48, 1, 4])
    assert axis["tickvals"] == [1, 4, 8, 16, 32, 48] and axis["type"] == "linear"
    assert factor_axis("Ratio", ["1:9", "1:1"]) == {"title": {"text": "Ratio"}, "type": "category"}


def test_level_ticks_too_close_to_the_previous_one_are_left_out() -> None:
    doubling = [1, 2, 4, 8, 16, 32, 64, 128]
    # Linear: 2 and 4 lie within two characters' room (2/50 of the axis) of 1; 8 is clear.
    assert level_ticks(doubling) == [1, 8, 16, 32, 64, 128]
    # Log: they stand evenly apart, every one is ticked.
    assert level_ticks(doubling, log=True) == doubling
    # The highest level is always ticked, in place of a kept one too close to it.
    assert level_ticks([0, 50, 97, 100]) == [0, 50, 100]
    assert level_ticks([0, 100]) == [0, 100] and level_ticks([5]) == [5] and level_ticks([]) == []
    assert level_ticks([0, 1, 10], log=True) == [1, 10]  # no 0 on a log axis
    # A regular grid too dense to tick every level is read on Plotly's round numbers; one that
    # fits keeps its levels.
    assert level_ticks(range(1, 51)) is None
    assert factor_axis("Clients per thread", range(1, 51)) == {
        "title": {"text": "Clients per thread"},
        "type": "linear",
    }
    assert level_ticks([8, 16, 24, 32]) == [8, 16, 24, 32]
