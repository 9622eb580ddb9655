"""A design's repetition rule through the API: stored with the design, checked (422 naming
the field), fixed once runs exist, copied by duplicate, and each configuration's reason."""

import io
import os
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.tests.api.test_costs import MakeTestbed, azure_testbed, seeded_prices
from backend.tests.api.test_tables import compile_latex
from backend.tests.utils.experiment import create_random_experiment, experiment_payload
from backend.tests.utils.stored import stored_experiment

API = "/api/v1/experiments"
RULE = {"half_width_pct": 5.0, "min_repetitions": 2, "max_repetitions": 6}
__all__ = ["azure_testbed", "seeded_prices"]  # fixtures of the cost tests, used here


def _loc(r: Any) -> tuple[list[Any], str]:
    assert r.status_code == 422, r.text
    first = r.json()["detail"][0]
    return first["loc"], first["msg"]


def test_create_stores_and_serves_the_rule(client: TestClient) -> None:
    body = create_random_experiment(client, repetition_rule=RULE)
    assert body["repetition_rule"] == {
        "metric": "throughput_per_s",
        "source": "client",
        "half_width_pct": 5.0,
        "confidence": 0.95,
        "min_repetitions": 2,
        "max_repetitions": 6,
    }
    again = client.get(f"{API}/{body['id']}").json()
    assert again["repetition_rule"] == body["repetition_rule"]
    assert create_random_experiment(client)["repetition_rule"] is None


def test_rule_without_repetitions_takes_its_minimum(client: TestClient) -> None:
    payload = experiment_payload(repetition_rule={**RULE, "min_repetitions": 4})
    del payload["repetitions"]
    r = client.post(API, json=payload)
    assert r.status_code == 201, r.text
    assert r.json()["repetitions"] == 4 and r.json()["preview"]["runs"] == 4 * 4


def test_bad_rules_are_422_naming_the_field(client: TestClient) -> None:
    cases: list[tuple[dict[str, Any], list[Any], str]] = [
        ({**RULE, "max_repetitions": 1}, ["max_repetitions"], "greater than or equal to 2"),
        ({**RULE, "min_repetitions": 2, "max_repetitions": 2, "half_width_pct": 0},
         ["half_width_pct"], "greater than 0"),
        ({**RULE, "min_repetitions": 2, "max_repetitions": 1}, ["max_repetitions"], ""),
        ({**RULE, "metric": "colour"}, ["metric"], ""),
        ({**RULE, "confidence": 1.0}, ["confidence"], ""),
        ({**RULE, "stop": "early"}, ["stop"], "Extra inputs"),
    ]  # fmt: skip
    for rule, where, words in cases:
        loc, msg = _loc(client.post(API, json=experiment_payload(repetition_rule=rule)))
        assert loc == ["body", "repetition_rule", *where], (rule, loc)
        assert words in msg
    # max below min: named on max (the field the user sets last)
    loc, msg = _loc(
        client.post(
            API,
            json=experiment_payload(
                repetition_rule={**RULE, "min_repetitions": 3, "max_repetitions": 2},
                repetitions=3,
            ),
        )
    )
    assert loc == ["body", "repetition_rule", "max_repetitions"]
    assert msg == "Value error, must be at least min_repetitions (3)"
    # A minimum above the default cap (10), the cap not given: refused the same way, nothing
    # stored (it was stored, and every read of it failed; found by the API fuzz).
    before = client.get(API, params={"limit": 500}).json()
    rule = {"min_repetitions": 12}
    loc, msg = _loc(client.post(API, json=experiment_payload(repetition_rule=rule, repetitions=12)))
    assert loc == ["body", "repetition_rule", "max_repetitions"]
    assert msg == "Value error, must be at least min_repetitions (12)"
    assert client.get(API, params={"limit": 500}).json() == before
    loc, msg = _loc(client.post(API, json=experiment_payload(repetition_rule=RULE, repetitions=3)))
    assert loc == ["body", "repetition_rule", "min_repetitions"]
    assert msg == "must equal repetitions (3): the runs Start queues first"


def test_migration_0032_gives_rules_stored_below_their_minimum_the_minimum_as_cap(
    client: TestClient, db: Session
) -> None:
    # Such rules were stored before the default cap was checked (a minimum of 12, the cap 10
    # written out or left out), and every read of their experiment failed.
    from alembic import command
    from alembic.config import Config

    from backend.core.config import REPO_ROOT
    from backend.models import Experiment

    capped = create_random_experiment(client, repetition_rule=RULE)
    stored = {**capped["repetition_rule"], "min_repetitions": 12, "max_repetitions": 10}
    left_out = {k: v for k, v in stored.items() if k != "max_repetitions"}
    broken = [capped["id"], create_random_experiment(client, repetition_rule=RULE)["id"]]
    healthy = create_random_experiment(client, repetition_rule={**RULE, "max_repetitions": 5})
    for experiment_id, rule in zip(broken, [stored, left_out], strict=True):
        db.get_one(Experiment, experiment_id).repetition_rule = rule
    db.commit()
    with pytest.raises(ValueError, match="must be at least min_repetitions"):
        client.get(f"{API}/{broken[0]}")

    # No ini file: its logging set-up would replace this test process's handlers.
    cfg = Config()
    cfg.set_main_option("script_location", str(REPO_ROOT / "migrations"))
    cfg.set_main_option("sqlalchemy.url", os.environ["MCSCOPE_DATABASE_URL"])
    command.downgrade(cfg, "0031")  # data only: 0032 is upgraded again below
    command.upgrade(cfg, "0032")

    for experiment_id in broken:
        r = client.get(f"{API}/{experiment_id}")
        assert r.status_code == 200, r.text
        rule = r.json()["repetition_rule"]
        assert (rule["min_repetitions"], rule["max_repetitions"]) == (12, 12)
    assert client.get(f"{API}/{healthy['id']}").json()["repetition_rule"] == {
        **healthy["repetition_rule"],
        "max_repetitions": 5,
    }


def test_rule_cap_counts_against_the_run_limit(client: TestClient) -> None:
    factors = {"clients_per_thread": list(range(1, 51)), "workers": [1, 2, 4, 8, 16, 32, 64]}
    rule = {**RULE, "max_repetitions": 100}
    loc, msg = _loc(
        client.post(API, json=experiment_payload(factors=factors, repetition_rule=rule))
    )
    assert loc == ["body", "repetition_rule", "max_repetitions"]
    assert "350 configurations x 100 repetitions at most = 35000 runs" in msg


def test_rule_is_fixed_once_started_and_copied_by_duplicate(client: TestClient) -> None:
    exp = create_random_experiment(client, repetition_rule=RULE)
    assert client.post(f"{API}/{exp['id']}/start").status_code == 202
    client.post(f"{API}/{exp['id']}/cancel")
    changed = experiment_payload(name=exp["name"], repetition_rule={**RULE, "max_repetitions": 9})
    r = client.put(f"{API}/{exp['id']}", json=changed)
    assert r.status_code == 409
    assert client.get(f"{API}/{exp['id']}").json()["repetition_rule"]["max_repetitions"] == 6
    r = client.post(f"{API}/{exp['id']}/duplicate", json={"name": exp["name"] + "-copy"})
    assert r.status_code == 201 and r.json()["repetition_rule"] == exp["repetition_rule"]


def test_results_say_why_each_configuration_has_its_n(client: TestClient, db: Session) -> None:
    # The stored model's two repetitions differ by 100 ops/s on 10,000 to 14,000 ops/s: a
    # half-width of t(0.975, 1) x 70.7 / sqrt(2) = 635 ops/s, 6.3 % to 4.5 % of the mean.
    exp = stored_experiment(client, db, repetition_rule=RULE)
    rows = client.get(f"{API}/{exp['id']}/results").json()["data"]
    reasons = {
        (r["values"]["clients_per_thread"], r["values"]["workers"]): r["repetitions_reason"]
        for r in rows
    }
    # A 2^2 design: its cells stop together, so those that met the target go on too.
    going_on = "adding repetitions with the other configurations: n=2, half-width"
    here = "<= 5 % here, not yet in every configuration"
    assert reasons == {
        (1, 8): "adding repetitions: n=2, half-width 6.3 % > 5 %",
        (1, 16): "adding repetitions: n=2, half-width 5.7 % > 5 %",
        (4, 8): f"{going_on} 4.9 % {here}",
        (4, 16): f"{going_on} 4.5 % {here}",
    }
    plain = stored_experiment(client, db)
    rows = client.get(f"{API}/{plain['id']}/results").json()["data"]
    assert {r["repetitions_reason"] for r in rows} == {None}


@pytest.mark.usefixtures("closes_renderer")
def test_report_prints_the_rule_and_each_reason(
    client: TestClient, db: Session, tmp_path: Path
) -> None:
    exp = stored_experiment(client, db, repetition_rule=RULE)
    items = [{"kind": "table", "name": "summary"}]
    assert client.put(f"{API}/{exp['id']}/report", json={"items": items}).status_code == 200
    r = client.get(f"{API}/{exp['id']}/report/bundle.zip")
    assert r.status_code == 200, r.text
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        zf.extractall(tmp_path)
    main = (tmp_path / "main.tex").read_text()
    assert "\\section{Repetitions}" in main
    assert (
        "each configuration ran at least 2 and at most 6 times, a repetition added while the "
        "95\\% Student t interval of its mean throughput (client, ops/s) had a half-width "
        "above 5 \\% of the mean. The rule and its cap were fixed before the first run. The "
        "intervals reported are these ordinary t intervals"
    ) in " ".join(main.split())
    assert (
        "Configuration 3 (clients\\_per\\_thread = 4, workers = 8): adding repetitions with "
        "the other configurations: n=2, half-width 4.9 \\% <= 5 \\% here, not yet in every "
        "configuration."
    ) in main
    assert "so they stopped together" in main
    assert compile_latex(tmp_path).returncode == 0
    plain = stored_experiment(client, db)
    r = client.get(f"{API}/{plain['id']}/bundle.zip")
    with zipfile.ZipFile(io.BytesIO(r.content)) as zf:
        assert "Repetitions" not in zf.read("main.tex").decode()


def test_preview_of_a_rule_shows_its_range_in_runs_time_and_money(
    client: TestClient, seeded_prices: None, azure_testbed: MakeTestbed
) -> None:
    testbed = azure_testbed()
    ruled = experiment_payload(testbed_id=testbed.id, repetition_rule=RULE)
    r = client.post(f"{API}/preview", json=ruled)
    assert r.status_code == 200, r.text
    body = r.json()
    span = body["rule_range"]
    # The minimum is what Start queues (the preview's own counts); the cap is the same
    # design at max_repetitions fixed, priced the same way.
    assert span["minimum"] == {
        "repetitions": 2,
        "runs": body["runs"],
        "estimated_seconds": body["estimated_seconds"],
        "cost": body["cost"],
    }
    capped = client.post(
        f"{API}/preview", json=experiment_payload(testbed_id=testbed.id, repetitions=6)
    ).json()
    assert span["maximum"] == {
        "repetitions": 6,
        "runs": capped["runs"],
        "estimated_seconds": capped["estimated_seconds"],
        "cost": capped["cost"],
    }
    assert span["maximum"]["runs"] == 4 * 6 and span["minimum"]["runs"] == 4 * 2
    assert span["maximum"]["cost"]["amount"] > span["minimum"]["cost"]["amount"] > 0
    assert span["together"] is True  # a 2^2 design: its cells stop together
    # The stored experiment serves the same range; a grid that is not 2^k stops cell by cell.
    exp = create_random_experiment(client, testbed_id=testbed.id, repetition_rule=RULE)
    assert exp["preview"]["rule_range"] == span
    three = experiment_payload(factors={"workers": [8, 16, 32]}, repetition_rule=RULE)
    assert client.post(f"{API}/preview", json=three).json()["rule_range"]["together"] is False
    assert client.post(f"{API}/preview", json=experiment_payload()).json()["rule_range"] is None


def test_experiment_serves_its_actual_time_once_its_runs_end(
    client: TestClient, db: Session
) -> None:
    exp = create_random_experiment(client)
    assert client.get(f"{API}/{exp['id']}").json()["elapsed"] is None  # nothing started
    client.post(f"{API}/{exp['id']}/start")
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"]).order_by(Run.id)).all()
    t0 = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    starts = [t0 + timedelta(seconds=50 * i) for i in range(len(runs))]
    for run, start in zip(runs, starts, strict=True):  # one after the other, 40 s each
        run.started_at, run.finished_at = start, start + timedelta(seconds=40)
        run.status = RunStatus.SUCCEEDED
    runs[-1].status, runs[-1].finished_at = RunStatus.RUNNING, None
    db.commit()
    elapsed = client.get(f"{API}/{exp['id']}").json()["elapsed"]
    assert datetime.fromisoformat(elapsed["started_at"]) == t0
    assert elapsed["ended_at"] is None and elapsed["seconds"] is None  # one still running
    runs[-1].status = RunStatus.SUCCEEDED
    runs[-1].finished_at = end = starts[-1] + timedelta(seconds=40)
    db.commit()
    elapsed = client.get(f"{API}/{exp['id']}").json()["elapsed"]
    assert elapsed["seconds"] == 50 * (len(runs) - 1) + 40
    assert datetime.fromisoformat(elapsed["ended_at"]) == end


def test_a_fractions_cells_stop_together(client: TestClient) -> None:
    # Seven two-level factors: past the full 2^k analysis (k <= 6), so only as a fraction
    # does the design have a factorial analysis, and only then do its cells stop together.
    seven = {
        "servers": [1, 2],
        "workers": [8, 16],
        "clients_per_thread": [1, 4],
        "value_size": [128, 4096],
        "threads_per_instance": [1, 2],
        "instances_per_machine": [1, 2],
        "queue_capacity": [512, 1024],
    }
    fraction = experiment_payload(
        factors=seven, fixed={"ratio": "0:1"}, fraction={"resolution": 3}, repetition_rule=RULE
    )
    r = client.post(f"{API}/preview", json=fraction)
    assert r.status_code == 200, r.text
    span = r.json()["rule_range"]
    assert span["together"] is True
    assert (span["minimum"]["runs"], span["maximum"]["runs"]) == (8 * 2, 8 * 6)
    full = {**fraction, "fraction": None, "repetition_rule": {**RULE, "max_repetitions": 2}}
    r = client.post(f"{API}/preview", json=full)
    assert r.status_code == 200, r.text
    assert r.json()["rule_range"]["together"] is False
