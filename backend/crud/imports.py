"""Queries of imports: which client outputs were imported before (by content hash), whether
an experiment name is free."""

from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Experiment, ImportedFile


def runs_by_client_hash(session: Session, hashes: Iterable[str]) -> dict[str, int]:
    """sha256 of a client output -> the stored run imported from it."""
    wanted = list(set(hashes))
    if not wanted:
        return {}
    rows = session.execute(
        select(ImportedFile.sha256, ImportedFile.run_id).where(
            ImportedFile.role == "client", ImportedFile.sha256.in_(wanted)
        )
    )
    return {sha: run_id for sha, run_id in rows}


def experiment_name_taken(session: Session, name: str) -> bool:
    return session.scalar(select(Experiment.id).where(Experiment.name == name)) is not None
