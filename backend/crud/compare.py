"""Reads the comparison needs beside results: experiments in order, testbeds, tool versions."""

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.domain.hardware import Hardware, experiment_hardware
from backend.models import Configuration, Experiment, Run, RunStatus, Testbed


def read_experiments(*, session: Session, ids: Sequence[int]) -> dict[int, Experiment]:
    rows = session.scalars(select(Experiment).where(Experiment.id.in_(ids))).all()
    return {e.id: e for e in rows}


def read_experiment_names(*, session: Session, ids: Sequence[int]) -> dict[int, str]:
    """id -> name of the experiments that exist."""
    rows = session.execute(select(Experiment.id, Experiment.name).where(Experiment.id.in_(ids)))
    return {i: name for i, name in rows.all()}


def read_testbeds(*, session: Session, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
    rows = session.execute(
        select(Testbed.id, Testbed.name, Testbed.kind).where(Testbed.id.in_(ids))
    ).all()
    return {i: (name, kind.value) for i, name, kind in rows}


def read_tool_versions(
    *, session: Session, experiment_ids: Sequence[int]
) -> dict[int, dict[str, list[str]]]:
    """Distinct versions of every tool recorded on the experiments' succeeded runs."""
    rows = session.execute(
        select(Run.experiment_id, Run.tool_versions)
        .where(Run.experiment_id.in_(experiment_ids), Run.status == RunStatus.SUCCEEDED)
        .distinct()
    ).all()
    out: dict[int, dict[str, set[str]]] = {}
    for exp_id, versions in rows:
        for tool, version in (versions or {}).items():
            out.setdefault(exp_id, {}).setdefault(tool, set()).add(str(version))
    return {e: {t: sorted(v) for t, v in tools.items()} for e, tools in out.items()}


def read_hardware(*, session: Session, experiment_ids: Sequence[int]) -> Hardware:
    """The machines of the experiments' succeeded runs, per role (backend.domain.hardware)."""
    rows = session.execute(
        select(Run.experiment_id, Run.hosts).where(
            Run.experiment_id.in_(experiment_ids), Run.status == RunStatus.SUCCEEDED
        )
    ).all()
    return experiment_hardware((e, h) for e, h in rows)


def configuration_owners(*, session: Session, ids: Sequence[int]) -> dict[int, int]:
    """configuration id -> experiment id, for the ids that exist."""
    rows = session.execute(
        select(Configuration.id, Configuration.experiment_id).where(Configuration.id.in_(ids))
    ).all()
    return {cid: eid for cid, eid in rows}
