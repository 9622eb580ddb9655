"""Middleware percentiles of any window from the stored per-window histograms.

A real middleware serves real traffic for 4 s (1 s windows, every request sampled); the
worker's summarize and store put its results in the database; the percentiles and histogram
routes must then give, for the stored stable window and for re-cut windows, the percentiles of
exactly the requests completed in that window (from requests.csv) within one bucket.
"""

from __future__ import annotations

import bisect
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.analysis.percentiles import percentile_rank
from backend.models import RequestType, Run, RunStatus, RunSummary
from backend.results.log_buckets import MIDDLEWARE_LAYOUT
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.live_middleware import run_middleware
from worker.parsers import parse_middleware_dir
from worker.parsers.model import MiddlewareStats
from worker.runs.store import store_results
from worker.runs.summarize import StableWindow, middleware_rows

QS = (25.0, 50.0, 75.0, 90.0, 99.0)
STABLE = (1, 3)  # the stored stable window, s


@pytest.fixture(scope="module")
def mw_stats(tmp_path_factory: pytest.TempPathFactory) -> MiddlewareStats:
    out = run_middleware(tmp_path_factory.mktemp("mw") / "stats", seconds=4.2, window_ms=1000)
    return parse_middleware_dir(out)


@pytest.fixture()
def stored(client: TestClient, db: Session, mw_stats: MiddlewareStats) -> dict[str, Any]:
    """An experiment whose first run holds the middleware's results, stored by the worker."""
    exp = create_random_experiment(client, run_time_s=5, warmup_s=1, cooldown_s=2)
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    # Cancelled at once: the queued run messages must not reach a later test's Celery worker,
    # which would then run 8 real runs per test here before that test's own (CI timed out).
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    run = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id)).first()
    assert run is not None and mw_stats.summary is not None
    db.execute(update(Run).where(Run.id == run.id).values(status=RunStatus.RUNNING, attempt=1))
    db.commit()
    t0 = mw_stats.summary.started_unix + mw_stats.windows[0].start_us / 1e6
    rows = middleware_rows("middleware:0", mw_stats, StableWindow(t0, *STABLE))
    assert rows.window_histograms, "the worker stored no per-window histograms"
    assert store_results(db, run.id, 1, rows)
    return {"experiment": exp["id"], "configuration": run.configuration_id, "run": run.id}


def _raw(stats: MiddlewareStats, metric: str, lo: int, hi: int) -> list[float]:
    """Every request of the windows [lo, hi), all types (requests.csv samples each one)."""
    return sorted(
        getattr(r, f"{metric}_us")
        for r in stats.requests
        if lo * 1e6 <= r.written_us - stats.windows[0].start_us < hi * 1e6
    )


def _bucket(us: float) -> int:
    return bisect.bisect_left(MIDDLEWARE_LAYOUT.upper_bounds_us, us)


def _percentiles(client: TestClient, stored: dict[str, Any], metric: str, **window: int) -> Any:
    r = client.get(
        f"/api/v1/analysis/experiments/{stored['experiment']}/percentiles",
        params={
            "source": "middleware",
            "metric": metric,
            "request_type": "all",
            "percentiles": ",".join(str(q) for q in QS),
            **window,
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["span"] == "window"
    (row,) = [d for d in body["data"] if d["configuration_id"] == stored["configuration"]]
    return row


@pytest.mark.parametrize("metric", ["total", "queue", "server"])
@pytest.mark.parametrize("window", [None, (0, 2), (2, 4), (1, 2)])
def test_window_percentiles_equal_the_raw_requests_within_one_bucket(
    client: TestClient,
    stored: dict[str, Any],
    mw_stats: MiddlewareStats,
    metric: str,
    window: tuple[int, int] | None,
) -> None:
    lo, hi = window or STABLE
    params = {} if window is None else {"window_start_s": lo, "window_end_s": hi}
    row = _percentiles(client, stored, metric, **params)
    raw = _raw(mw_stats, metric, lo, hi)
    assert row["total"] == len(raw) > 100
    for p in row["percentiles"]:
        exact = raw[int(percentile_rank(p["q"], len(raw))) - 1]
        assert p["bound"] is None
        # requests.csv rounds times to 1 ns: the exact value may sit one bucket over.
        assert abs(_bucket(p["value_us"]) - _bucket(exact)) <= 1, (p, exact)


def test_default_window_is_the_stored_one(client: TestClient, stored: dict[str, Any]) -> None:
    default = _percentiles(client, stored, "queue")
    recut = _percentiles(client, stored, "queue", window_start_s=STABLE[0], window_end_s=STABLE[1])
    assert default == recut


def test_stored_percentiles_are_the_stable_windows_histograms(
    client: TestClient, stored: dict[str, Any], db: Session, mw_stats: MiddlewareStats
) -> None:
    """The worker's stored p50/p90/p99 (all requests, not a sample) equal the percentiles view
    on the default window: one rule, the same counts."""
    summary = db.scalars(
        select(RunSummary).where(
            RunSummary.run_id == stored["run"],
            RunSummary.source == "middleware:0",
            RunSummary.request_type == RequestType.ALL,
        )
    ).one()
    row = _percentiles(client, stored, "total")
    by_q = {p["q"]: p["value_us"] for p in row["percentiles"]}
    assert (summary.p50_us, summary.p90_us, summary.p99_us) == (by_q[50], by_q[90], by_q[99])
    raw = _raw(mw_stats, "total", *STABLE)
    exact = raw[int(percentile_rank(99.0, len(raw))) - 1]
    assert summary.p99_us is not None
    assert abs(_bucket(summary.p99_us) - _bucket(exact)) <= 1


def test_histogram_of_a_window_holds_its_requests(
    client: TestClient, stored: dict[str, Any], mw_stats: MiddlewareStats
) -> None:
    r = client.get(
        f"/api/v1/analysis/experiments/{stored['experiment']}/histogram",
        params={
            "configuration_id": stored["configuration"],
            "source": "middleware",
            "metric": "total",
            "request_type": "get",
            "window_start_s": 3,
            "window_end_s": 4,
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    gets = [
        x
        for x in mw_stats.requests
        if x.type == "get" and 3e6 <= x.written_us - mw_stats.windows[0].start_us < 4e6
    ]
    assert body["total"] == len(gets) > 100
    assert body["span"] == "window" and body["span_label"] == "window"
    # Log-linear buckets: each at most 1/32 of its lower edge wide.
    ub = body["upper_bounds_us"]
    assert all(b - a <= a / 32 + 1e-9 for a, b in zip(ub[1:], ub[2:], strict=False))


@pytest.mark.parametrize("route", ["percentiles", "histogram"])
@pytest.mark.parametrize(
    ("window", "field"),
    [((5, 6), "window_start_s"), ((2, 9), "window_end_s"), ((3, 2), "window_end_s")],
)
def test_a_window_outside_the_run_is_422_naming_the_field(
    client: TestClient,
    stored: dict[str, Any],
    route: str,
    window: tuple[int, int],
    field: str,
) -> None:
    r = client.get(
        f"/api/v1/analysis/experiments/{stored['experiment']}/{route}",
        params={
            "configuration_id": stored["configuration"],
            "source": "middleware",
            "metric": "queue",
            "window_start_s": window[0],
            "window_end_s": window[1],
        },
    )
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"][-1] == field
