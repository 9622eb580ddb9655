"""The saturation knee on seeded throughput curves with a known knee, and its marks on the
throughput and response-time figures (the figure JSON the UI draws)."""

from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.figures.knee import knee_marks
from backend.figures.lines import LineLayout
from backend.figures.params import FigureQuery
from backend.figures.results import response_time, throughput
from backend.models.enums import RequestType
from backend.schemas.results import (
    ConfigurationResultPublic,
    MetricSummaryPublic,
    ResultMetricsPublic,
    ResultsPublic,
)
from backend.tests.utils.stored import stored_experiment

LOADS = [1, 2, 3, 4, 6, 8, 10, 12, 16, 20, 24, 32]
# Per worker count, the plateau (ops/s) and so the known knee: X(N) = min(1000 N, plateau)
# first reaches 95 % of its maximum at N = plateau / 1000 (at 1 % noise, N - 1 stays below it
# by 1000 ops/s, 12 % and more of the plateau). 64 workers never saturate on these loads.
PLATEAU = {8: 8000.0, 16: 12_000.0, 64: 1e9}
Z_S = 0.0  # no think time: R = N / X (the interactive response time law)


def _seeded(seed: int) -> ResultsPublic:
    rng = np.random.default_rng(seed)
    rows: list[ConfigurationResultPublic] = []
    for w, plateau in PLATEAU.items():
        for n in LOADS:
            x = min(1000.0 * n, plateau) * (1.0 + rng.normal(0.0, 0.01))
            rows.append(
                ConfigurationResultPublic(
                    configuration_id=len(rows),
                    index=len(rows),
                    values={"clients_per_thread": n, "workers": w},
                    repetitions=3,
                    metrics=ResultMetricsPublic(
                        throughput_per_s=MetricSummaryPublic(n=3, mean=x, std=0.01 * x),
                        response_time_us=MetricSummaryPublic(n=3, mean=1e6 * n / x - Z_S, std=1.0),
                        keys_per_s=MetricSummaryPublic(n=3, mean=x, std=None),
                    ),
                )
            )
    return ResultsPublic(source="client", request_type=RequestType.ALL, units={}, data=rows)


@pytest.mark.parametrize("seed", range(5))
def test_knee_found_on_seeded_curves(seed: int) -> None:
    data = _seeded(seed)
    marks = knee_marks(data, LineLayout("clients_per_thread", "workers", {}))
    by_line = {m.line: m for m in marks}
    assert set(by_line) == {"8 worker threads", "16 worker threads"}  # 64 never saturates
    for w, line in ((8, "8 worker threads"), (16, "16 worker threads")):
        m = by_line[line]
        assert m.load == PLATEAU[w] / 1000.0
        (row,) = [r for r in data.data if r.values == {"clients_per_thread": m.load, "workers": w}]
        assert m.throughput_per_s == row.mean("throughput_per_s")
        assert m.response_time_us == row.mean("response_time_us")


def test_no_knee_unless_x_counts_clients() -> None:
    assert knee_marks(_seeded(0), LineLayout("workers", "clients_per_thread", {})) == []


def test_knee_marked_on_both_figures() -> None:
    data = _seeded(1)
    q = FigureQuery(x="clients_per_thread", series="workers")
    for fig, on in ((throughput(data, q), "throughput"), (response_time(data, q), "response")):
        marks = [t for t in fig.data if t.name and t.name.startswith("knee")]
        assert [t.name for t in marks] == ["knee 8 worker threads", "knee 16 worker threads"]
        knees = fig.layout.meta["knees"]
        assert [k["load"] for k in knees] == [8.0, 12.0]
        for trace, k in zip(marks, knees, strict=True):
            assert trace.x == (k["load"],)
            want = k["throughput_per_s"] if on == "throughput" else k["response_time_us"]
            assert trace.y == (want,)
            assert trace.text == (f"knee, {k['response_time_us']:,.0f} us",)
            assert trace.marker.symbol == "diamond-open"
        assert "saturation knee of each line" in fig.layout.meta["caption"]


def test_figure_json_carries_the_knee(client: TestClient, db: Session) -> None:
    # The stored model: 13,000 ops/s at 4 clients per thread, 10,000 elsewhere: the knee is 4.
    exp = stored_experiment(
        client, db, factors={"clients_per_thread": [1, 2, 4, 8], "workers": [8]}
    )
    fig: dict[str, Any] = client.get(
        f"/api/v1/experiments/{exp['id']}/figures/response-time.json"
    ).json()
    (mark,) = [t for t in fig["data"] if t.get("name", "").startswith("knee")]
    assert mark["x"] == [4.0] and mark["y"] == [1200.0]  # 800 + 400 us at 4 per thread
    assert fig["layout"]["meta"]["knees"][0]["throughput_per_s"] == pytest.approx(13_050.0)
