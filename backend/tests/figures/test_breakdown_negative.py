"""A breakdown part below zero is drawn below the axis and said in words: it is a difference of
separately measured times, not a duration (the report showed it without a word)."""

from backend.figures.analyses import breakdown, negative_parts
from backend.figures.params import FigureQuery
from backend.schemas.analysis import ExperimentBreakdownPublic


def _row(index: int, client: float, middleware: float, rtt: float) -> dict[str, object]:
    network = client - middleware
    return {
        "configuration_id": index + 1,
        "index": index,
        "values": {"workers": 8 * (index + 1)},
        "client_response_us": client,
        "middleware_response_us": middleware,
        "queue_us": 100.0,
        "server_us": 200.0,
        "processing_us": middleware - 300.0,
        "network_us": network,
        "round_trip_us": rtt,
        "rest_us": network - rtt,
    }


def test_a_negative_part_is_named_with_its_formula() -> None:
    # The second configuration's measured round trip (180 us) is longer than client minus
    # middleware response time (150 us): the rest is -30 us.
    data = ExperimentBreakdownPublic.model_validate(
        {
            "data": [_row(0, 1000.0, 700.0, 120.0), _row(1, 900.0, 750.0, 180.0)],
            "rest_label": "client-side time",
            "units": {},
        }
    )
    (said,) = negative_parts(data)
    assert said.startswith("client-side time is negative in 1 of 2 configurations (down to -30 µs)")
    assert "client - middleware response time - the measured round trip" in said
    fig = breakdown(data, FigureQuery())
    meta = fig.layout.meta
    assert meta["negative_parts"] == [said]
    assert f"Note: {said}." in meta["caption"]
    rest = next(t for t in fig.data if t.name == "client-side time")
    assert list(rest.y) == [180.0, -30.0]  # drawn below zero, not hidden


def test_no_note_when_every_part_is_positive() -> None:
    data = ExperimentBreakdownPublic.model_validate(
        {"data": [_row(0, 1000.0, 700.0, 120.0)], "rest_label": "client-side time", "units": {}}
    )
    assert negative_parts(data) == []
    assert "Note:" not in breakdown(data, FigureQuery()).layout.meta["caption"]
