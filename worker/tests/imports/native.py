"""Reference rows for import tests: the same outputs stored by the worker's native path
(worker/runs/outputs.py rows_from_archive on the planner's layout, worker/runs/quality.py,
worker/runs/store.py), and the stored rows of a run to compare."""

from __future__ import annotations

import itertools
import math
import shutil
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.domain.grid import effective_parameters
from backend.domain.window import window_of
from backend.models import Configuration, Run, RunHistogram, RunSeries, RunStatus, RunSummary
from worker.drivers.registry import driver_for
from worker.runs.outputs import rows_from_archive
from worker.runs.plan import build_plan
from worker.runs.quality import ingest_quality
from worker.runs.store import store_results
from worker.runs.summarize import StableWindow
from worker.runs.testbed import local_testbed
from worker.tests.utils.experiments import create_experiment

IGNORED = {"id", "run_id", "created_at", "updated_at"}
WARMUP, COOLDOWN = 1, 1


def stored_rows(db: Session, run_id: int) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for model in (RunSeries, RunSummary, RunHistogram):
        rows = db.scalars(select(model).where(model.run_id == run_id)).all()
        dicts = [
            {c.key: getattr(r, c.key) for c in model.__table__.columns if c.key not in IGNORED}
            for r in rows
        ]
        out[model.__name__] = sorted(dicts, key=lambda d: (d["source"], str(d["request_type"])))
    return out


def same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def native_run(
    db: Session,
    params: dict[str, Any],
    outputs: dict[str, Path],
    tool: str,
    start: float,
    run_time_s: int = 5,
) -> int:
    """A run stored by the worker's own path from these outputs, laid out as fetch_all
    leaves a run's archive (one folder per host, files named after the instance)."""
    fixed = {k: v for k, v in params.items()}
    exp = create_experiment(
        db,
        factors={},
        fixed=fixed,
        run_time_s=run_time_s,
        warmup_s=WARMUP,
        cooldown_s=COOLDOWN,
        name_prefix="native",
    )
    config = db.scalars(select(Configuration).where(Configuration.experiment_id == exp.id)).one()
    ports = itertools.count(20_000)
    eff = effective_parameters(config.values, exp.fixed)
    plan = build_plan(
        eff,
        local_testbed(),
        tool,
        run_time_s,
        lambda _h: next(ports),
        memory_of=lambda _h: 16 << 30,
    )
    run = Run(
        experiment_id=exp.id,
        configuration_id=config.id,
        repetition=1,
        status=RunStatus.RUNNING,
        attempt=1,
        hosts={},
        tool_versions={},
        commands=[],
    )
    db.add(run)
    db.flush()
    client = plan.clients[0]
    archive = Path(db.info.setdefault("tmp", "/tmp")) / f"native-{run.id}"
    for suffix, source in outputs.items():
        target = archive / client.host.name / f"{client.name}{suffix}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)
    window = StableWindow.after(start, window_of(exp))
    driver = driver_for(tool)
    rows = rows_from_archive(
        archive,
        plan,
        lambda _c: driver(None),  # type: ignore[arg-type]
        window,
        int(eff["multiget_size"]) > 1,
        {f"client:{client.index}": start},
    )
    quality = ingest_quality(rows, window, eff, populated=False)
    assert store_results(db, run.id, 1, rows, quality)
    return run.id
