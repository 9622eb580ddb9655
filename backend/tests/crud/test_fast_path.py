"""The SQL fast path and the stored summaries equal the pure aggregation, on seeded data.

Hypothesis draws runs of client and middleware series of different lengths and start
offsets, with idle seconds (0 ops/s, NaN time) and NaN samples, and random windows; the
numbers read through the results service (prefix sums in PostgreSQL, or the summaries the
worker stores) must equal backend/results/aggregate.py applied to the same arrays.
"""

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from backend.crud import fast_path
from backend.domain.metrics import FAST, MetricName
from backend.models import RequestType, Run, RunSeries, RunStatus, RunSummary
from backend.results import read
from backend.results.aggregate import SourceSeries, Window, combine_run, run_windows
from backend.tests.utils.experiment import create_random_experiment
from worker.runs.summarize import StableWindow, window_summary

T0 = 1.7e9
NAN = float("nan")
FAST_NAMES: list[MetricName] = [m.name for m in FAST]


@pytest.fixture(scope="module")
def runs(client: TestClient, database: str) -> tuple[int, list[int]]:
    """One configuration, three succeeded repetitions (results replaced per example)."""
    from backend.core.db import SessionLocal

    exp = create_random_experiment(
        client, factors={"workers": [8]}, repetitions=3, run_time_s=60, warmup_s=5, cooldown_s=5
    )
    client.post(f"/api/v1/experiments/{exp['id']}/start")
    client.post(f"/api/v1/experiments/{exp['id']}/cancel")
    with SessionLocal() as db:
        db.execute(
            update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED)
        )
        db.commit()
        ids = list(
            db.scalars(select(Run.id).where(Run.experiment_id == exp["id"]).order_by(Run.id))
        )
    return exp["id"], ids


def _sample(draw: st.DrawFn, low: float, high: float) -> float:
    kind = draw(st.sampled_from(["value", "value", "value", "zero", "nan"]))
    if kind == "nan":
        return NAN
    return 0.0 if kind == "zero" else draw(st.floats(low, high, allow_nan=False))


@st.composite
def source(draw: st.DrawFn, name: str) -> dict[str, Any]:
    length = draw(st.integers(0, 25))
    offset = draw(st.floats(0.0, 3.0) if name.startswith("client") else st.floats(-2.0, 4.0))
    # Measured rates are 0 or at least one completion per second: no subnormal throughputs,
    # whose sums prefix sums cannot resolve (cancellation is float noise beside the total).
    tp = [_sample(draw, 1.0, 5e4) for _ in range(length)]
    # Idle seconds have no response time, as the tools write them.
    rt = [NAN if x == 0.0 else draw(st.floats(1.0, 5e3) | st.just(NAN)) for x in tp]
    keys = [draw(st.floats(0.0, 1e5)) for _ in range(length)] if draw(st.booleans()) else None
    middleware: dict[str, Any] = {}
    if name.startswith("middleware"):  # its own times (weighted) and queue length (summed)
        # A second has all of the middleware's times or none (one stored weight per summary).
        middleware["queue_time_us"] = [
            NAN if math.isnan(r) else draw(st.floats(0.5, 2e3)) for r in rt
        ]
        middleware["queue_length"] = [draw(st.floats(0.0, 64.0)) for _ in range(length)]
    # The tool's per-second percentiles (memtier's Time-Serie), only in seconds with completions.
    if draw(st.booleans()):
        middleware["p99_us"] = [NAN if math.isnan(r) else draw(st.floats(1.0, 1e4)) for r in rt]
    return {
        **middleware,
        "source": name,
        "request_type": RequestType.ALL,
        "start_unix": T0 + offset,
        "throughput": tp,
        "response_time_us": rt,
        "keys_per_s": keys,
    }


@st.composite
def run_data(draw: st.DrawFn) -> list[dict[str, Any]]:
    clients = draw(st.integers(1, 3))
    mws = draw(st.integers(0, 2))
    names = [f"client:{i}" for i in range(clients)] + [f"middleware:{i}" for i in range(mws)]
    return [draw(source(n)) for n in names]


def _expected(
    data: list[dict[str, Any]], kind: str, window: Window
) -> dict[str, float | None] | None:
    series = [
        SourceSeries(
            d["source"],
            d["start_unix"],
            {k: v for k, v in d.items() if isinstance(v, list) or v is None},
        )
        for d in data
    ]
    windows = [w for w in run_windows(series, window) if w.source.startswith(f"{kind}:")]
    return combine_run(windows, FAST_NAMES) if windows else None


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-8, abs_tol=1e-6)


def _store(db: Session, run_ids: list[int], data: list[list[dict[str, Any]]]) -> None:
    for model in (RunSeries, RunSummary):
        db.execute(delete(model).where(model.run_id.in_(run_ids)))
    for run_id, sources in zip(run_ids, data, strict=True):
        db.add_all(RunSeries(run_id=run_id, **d) for d in sources)
    db.commit()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.lists(run_data(), min_size=3, max_size=3),
    lo=st.integers(0, 25),
    span=st.integers(1, 30),
    kind=st.sampled_from(["client", "middleware"]),
)
def test_fast_path_equals_the_pure_aggregation(
    db: Session,
    runs: tuple[int, list[int]],
    data: list[list[dict[str, Any]]],
    lo: int,
    span: int,
    kind: str,
) -> None:
    exp_id, run_ids = runs
    _store(db, run_ids, data)
    window = Window(lo, lo + span)
    got = read.run_values(
        session=db,
        experiment_id=exp_id,
        source=kind,  # type: ignore[arg-type]
        request_type=RequestType.ALL,
        metrics=FAST_NAMES,
        window=window,
    )
    by_run = {r.run_id: r.values for r in got}
    for run_id, sources in zip(run_ids, data, strict=True):
        expected = _expected(sources, kind, window)
        if expected is None:
            assert run_id not in by_run
            continue
        for name in FAST_NAMES:
            assert _close(by_run[run_id][name], expected[name]), (
                run_id,
                name,
                by_run[run_id],
                expected,
            )


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    data=st.lists(run_data(), min_size=3, max_size=3),
    lo=st.integers(0, 10),
    span=st.integers(1, 20),
)
def test_stored_summaries_equal_the_same_window_re_cut(
    db: Session, runs: tuple[int, list[int]], data: list[list[dict[str, Any]]], lo: int, span: int
) -> None:
    """What the worker stores for the stable window is what a re-cut to it gives."""
    exp_id, run_ids = runs
    _store(db, run_ids, data)
    for run_id, sources in zip(run_ids, data, strict=True):
        t0 = min(d["start_unix"] for d in sources if d["source"].startswith("client:"))
        stable = StableWindow(t0, lo, lo + span)
        for d in sources:
            summary = window_summary(d["source"], d, stable)
            if summary is not None:
                db.add(
                    RunSummary(
                        run_id=run_id,
                        source=d["source"],
                        request_type=RequestType.ALL,
                        window_start_s=lo,
                        window_end_s=lo + span,
                        **summary,
                    )
                )
    db.commit()
    for kind in ("client", "middleware"):
        args: dict[str, Any] = dict(
            session=db,
            experiment_id=exp_id,
            source=kind,
            request_type=RequestType.ALL,
            metrics=FAST_NAMES,
        )
        stored = {r.run_id: r.values for r in read.run_values(**args)}
        recut = {r.run_id: r.values for r in read.run_values(**args, window=Window(lo, lo + span))}
        assert stored.keys() == recut.keys()
        for run_id, values in stored.items():
            for name in FAST_NAMES:
                assert _close(values[name], recut[run_id][name]), (
                    kind,
                    name,
                    values,
                    recut[run_id],
                )


def test_every_prefix_column_of_the_metric_table_is_a_computed_column() -> None:
    """The table's `fast` metrics and the model's (migrated) prefix-sum columns agree."""
    computed = {c.name for c in RunSeries.__table__.columns if c.computed is not None}
    declared = {c for _, col, w in fast_path.prefix_columns() for c in (col, w) if c}
    assert declared == computed
