"""Storing a confirmed import: one experiment of kind "imported", its configurations and runs,
each run's rows, quality flags and original files, in ONE transaction (all or nothing).

Rows are made as a native run's (worker/imports/runs.py: the worker's summaries), its quality
flags by the worker's ingest rule (worker/runs/quality.py) and stored by the worker's store
(worker/runs/store.py write_results); the files are copied into the run's archive
(backend/core/run_files.py), so the run page lists and serves them as a native run's.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime, timedelta

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.core.run_files import remove_run_files, run_archive_dir
from backend.crud.imports import experiment_name_taken, runs_by_client_hash
from backend.domain.imported import EXPERIMENT_IMPORTED
from backend.domain.templates import Template
from backend.models import Configuration, Experiment, ImportedFile, Run, RunStatus
from backend.schemas.imports import ImportMapping, ImportOutcome
from worker.imports.preview import ImportPlan, MappingError, plan_import
from worker.imports.runs import result_rows, sha256_of
from worker.imports.staging import Staged
from worker.runs.quality import ingest_quality
from worker.runs.store import write_results
from worker.runs.summarize import StableWindow

IMPORTED_FOLDER = "imported"  # below the run's archive


class ImportRefused(ValueError):
    """The import cannot be confirmed as previewed (the reasons are the preview's problems)."""


def preview(session: Session, staged: Staged, mapping: ImportMapping) -> ImportPlan:
    return plan_import(staged, mapping, lambda hashes: runs_by_client_hash(session, hashes))


def _copy_files(staged: Staged, planned_files: list[tuple[str, str]], run_id: int) -> None:
    dest = run_archive_dir(run_id) / IMPORTED_FOLDER
    for rel, _role in planned_files:
        source = staged.root / rel
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, dirs_exist_ok=False)
        else:
            shutil.copy2(source, target)


def _file_rows(staged: Staged, run_id: int, files: list[tuple[str, str]]) -> list[ImportedFile]:
    rows = []
    for rel, role in files:
        path = staged.root / rel
        members = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for member in members:
            rows.append(
                ImportedFile(
                    run_id=run_id,
                    path=member.relative_to(staged.root).as_posix(),
                    role=role,
                    sha256=sha256_of(member),
                    size=member.stat().st_size,
                )
            )
    return rows


def confirm(session: Session, staged: Staged, mapping: ImportMapping) -> ImportOutcome:
    """Store what `preview` shows for this mapping. ImportRefused when the preview has
    problems; MappingError for a bad mapping (the name taken included). Nothing is stored
    unless every run is."""
    plan = preview(session, staged, mapping)
    p = plan.preview
    skipped = sum(1 for r in p.runs if r.already_imported is not None)
    if p.problems:
        raise ImportRefused("; ".join(p.problems))
    if not plan.runs:
        return ImportOutcome(experiment_id=None, stored_runs=0, skipped_runs=skipped)
    if experiment_name_taken(session, p.name):
        raise MappingError(("name",), f"an experiment named {p.name!r} already exists")
    assert plan.window is not None and p.run_time_s is not None
    stored: list[int] = []
    try:
        exp = Experiment(
            name=p.name,
            description="",  # the page says where it came from (provenance)
            template=Template.CUSTOM,
            fixed=p.fixed,
            repetitions=max(r.repetition for r in plan.runs),
            run_time_s=p.run_time_s,
            warmup_s=p.warmup_s,
            cooldown_s=p.cooldown_s,
            testbed_id=None,
            kind=EXPERIMENT_IMPORTED,
            provenance={
                "source": p.source,
                "imported_at": datetime.now(UTC).isoformat(),
                "files": sum(len(r.files.roles()) for r in plan.runs),
            },
        )
        exp.factors = p.factors
        session.add(exp)
        session.flush()
        configs = {}
        for c in p.configurations:
            if c.runs == 0:
                continue  # every run of it was imported before
            row = Configuration(experiment_id=exp.id, index=c.index, values=c.values)
            session.add(row)
            configs[c.index] = row
        session.flush()
        for planned in plan.runs:
            read = planned.read
            started = datetime.fromtimestamp(read.start_unix, UTC)
            run = Run(
                experiment_id=exp.id,
                configuration_id=configs[planned.configuration].id,
                repetition=planned.repetition,
                status=RunStatus.RUNNING,
                attempt=1,
                started_at=started,
                hosts={},
                tool_versions={},
                commands=[],
            )
            session.add(run)
            session.flush()
            stored.append(run.id)
            window = StableWindow.after(read.start_unix, plan.window)
            rows = result_rows(read, window, planned.parameters)
            quality = ingest_quality(rows, window, planned.parameters, populated=mapping.populated)
            if not write_results(session, run.id, 1, rows, quality):
                raise ImportRefused(f"run {run.id} could not be stored")
            files = [(path, role) for path, _kind, role in planned.files.roles()]
            _copy_files(staged, files, run.id)
            session.add_all(_file_rows(staged, run.id, files))
            session.execute(
                update(Run)
                .where(Run.id == run.id)
                .values(
                    artifact_dir=str(run_archive_dir(run.id)),
                    finished_at=started + timedelta(seconds=read.duration_s),
                )
            )
        session.commit()
    except IntegrityError as exc:
        session.rollback()
        remove_run_files(stored)
        # Two confirmations of the same files at once: the second finds the first's hash.
        raise ImportRefused(f"the import conflicts with one stored meanwhile: {exc.orig}") from exc
    except BaseException:
        session.rollback()
        remove_run_files(stored)
        raise
    return ImportOutcome(experiment_id=exp.id, stored_runs=len(plan.runs), skipped_runs=skipped)
