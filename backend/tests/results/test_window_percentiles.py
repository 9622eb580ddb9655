"""The load generators' p50/p90/p99 are those of the chosen window: memtier's own per-second
percentiles, completion-weighted over the window's seconds (stored for the stable window at
ingest, re-cut from prefix sums for any other window), never its whole-run percentiles."""

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.utils.experiment import create_random_experiment
from worker.parsers import parse_memtier_json
from worker.parsers.memtier import client_result_from_memtier
from worker.scripts.seed_fixture_runs import seed

FIXTURE = Path(__file__).parents[3] / "worker/tests/fixtures/memtier_ratio1-1_c2_t1_d128_5s.json"


def _expected(q: float, start_s: int, end_s: int) -> float:
    """Completion-weighted mean of memtier's per-second q-th percentile over [start_s, end_s)."""
    typed = client_result_from_memtier(parse_memtier_json(FIXTURE.read_text())).types["all"]
    seconds = [s for s in typed.series if start_s <= s.second < end_s and q in s.percentiles_us]
    assert seconds, f"the fixture has no per-second p{q} in [{start_s}, {end_s})"
    weight = sum(s.ops_per_sec for s in seconds)
    return sum(s.ops_per_sec * s.percentiles_us[q] for s in seconds) / weight


@pytest.fixture(scope="module")
def experiment(client: TestClient, database: str) -> int:
    exp = create_random_experiment(
        client,
        factors={"workers": [8]},
        repetitions=1,
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )
    assert seed(exp["id"], FIXTURE, instances=2) == 1
    return int(exp["id"])


def _summary(client: TestClient, experiment: int, metric: str, **window: int) -> Any:
    r = client.get(
        f"/api/v1/analysis/experiments/{experiment}/summary",
        params={"metric": metric, "source": "client", **window},
    )
    assert r.status_code == 200, r.text
    (row,) = r.json()["data"]
    return row["mean"]


@pytest.mark.parametrize(("metric", "q"), [("p50_us", 50.0), ("p90_us", 90.0), ("p99_us", 99.0)])
def test_stored_percentiles_are_the_stable_windows(
    client: TestClient, experiment: int, metric: str, q: float
) -> None:
    # Stable window of a 5 s run with 1 s warm-up and 1 s cool-down: seconds [1, 4).
    stored = _summary(client, experiment, metric)
    assert stored == pytest.approx(_expected(q, 1, 4), rel=1e-12)
    # The same window asked for explicitly (re-cut from the prefix sums) agrees.
    recut = _summary(client, experiment, metric, window_start_s=1, window_end_s=4)
    assert recut == pytest.approx(stored, rel=1e-9)


def test_a_recut_window_has_its_own_percentiles(client: TestClient, experiment: int) -> None:
    recut = _summary(client, experiment, "p99_us", window_start_s=0, window_end_s=2)
    assert recut == pytest.approx(_expected(99.0, 0, 2), rel=1e-9)
    # Not the whole run's p99 (memtier's JSON percentile, warm-up included).
    whole = client_result_from_memtier(parse_memtier_json(FIXTURE.read_text()))
    assert recut != pytest.approx(whole.types["all"].percentiles[99.0], rel=1e-6)
