"""Importing earlier runs: the stored rows equal a native run's from the same files, a second
import stores nothing, bad input is refused or listed with its reason and stores nothing.

The native side goes through the worker's own path (worker/runs/outputs.py rows_from_archive
with the planner's file layout, worker/runs/quality.py, worker/runs/store.py) on the same
fixture outputs (real memtier_benchmark and memaslap outputs in worker/tests/fixtures).
"""

from __future__ import annotations

import io
import itertools
import os
import shutil
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.core.run_files import list_run_files
from backend.models import (
    Configuration,
    Experiment,
    ImportedFile,
    Run,
    RunSeries,
)
from backend.schemas.imports import ImportMapping
from backend.tests.utils.database import empty_tables
from worker.imports import store as import_store
from worker.imports.preview import MappingError
from worker.imports.staging import Limits, StagingError, stage_folder, stage_upload
from worker.parsers.memtier import HDR_SUFFIX
from worker.tests.imports.native import native_run, same, stored_rows

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MEMTIER = "memtier_ratio1-1_c2_t1_d128_5s"
MEMASLAP = "memcaslap_t5s_S1s_T2_c8.txt"
WARMUP, COOLDOWN = 1, 1
IGNORED = {"id", "run_id", "created_at", "updated_at"}


def _tree(tmp: Path, files: dict[str, Path | bytes]) -> Path:
    root = tmp / "outputs"
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Path):
            shutil.copy2(content, target)
        else:
            target.write_bytes(content)
    return root


def _memtier_files(folder: str = "") -> dict[str, Path | bytes]:
    paths = [*FIXTURES.glob(f"{MEMTIER}.*"), *FIXTURES.glob(f"{MEMTIER}_hdr_*")]
    return {f"{folder}{p.name}": p for p in paths}


@pytest.fixture()
def session(db: Session, tmp_path: Path) -> Iterator[Session]:
    db.info["tmp"] = str(tmp_path)
    yield db
    db.rollback()
    # Imports commit: each test leaves the database as it found it.
    empty_tables(os.environ["MCSCOPE_DATABASE_URL"])


def _import(db: Session, root: Path, **mapping: Any) -> tuple[Any, Any]:
    staged = stage_folder(root)
    m = ImportMapping(warmup_s=WARMUP, cooldown_s=COOLDOWN, **mapping)
    plan = import_store.preview(db, staged, m)
    return plan, import_store.confirm(db, staged, m)


def _counts(db: Session) -> tuple[int, int, int]:
    return (
        db.scalar(select(func.count()).select_from(Experiment)) or 0,
        db.scalar(select(func.count()).select_from(Run)) or 0,
        db.scalar(select(func.count()).select_from(RunSeries)) or 0,
    )


def test_memtier_import_stores_what_a_native_run_stores(session: Session, tmp_path: Path) -> None:
    root = _tree(tmp_path, _memtier_files("w8/"))
    plan, outcome = _import(session, root, name="imported memtier")
    assert outcome.stored_runs == 1 and outcome.experiment_id is not None
    run = session.scalars(select(Run).where(Run.experiment_id == outcome.experiment_id)).one()
    preview_run = plan.preview.runs[0]
    start = preview_run.start_unix
    # The native run: same JSON and HDR files, named as the planner names an instance.
    outputs = {".json": FIXTURES / f"{MEMTIER}.json"}
    for hdr in FIXTURES.glob(f"{MEMTIER}_hdr_*_1.*"):
        outputs[HDR_SUFFIX + hdr.name[len(MEMTIER) + len("_hdr") :]] = hdr
    native = native_run(session, preview_run.parameters, outputs, "memtier", start)
    imported, reference = stored_rows(session, run.id), stored_rows(session, native)
    assert reference["RunSeries"] and reference["RunHistogram"]
    assert same(imported, reference)
    native_row = session.get(Run, native)
    assert native_row is not None and run.quality == native_row.quality
    # Its original time, files and provenance are kept.
    assert run.started_at is not None and run.started_at.timestamp() == pytest.approx(start)
    exp = session.get(Experiment, outcome.experiment_id)
    assert exp is not None and exp.kind == "imported"
    assert exp.provenance is not None and exp.provenance["source"] == "outputs"
    names = {Path(p).name for p, _ in list_run_files(run.id)}
    assert f"{MEMTIER}.json" in names and f"{MEMTIER}_hdr_FULL_RUN_1.hgrm" in names


def test_memaslap_import_stores_what_a_native_run_stores(session: Session, tmp_path: Path) -> None:
    root = _tree(tmp_path, {MEMASLAP: FIXTURES / MEMASLAP})
    plan, outcome = _import(session, root, values={"value_size": 1024})
    run = session.scalars(select(Run).where(Run.experiment_id == outcome.experiment_id)).one()
    preview_run = plan.preview.runs[0]
    assert preview_run.parameters["value_size"] == 1024
    assert "value_size" not in preview_run.defaulted and "servers" in preview_run.defaulted
    native = native_run(
        session,
        preview_run.parameters,
        {".out": FIXTURES / MEMASLAP},
        "memaslap",
        preview_run.start_unix,
    )
    assert same(stored_rows(session, run.id), stored_rows(session, native))


def test_second_import_of_the_same_files_stores_nothing(session: Session, tmp_path: Path) -> None:
    root = _tree(tmp_path, _memtier_files())
    _, first = _import(session, root)
    assert first.stored_runs == 1
    before = _counts(session)
    plan, again = _import(session, root, name="again")
    assert again.experiment_id is None and again.stored_runs == 0 and again.skipped_runs == 1
    assert plan.preview.runs[0].already_imported is not None
    assert not plan.preview.can_confirm
    assert _counts(session) == before


def test_pattern_maps_folder_names_to_a_factor(session: Session, tmp_path: Path) -> None:
    files = {**_memtier_files("w8/rep1/"), **_memtier_files("w16/rep1/")}
    # The same output twice would be one run imported twice: give the second other bytes.
    files["w16/rep1/" + f"{MEMTIER}.json"] = (
        (FIXTURES / f"{MEMTIER}.json").read_bytes().replace(b'"clients": 2', b'"clients":  2')
    )
    root = _tree(tmp_path, files)
    plan, outcome = _import(session, root, pattern=r"w(?P<workers>\d+)/", values={"middlewares": 1})
    assert plan.preview.factors == {"workers": [8, 16]}
    assert [c.values for c in plan.preview.configurations] == [{"workers": 8}, {"workers": 16}]
    assert outcome.stored_runs == 2
    configs = session.scalars(
        select(Configuration).where(Configuration.experiment_id == outcome.experiment_id)
    ).all()
    assert sorted(c.values["workers"] for c in configs) == [8, 16]


@pytest.mark.parametrize(
    ("mapping", "field"),
    [
        ({"pattern": r"w(?P<wrokers>\d+)"}, ("pattern",)),
        ({"pattern": r"w(?P<workers>\d+"}, ("pattern",)),
        ({"values": {"workers": 0}}, ("values", "workers")),
        ({"warmup_s": 3, "cooldown_s": 3}, ("warmup_s",)),
    ],
)
def test_bad_mapping_names_its_field(
    session: Session, tmp_path: Path, mapping: dict[str, Any], field: tuple[str, ...]
) -> None:
    staged = stage_folder(_tree(tmp_path, _memtier_files()))
    before = _counts(session)
    with pytest.raises(MappingError) as err:
        import_store.confirm(session, staged, ImportMapping(**{"warmup_s": 1, **mapping}))
    assert err.value.field == field
    assert _counts(session) == before


def test_truncated_corrupt_and_unrelated_files_are_listed_and_skipped(
    session: Session, tmp_path: Path
) -> None:
    good = FIXTURES / f"{MEMTIER}.json"
    text = good.read_bytes()
    root = _tree(
        tmp_path,
        {
            "ok.json": good,
            "truncated.json": text[: len(text) // 2],
            "corrupt.hgrm": b"#[Histogram log format version 1.2]\n1,2,3,notbase64\n",
            "notes.txt": b"what I ran on tuesday\n",
            "image.png": b"\x89PNG\r\n\x1a\n\x00\x00",
        },
    )
    plan, outcome = _import(session, root)
    reasons = {u.path: u.reason for u in plan.preview.unused}
    assert "truncated or corrupt" in reasons["truncated.json"]
    assert "truncated or corrupt" in reasons["corrupt.hgrm"]
    assert "not a recognised output" in reasons["notes.txt"]
    assert "binary" in reasons["image.png"]
    assert [r.key for r in plan.preview.runs] == ["ok.json"]
    assert outcome.stored_runs == 1


def _tar(members: list[tarfile.TarInfo], data: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for m in members:
            tar.addfile(m, io.BytesIO(data[m.name]) if m.name in data else None)
    return buf.getvalue()


def _member(
    name: str, size: int = 0, kind: bytes = tarfile.REGTYPE, link: str = ""
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size, info.type, info.linkname = size, kind, link
    return info


def _zip_bomb() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("big.json", b"\x00" * (64 << 20))
    return buf.getvalue()


LIMITS = Limits(
    archive_bytes=8 << 20, files=3, expanded_bytes=200 << 20, file_bytes=100 << 20, ratio=100.0
)


@pytest.mark.parametrize(
    ("upload", "reason"),
    [
        (_tar([_member("../evil.json", 2)], {"../evil.json": b"{}"}), "outside the archive"),
        (_tar([_member("/etc/evil.json", 2)], {"/etc/evil.json": b"{}"}), "absolute path"),
        (_tar([_member("link.json", kind=tarfile.SYMTYPE, link="/etc/passwd")], {}), "link"),
        (_tar([_member("fifo", kind=tarfile.FIFOTYPE)], {}), "not a regular file"),
        (
            _tar([_member(f"f{i}", 1) for i in range(4)], {f"f{i}": b"x" for i in range(4)}),
            "IMPORT_MAX_FILES",
        ),
        (_zip_bomb(), "archive bomb"),
        (b"x" * ((8 << 20) + 1), "IMPORT_MAX_ARCHIVE_BYTES"),
    ],
    ids=["dotdot", "absolute", "symlink", "fifo", "too-many-files", "zip-bomb", "too-large"],
)
def test_unsafe_uploads_are_refused_with_their_reason(
    session: Session, upload: bytes, reason: str
) -> None:
    from worker.imports.staging import staging_root

    def kept() -> set[Path]:
        """Staged uploads and bytes of uploads still arriving."""
        root = staging_root()
        return {*root.glob("*/*"), *root.glob("incoming/*")} if root.is_dir() else set()

    before = kept()
    with pytest.raises(StagingError) as err:
        stage_upload(
            iter([upload[i : i + 65536] for i in range(0, len(upload), 65536)]),
            "outputs.tar.gz",
            LIMITS,
        )
    assert reason in str(err.value)
    assert kept() == before  # nothing kept


def test_oversized_file_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"big.json": b"{" + b" " * 2048 + b"}"})
    with pytest.raises(StagingError, match="IMPORT_MAX_FILE_BYTES"):
        stage_folder(root, Limits(1 << 20, 10, 1 << 20, 1024, 100.0))


def test_a_symlink_in_a_folder_is_refused(tmp_path: Path) -> None:
    root = _tree(tmp_path, {"a.json": FIXTURES / f"{MEMTIER}.json"})
    (root / "b.json").symlink_to(root / "a.json")
    with pytest.raises(StagingError, match="link"):
        stage_folder(root)


def test_the_import_is_all_or_nothing(
    session: Session, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {**_memtier_files("a/"), "b/" + MEMASLAP: FIXTURES / MEMASLAP}
    staged = stage_folder(_tree(tmp_path, files))
    before = _counts(session)
    calls = itertools.count()
    real = import_store.write_results  # type: ignore[attr-defined]

    def second_fails(*args: Any, **kwargs: Any) -> bool:
        if next(calls) == 1:
            raise OSError("disk full")
        return real(*args, **kwargs)

    monkeypatch.setattr(import_store, "write_results", second_fails)
    with pytest.raises(OSError, match="disk full"):
        import_store.confirm(session, staged, ImportMapping(warmup_s=1, cooldown_s=1))
    assert _counts(session) == before
    assert session.scalar(select(func.count()).select_from(ImportedFile)) == 0


def test_an_archive_upload_imports_like_its_folder(session: Session, tmp_path: Path) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, path in _memtier_files("run/").items():
            assert isinstance(path, Path)
            tar.add(path, arcname=name)
    staged = stage_upload(iter([buf.getvalue()]), "outputs.tar.gz")
    plan = import_store.preview(session, staged, ImportMapping(warmup_s=1, cooldown_s=1))
    assert [r.key for r in plan.preview.runs] == [f"run/{MEMTIER}.json"]
    assert plan.preview.source == "outputs.tar.gz" and plan.preview.can_confirm
