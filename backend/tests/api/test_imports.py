"""The import routes on the real app: upload (streamed, staged), preview with a mapping,
confirm, and the imported experiment in the experiment page's data, results, analyses and
compare beside a native experiment seeded from the same tool output through the worker's path.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.core.config import settings
from backend.models import Experiment, Run
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.views import every_view
from worker.scripts.seed_fixture_runs import seed

API = "/api/v1/imports"
FIXTURES = Path(__file__).resolve().parents[3] / "worker" / "tests" / "fixtures"
MEMTIER = "memtier_ratio1-1_c2_t1_d128_5s"
MAPPING = {
    "pattern": r"w(?P<workers>\d+)/",
    "values": {"middlewares": 1, "servers": 1},
    "warmup_s": 1,
    "cooldown_s": 1,
}


def _archive(variant: int) -> bytes:
    """Two runs, in folders w8/ and w16/, of one memtier output whose JSON differs in its
    whitespace only: each (variant, folder) is other bytes, so another run by content hash."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for i, folder in enumerate(("w8", "w16")):
            spaces = b" " * (1 + 2 * variant + i)
            for path in [*FIXTURES.glob(f"{MEMTIER}.*"), *FIXTURES.glob(f"{MEMTIER}_hdr_*")]:
                data = path.read_bytes()
                if path.suffix == ".json":
                    data = data.replace(b'"clients": 2', b'"clients":' + spaces + b"2")
                info = tarfile.TarInfo(f"{folder}/{path.name}")
                info.size, info.mtime = len(data), int(path.stat().st_mtime)
                tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _upload(client: TestClient, body: bytes, name: str = "runs.tar.gz") -> Any:
    return client.post(
        API,
        params={"filename": name},
        content=body,
        headers={"Content-Type": "application/octet-stream"},
    )


def _count(db: Session) -> tuple[int, int]:
    db.expire_all()
    return (
        db.scalar(select(func.count()).select_from(Experiment)) or 0,
        db.scalar(select(func.count()).select_from(Run)) or 0,
    )


def test_upload_preview_confirm_and_use_like_a_native_experiment(
    client: TestClient, db: Session
) -> None:
    staged = _upload(client, _archive(0))
    assert staged.status_code == 201, staged.text
    upload = staged.json()["id"]
    assert staged.json()["files"] == 2 * 9  # JSON, stdout, stderr, 6 HDR files

    preview = client.post(f"{API}/{upload}/preview", json=MAPPING)
    assert preview.status_code == 200, preview.text
    p = preview.json()
    assert p["factors"] == {"workers": [8, 16]} and p["can_confirm"] and p["new_runs"] == 2
    assert {r["read"]["clients_per_thread"] for r in p["runs"]} == {2}
    assert all(r["stable_window"] == "cut 1 s..4 s after the load started" for r in p["runs"])
    stderr = [u for u in p["unused"] if u["path"].endswith(".stderr.txt")]
    assert len(stderr) == 2 and "not a recognised output" in stderr[0]["reason"]
    before = _count(db)
    assert _count(db) == before  # a preview stores nothing

    done = client.post(f"{API}/{upload}/confirm", json={**MAPPING, "name": "imported pair"})
    assert done.status_code == 201, done.text
    imported_id = done.json()["experiment_id"]
    assert done.json()["stored_runs"] == 2
    exp = client.get(f"/api/v1/experiments/{imported_id}").json()
    assert exp["kind"] == "imported" and exp["provenance"]["source"] == "runs.tar.gz"
    assert exp["status"] == "finished"
    # Confirmed: the staged upload is gone.
    assert client.post(f"{API}/{upload}/preview", json=MAPPING).status_code == 404

    # Nothing runs here: Start and re-run flagged refuse with the reason.
    start = client.post(f"/api/v1/experiments/{imported_id}/start")
    assert start.status_code == 409 and "imported" in start.json()["detail"]
    rerun = client.post(f"/api/v1/experiments/{imported_id}/rerun-flagged")
    assert rerun.status_code == 409 and "imported" in rerun.json()["detail"]

    results = client.get(f"/api/v1/experiments/{imported_id}/results")
    assert results.status_code == 200, results.text
    summary = client.get(f"/api/v1/analysis/experiments/{imported_id}/summary")
    assert summary.status_code == 200, summary.text
    quality = client.get(f"/api/v1/experiments/{imported_id}/quality")
    assert quality.status_code == 200, quality.text
    not_measured = quality.json()["runs"][0]["not_measured"]
    assert "not measured" in not_measured["cpu_steal"]  # no monitoring: said, not hidden
    machines = client.get(f"/api/v1/experiments/{imported_id}/machines")
    assert machines.status_code == 200, machines.text
    assert {m["summary"] for m in machines.json()["data"]} == {"no machine monitoring stored"}
    # Every analysis, figure and table answers it, or says why not (never a 5xx or a blank).
    seen = every_view(client, imported_id)
    assert seen["/api/v1/analysis/experiments/{experiment_id}/summary"] == "content"
    # One factor: the factorial says a 2^k design needs 2..6 of them (a 4xx with its reason).
    assert seen["/api/v1/analysis/experiments/{experiment_id}/factorial"] == "4xx"
    assert seen["figures/throughput.json"] == "content"
    assert seen["tables/summary.csv"] == "content"
    # And the report: its PDF compiles with the provenance's experiment.
    pdf = client.get(f"/api/v1/experiments/{imported_id}/report.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF"), pdf.text[:300]

    # A native experiment of the same design, seeded from the same output by the worker.
    native = create_random_experiment(
        client,
        factors={"workers": [8, 16]},
        fixed={k: v for k, v in p["fixed"].items()},
        repetitions=1,
        run_time_s=5,
        warmup_s=1,
        cooldown_s=1,
    )
    assert seed(native["id"], FIXTURES / f"{MEMTIER}.json", 1) == 2
    diff = client.post(
        "/api/v1/compare/differences",
        json={"experiment_ids": [native["id"], imported_id], "base_experiment_id": native["id"]},
    )
    assert diff.status_code == 200, diff.text
    body = diff.json()
    assert body["unmatched"] == 0 and body["count"] == 4
    throughput = [r for r in body["data"] if r["metric"] == "throughput_per_s"]
    # The same output: the same throughput on both sides.
    assert all(r["difference"] == pytest.approx(0.0, abs=1e-6) for r in throughput)


def test_second_upload_of_the_same_files_stores_nothing(client: TestClient, db: Session) -> None:
    first = _upload(client, _archive(1)).json()["id"]
    assert (
        client.post(f"{API}/{first}/confirm", json={**MAPPING, "name": "once"}).status_code == 201
    )
    before = _count(db)
    again = _upload(client, _archive(1)).json()["id"]
    p = client.post(f"{API}/{again}/preview", json=MAPPING).json()
    assert p["new_runs"] == 0 and not p["can_confirm"]
    assert all(r["already_imported"] is not None for r in p["runs"])
    out = client.post(f"{API}/{again}/confirm", json={**MAPPING, "name": "twice"})
    assert out.status_code == 201 and out.json() == {
        "experiment_id": None,
        "stored_runs": 0,
        "skipped_runs": 2,
    }
    assert _count(db) == before


@pytest.mark.parametrize(
    ("mapping", "loc"),
    [
        ({"pattern": "w(?P<wrkers>\\d+)/"}, ["body", "pattern"]),
        ({"values": {"servers": 99}}, ["body", "values", "servers"]),
        ({"warmup_s": 5}, ["body", "warmup_s"]),
        ({"warmup_s": -1}, ["body", "warmup_s"]),
        ({"colour": "red"}, ["body", "colour"]),
    ],
)
def test_bad_mapping_is_422_naming_the_field(
    client: TestClient, mapping: dict[str, Any], loc: list[str]
) -> None:
    upload = _upload(client, _archive(2)).json()["id"]
    r = client.post(f"{API}/{upload}/preview", json=mapping)
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == loc


def test_unsafe_archive_is_refused_with_its_reason(client: TestClient, db: Session) -> None:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("../../etc/cron.d/evil")
        info.size = 2
        tar.addfile(info, io.BytesIO(b"x\n"))
    before = _count(db)
    r = _upload(client, buf.getvalue())
    assert r.status_code == 422
    assert "outside the archive" in r.json()["detail"][0]["msg"]
    assert _count(db) == before


def test_an_upload_over_the_limit_is_413(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(settings, "IMPORT_MAX_ARCHIVE_BYTES", 1024)
    r = _upload(client, b"x" * 4096)
    assert r.status_code == 413 and "IMPORT_MAX_ARCHIVE_BYTES" in r.json()["detail"]


def test_unknown_upload_is_404(client: TestClient) -> None:
    r = client.post(f"{API}/{'0' * 32}/preview", json={})
    assert r.status_code == 404
