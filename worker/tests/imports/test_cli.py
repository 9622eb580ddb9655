"""`python -m worker.imports FOLDER`: previews without storing, stores with --confirm, and a
second --confirm of the same folder stores nothing."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Experiment, Run
from backend.tests.utils.database import empty_tables
from worker.imports.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MEMTIER = "memtier_ratio1-1_c2_t1_d128_5s"


@pytest.fixture()
def folder(tmp_path: Path, db: Session) -> Iterator[Path]:
    root = tmp_path / "w8"
    root.mkdir()
    for path in [*FIXTURES.glob(f"{MEMTIER}.*"), *FIXTURES.glob(f"{MEMTIER}_hdr_*")]:
        shutil.copy2(path, root / path.name)
    yield tmp_path
    db.rollback()
    empty_tables(os.environ["MCSCOPE_DATABASE_URL"])


def _counts(db: Session) -> tuple[int, int]:
    db.expire_all()
    return (
        db.scalar(select(func.count()).select_from(Experiment)) or 0,
        db.scalar(select(func.count()).select_from(Run)) or 0,
    )


def test_preview_then_confirm_then_nothing_new(
    folder: Path, db: Session, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(folder), "--warmup-s", "1", "--cooldown-s", "1", "--pattern", r"w(?P<workers>\d+)/"]
    assert main(args) == 0
    out = capsys.readouterr()
    assert "1 run(s), 1 new" in out.out and "supplied: {'workers': 8}" in out.out
    assert "nothing stored" in out.err and _counts(db) == (0, 0)
    assert main([*args, "--confirm"]) == 0
    assert "1 run(s) stored" in capsys.readouterr().out and _counts(db) == (1, 1)
    assert main([*args, "--confirm", "--name", "again"]) == 0
    assert "nothing new" in capsys.readouterr().out and _counts(db) == (1, 1)


def test_bad_parameter_names_it(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(folder), "--warmup-s", "1", "--set", "servers=99"]) == 2
    assert "values.servers" in capsys.readouterr().err
