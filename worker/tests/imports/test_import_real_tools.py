"""Imports of outputs this test makes with the real memtier_benchmark and memaslap against a
real memcached on 127.0.0.1 store the same rows as the worker's native path from the same
files. Needs real outputs (the tools' current formats, not only the fixtures): two 4-second
runs, so it is marked load."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run
from backend.schemas.imports import ImportMapping
from backend.tests.utils.database import empty_tables
from worker.imports import store as import_store
from worker.imports.staging import stage_folder
from worker.parsers.memtier import HDR_SUFFIX
from worker.tests.imports.native import COOLDOWN, WARMUP, native_run, same, stored_rows

pytestmark = [pytest.mark.integration, pytest.mark.load]
RUN_S = 4


@pytest.fixture()
def session(db: Session, tmp_path: Path) -> Iterator[Session]:
    db.info["tmp"] = str(tmp_path)
    yield db
    db.rollback()
    empty_tables(os.environ["MCSCOPE_DATABASE_URL"])


def _import_one(db: Session, root: Path) -> tuple[int, float, dict[str, object]]:
    staged = stage_folder(root)
    mapping = ImportMapping(warmup_s=WARMUP, cooldown_s=COOLDOWN)
    preview = import_store.preview(db, staged, mapping).preview
    assert preview.can_confirm, preview.problems
    outcome = import_store.confirm(db, staged, mapping)
    run = db.scalars(select(Run).where(Run.experiment_id == outcome.experiment_id)).one()
    return run.id, preview.runs[0].start_unix, preview.runs[0].parameters


@pytest.mark.timeout(120)
def test_real_memtier_output_imports_as_a_native_run(
    session: Session, memcached: int, tmp_path: Path
) -> None:
    out = tmp_path / "memtier"
    out.mkdir()
    name = "my-run"
    subprocess.run(
        [
            "memtier_benchmark",
            "--server=127.0.0.1",
            f"--port={memcached}",
            "--protocol=memcache_text",
            "--clients=2",
            "--threads=1",
            f"--test-time={RUN_S}",
            "--ratio=1:3",
            "--data-size=128",
            "--key-maximum=1000",
            "--print-percentiles=50,90,99,99.9",
            f"--json-out-file={out / name}.json",
            f"--hdr-file-prefix={out / name}_hdr",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    run_id, start, params = _import_one(session, out)
    assert params["ratio"] == "1:3" and params["clients_per_thread"] == 2
    outputs = {".json": out / f"{name}.json"}
    for hdr in out.glob(f"{name}_hdr_*_1.*"):
        outputs[HDR_SUFFIX + hdr.name[len(name) + len("_hdr") :]] = hdr
    native = native_run(session, params, outputs, "memtier", start, RUN_S)
    reference = stored_rows(session, native)
    assert reference["RunSeries"] and reference["RunHistogram"]
    assert same(stored_rows(session, run_id), reference)


@pytest.mark.timeout(120)
def test_real_memaslap_output_imports_as_a_native_run(
    session: Session, memcached: int, tmp_path: Path
) -> None:
    out = tmp_path / "memaslap"
    out.mkdir()
    done = subprocess.run(
        [
            "memcaslap",
            "-s",
            f"127.0.0.1:{memcached}",
            "-T",
            "1",
            "-c",
            "2",
            "-t",
            f"{RUN_S}s",
            "-S",
            "1s",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    (out / "run.out").write_bytes(done.stdout)
    run_id, start, params = _import_one(session, out)
    assert params["load_generator"] == "memaslap" and params["clients_per_thread"] == 2
    native = native_run(session, params, {".out": out / "run.out"}, "memaslap", start, RUN_S)
    reference = stored_rows(session, native)
    assert reference["RunSeries"]
    assert same(stored_rows(session, run_id), reference)
    shutil.rmtree(out)
