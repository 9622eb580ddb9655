"""The real-path seeder: what the worker stores from the seeded tool outputs follows the
intended closed-system shape (worker/seeding/shape.py), under the worker's own source names.

Everything goes through the worker's parsers, summaries and store on a real PostgreSQL; the
expected figures come from the shape's definition, not from the seeder's own arithmetic.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import (
    Configuration,
    Experiment,
    Run,
    RunHistogram,
    RunSeries,
    RunStatus,
    RunSummary,
    RunWindowHistogram,
)
from worker.scripts.seed_fixture_runs import seed_shaped
from worker.tests.utils.experiments import create_experiment

FIXED = {
    "servers": 3,
    "middlewares": 1,
    "ratio": "1:0",
    "client_machines": 3,
    "threads_per_instance": 2,
}
RUN_TIME_S, WARMUP_S, COOLDOWN_S = 20, 4, 4


def _experiment(db: Session, factors: dict[str, list[Any]], fixed: dict[str, Any]) -> Experiment:
    exp = create_experiment(
        db,
        factors=factors,
        fixed=fixed,
        repetitions=3,
        run_time_s=RUN_TIME_S,
        warmup_s=WARMUP_S,
        cooldown_s=COOLDOWN_S,
        name_prefix="seed",
    )
    db.commit()
    return exp


def _stored(db: Session, exp: Experiment) -> dict[tuple[int, int], list[dict[str, RunSummary]]]:
    """Per (workers, clients per thread), per repetition: the "all" summaries by source."""
    out: dict[tuple[int, int], list[dict[str, RunSummary]]] = defaultdict(list)
    rows = db.execute(
        select(Configuration.values, Run.repetition, RunSummary)
        .join(Run, Run.configuration_id == Configuration.id)
        .join(RunSummary, RunSummary.run_id == Run.id)
        .where(Run.experiment_id == exp.id, RunSummary.request_type == "all")
        .order_by(Run.repetition)
    ).all()
    by_run: dict[tuple[int, int, int], dict[str, RunSummary]] = defaultdict(dict)
    for values, rep, summary in rows:
        by_run[(values["workers"], values["clients_per_thread"], rep)][summary.source] = summary
    for (w, c, _rep), sources in sorted(by_run.items()):
        out[(w, c)].append(sources)
    return out


def _clients(sources: dict[str, RunSummary]) -> tuple[float, float]:
    """Throughput summed over client instances and their throughput-weighted response time."""
    xs = [(s.throughput, s.response_time_us) for k, s in sources.items() if k.startswith("client:")]
    x = sum(t for t, _ in xs)
    return x, sum(t * r for t, r in xs) / x


@pytest.fixture(scope="module")
def seeded(database: str) -> tuple[Experiment, dict[str, Any]]:
    from backend.core.db import SessionLocal

    with SessionLocal() as db:
        exp = _experiment(db, {"workers": [8, 32], "clients_per_thread": [1, 16, 64]}, FIXED)
        db.expunge(exp)
    return exp, seed_shaped(exp.id, {})


def test_every_run_is_stored_under_the_sources_the_worker_writes(
    db: Session, seeded: tuple[Experiment, dict[str, Any]]
) -> None:
    exp, manifest = seeded
    runs = db.scalars(select(Run).where(Run.experiment_id == exp.id)).all()
    assert manifest["runs"] == len(runs) == 6 * 3
    assert {r.status for r in runs} == {RunStatus.SUCCEEDED}
    # Each run lasted its run time (plus stopping), not until the seeding finished.
    for r in runs:
        assert r.started_at and r.finished_at
        assert RUN_TIME_S < (r.finished_at - r.started_at).total_seconds() < RUN_TIME_S + 5
    sources = set(
        db.scalars(
            select(RunSummary.source).join(Run).where(Run.experiment_id == exp.id).distinct()
        )
    )
    # The worker's planner: one memtier instance per client machine, all to middleware 0.
    assert sources == {"client:0", "client:1", "client:2", "middleware:0"}
    run_id = runs[0].id
    for model in (RunSeries, RunHistogram, RunWindowHistogram):
        assert db.scalars(select(model).where(model.run_id == run_id)).first() is not None


def test_stored_throughput_grows_with_clients_until_the_worker_capacity(
    db: Session, seeded: tuple[Experiment, dict[str, Any]]
) -> None:
    exp, _ = seeded
    for (workers, cpt), reps in _stored(db, exp).items():
        n = 3 * 2 * cpt
        expected = min(n / 0.015, 3000 + 40 * workers)
        xs = [_clients(r)[0] for r in reps]
        # Repetitions 1 % apart around the configuration's figure, measured over the window.
        for x, factor in zip(xs, (0.99, 1.0, 1.01), strict=True):
            assert x == pytest.approx(expected * factor, rel=1e-3), (workers, cpt)
    at = {k: sum(_clients(r)[0] for r in reps) / 3 for k, reps in _stored(db, exp).items()}
    assert at[(8, 1)] < at[(8, 16)] == pytest.approx(at[(8, 64)], rel=1e-3)
    assert at[(8, 64)] < at[(32, 64)]


def test_stored_response_time_follows_the_interactive_law(
    db: Session, seeded: tuple[Experiment, dict[str, Any]]
) -> None:
    exp, _ = seeded
    for (_workers, cpt), reps in _stored(db, exp).items():
        for sources in reps:
            x, r = _clients(sources)
            assert r == pytest.approx(3 * 2 * cpt / x * 1e6, rel=1e-3)


def test_the_middleware_agrees_with_the_clients_and_splits_its_time(
    db: Session, seeded: tuple[Experiment, dict[str, Any]]
) -> None:
    exp, _ = seeded
    for reps in _stored(db, exp).values():
        for sources in reps:
            x, r = _clients(sources)
            mw = sources["middleware:0"]
            assert mw.throughput == pytest.approx(x, rel=0.005)
            assert mw.response_time_us == pytest.approx(0.8 * r, rel=0.005)
            assert mw.queue_time_us == pytest.approx(0.4 * r, rel=0.005)
            assert mw.server_time_us == pytest.approx(0.3 * r, rel=0.005)


def test_copies_carry_the_template_runs_rows(db: Session) -> None:
    exp = _experiment(db, {"workers": [8, 16], "clients_per_thread": [1, 2]}, FIXED)
    manifest = seed_shaped(exp.id, {}, real=1)
    assert manifest["runs"] == 4 * 3 and len(manifest["configurations"]) == 1
    stored = _stored(db, exp)
    for key in [(8, 2), (16, 1), (16, 2)]:
        for copy, template in zip(stored[key], stored[(8, 1)], strict=True):
            assert {s: v.throughput for s, v in copy.items()} == {
                s: v.throughput for s, v in template.items()
            }
