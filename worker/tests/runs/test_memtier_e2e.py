"""memtier_benchmark end to end (issue 12): an experiment created and started through the API,
run by a real Celery worker on the local testbed with real memcached, the middleware and the
real memtier_benchmark 2.3.0 (installed by set-up): sets, gets and multi-gets
(--multi-key-get), servers populated before reads, its JSON (with the HDR histograms) parsed
and stored, percentiles taken from memtier's own output."""

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import RequestType, RunHistogram, RunStatus, RunSummary
from backend.tests.utils.experiment import create_random_experiment
from backend.tests.utils.processes import CeleryWorkerProcess
from worker.drivers.memtier import EXPIRY_S, KEY_PREFIX
from worker.parsers import client_result_from_memtier, parse_memtier_json
from worker.tests.utils.experiments import SHORTEST_RUN, all_final, wait_for

pytestmark = pytest.mark.integration


@pytest.mark.timeout(600)  # above wait_for's 400 s, so a timeout shows the run states
def test_memtier_experiment_through_api(
    client: TestClient, db: Session, local_sshd: None, celery_worker: CeleryWorkerProcess
) -> None:
    exp = create_random_experiment(
        client,
        factors={"ratio": ["1:0", "0:1"], "multiget_size": [1, 3]},
        fixed={
            "servers": 1,
            "middlewares": 1,
            "workers": 2,
            "clients_per_thread": 2,
            "value_size": 128,
            "key_maximum": 1000,
            "load_generator": "memtier",
        },
        repetitions=1,
        **SHORTEST_RUN,  # the claim is memtier's outputs, not the load
    )
    r = client.post(f"/api/v1/experiments/{exp['id']}/start")
    assert r.status_code == 202 and r.json()["queued"] == 4, r.text
    runs = wait_for(db, exp["id"], all_final, timeout_s=400)
    assert [(r.status, r.error) for r in runs] == [(RunStatus.SUCCEEDED, None)] * 4
    for run in runs:
        values = run.configuration.values
        reads = values["ratio"] == "0:1"
        assert run.hosts["load_generator"] == "memtier"
        assert "v=2.3.0" in run.tool_versions["memtier"]
        roles = [c["role"] for c in run.commands]
        (client_cmd,) = [c for c in run.commands if c["role"] == "client"]
        assert "memtier_benchmark" in client_cmd["argv"][2]
        assert ("--multi-key-get=3" in client_cmd["argv"]) == (values["multiget_size"] == 3)
        # Reads need the key space written first: the populate step, with memtier.
        assert ("populate" in roles) == reads
        if reads:
            # Written on one pipelined connection (memtier's own populate takes at least 1 s):
            # the keys memtier reads, 1..key_maximum with its prefix, 128 B each.
            (populate,) = [c for c in run.commands if c["role"] == "populate"]
            assert populate["argv"][-4:] == ["1000", "128", KEY_PREFIX, str(EXPIRY_S)]
            assert f"--key-prefix={KEY_PREFIX}" in client_cmd["argv"]

        multiget = values["multiget_size"] == 3
        kind = RequestType.SET
        if reads:  # multi-gets are stored as their own request type
            kind = RequestType.MULTIGET if multiget else RequestType.GET
        summaries = {
            (s.source, s.request_type): s
            for s in db.scalars(select(RunSummary).where(RunSummary.run_id == run.id))
        }
        mine = summaries[("client:0", kind)]
        assert mine.throughput > 0 and ("middleware:0", RequestType.ALL) in summaries
        # The archived JSON, parsed again here: the stored percentiles are memtier's own.
        # (Other test databases may have a run of the same id: the attempt's token tells ours.)
        token = Path(client_cmd["workdir"]).name.rsplit("-", 1)[1]
        attempt_dir = Path(run.artifact_dir or "") / f"attempt-{run.attempt}-{token}"
        (json_path,) = attempt_dir.rglob("client-0.json")
        parsed = client_result_from_memtier(parse_memtier_json(json_path.read_text()))
        typed = parsed.types["get" if reads else "set"]
        # The stored percentiles are those of the stable window: memtier's own per-second
        # percentiles, completion-weighted over the window's seconds (not its whole-run ones).
        window = [
            sec
            for sec in typed.series
            if mine.window_start_s <= sec.second < mine.window_end_s and sec.percentiles_us
        ]
        assert window, "memtier reported no per-second percentiles in the stable window"
        for column, q in (("p50_us", 50.0), ("p90_us", 90.0), ("p99_us", 99.0)):
            expected = sum(sec.ops_per_sec * sec.percentiles_us[q] for sec in window) / sum(
                sec.ops_per_sec for sec in window
            )
            assert getattr(mine, column) == pytest.approx(expected, rel=1e-12), column
        assert mine.p50_us is not None and mine.p99_us is not None
        assert 0 < mine.p50_us <= mine.p99_us
        # The HDR histogram of the JSON is stored, every request in it.
        (hist,) = db.scalars(
            select(RunHistogram).where(
                RunHistogram.run_id == run.id,
                RunHistogram.source == "client:0",
                RunHistogram.request_type == kind,
            )
        ).all()
        assert sum(hist.counts) + hist.overflow == typed.summary.count > 0
        if reads:
            assert mine.misses_per_s == 0  # populated: every get hits
            keys_per_get = mine.keys_per_s / mine.throughput if mine.keys_per_s else 0
            assert keys_per_get == pytest.approx(values["multiget_size"], rel=0.01)
    r = client.get(f"/api/v1/experiments/{exp['id']}/results", params={"source": "client"})
    assert r.status_code == 200 and len(r.json()["data"]) == 4
