"""Fractional designs through the API: the preview's fraction, aliases and detectable
effects, the stored fraction's runs, its 2^(k-p) r analysis, and 422s naming the field."""

import math
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import Run, RunStatus
from backend.tests.utils.experiment import create_random_experiment, random_name
from backend.tests.utils.stored import stored_summary

API = "/api/v1/experiments"
ANALYSIS = "/api/v1/analysis/experiments"
SEVEN = {
    "servers": [1, 2],
    "workers": [8, 16],
    "clients_per_thread": [1, 4],
    "value_size": [128, 4096],
    "threads_per_instance": [1, 2],
    "instances_per_machine": [1, 2],
    "queue_capacity": [512, 1024],
}


def _design(**over: Any) -> dict[str, Any]:
    return {
        "name": random_name(),
        "factors": SEVEN,
        "fixed": {"ratio": "0:1"},
        "repetitions": 1,
        "run_time_s": 30,
        "warmup_s": 5,
        "cooldown_s": 5,
        **over,
    }


def _preview(client: TestClient, body: dict[str, Any], **params: Any) -> Any:
    r = client.post(f"{API}/preview", json=body, params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_preview_of_a_resolution_iii_fraction_shows_its_aliases(client: TestClient) -> None:
    body = _preview(client, _design(fraction={"resolution": 3}), noise_std=100.0)
    assert (body["configurations"], body["runs"]) == (8, 8)
    f = body["fraction"]
    assert (f["k"], f["p"], f["resolution"], f["resolution_roman"]) == (7, 4, 3, "III")
    assert f["generators"] == ["D = AB", "E = AC", "F = BC", "G = ABC"]
    assert f["letters"]["A"] == "servers" and f["letters"]["G"] == "queue_capacity"
    labels = [a["label"] for a in f["aliases"]]
    assert labels[1] == "A + BD + CE + FG + BCG + BEF + CDF + DEG + ..."
    assert len(labels) == 8
    # Every point follows the generators: D (value_size) high exactly when A and B agree.
    for p in body["points"]:
        assert (p["value_size"] == 4096) == ((p["servers"] == 2) == (p["workers"] == 16))
    # The designs beside it: full 2^7, III (8), IV (16), VII (64), with their detectable
    # effects at sigma 100; the 8-run III is the chosen one: 2 x 100 x 2.8016 / sqrt(8).
    designs = {d["design"]: d for d in body["power"]["designs"]}
    assert set(designs) == {"2^7 full", "2^(7-4) III", "2^(7-3) IV", "2^(7-1) VII"}
    iii = designs["2^(7-4) III"]
    assert iii["chosen"] and iii["runs"] == 8 and iii["error_dof"] == 0
    assert abs(iii["min_effect"] - 198.10) < 0.01
    assert designs["2^7 full"]["runs"] == 128 and not designs["2^7 full"]["chosen"]
    assert designs["2^7 full"]["min_effect"] < iii["min_effect"]
    assert body["power"]["noise"]["std"] == 100.0


def test_preview_by_generators_of_a_resolution_v_fraction(client: TestClient) -> None:
    five = dict(list(SEVEN.items())[:5])
    body = _preview(client, _design(factors=five, fraction={"generators": ["E = ABCD"]}))
    assert body["configurations"] == 16
    assert body["fraction"]["resolution_roman"] == "V"
    assert body["fraction"]["defining_relation"] == ["ABCDE"]
    assert "AB + CDE" in [a["label"] for a in body["fraction"]["aliases"]]
    # Without a noise estimate the designs are listed without effect sizes.
    assert body["power"]["noise"] is None
    assert all(d["min_effect"] is None for d in body["power"]["designs"])


def test_full_grid_preview_lists_its_fractions(client: TestClient) -> None:
    four = dict(list(SEVEN.items())[:4])
    body = _preview(client, _design(factors=four, repetitions=2), noise_std=1.0)
    assert body["fraction"] is None
    chosen = [d for d in body["power"]["designs"] if d["chosen"]]
    assert [d["design"] for d in chosen] == ["2^4 full"]
    assert chosen[0]["error_dof"] == 16


def _problem(client: TestClient, body: dict[str, Any], **params: Any) -> dict[str, Any]:
    r = client.post(f"{API}/preview", json=body, params=params)
    assert r.status_code == 422, r.text
    detail: dict[str, Any] = r.json()["detail"][0]
    return detail


def test_bad_generators_and_resolutions_are_422_naming_the_field(client: TestClient) -> None:
    d = _problem(client, _design(fraction={"generators": ["D = A"]}))
    assert d["loc"] == ["body", "fraction", "generators"]
    assert "aliases two main effects" in d["msg"]
    d = _problem(client, _design(fraction={"generators": ["H = AB"]}))
    assert d["loc"] == ["body", "fraction", "generators"] and "H is not one of" in d["msg"]
    d = _problem(client, _design(fraction={"resolution": 2}))
    assert d["loc"] == ["body", "fraction", "resolution"]
    d = _problem(client, _design(fraction={"resolution": 8}))
    assert d["loc"] == ["body", "fraction", "resolution"] and "3..7" in d["msg"]
    d = _problem(client, _design(fraction={"resolution": 3, "generators": ["D = AB"]}))
    assert d["loc"] == ["body", "fraction"]
    three = {**SEVEN, "workers": [8, 16, 32]}
    d = _problem(client, _design(factors=three, fraction={"resolution": 3}))
    assert d["loc"] == ["body", "factors", "workers"] and "exactly two" in d["msg"]
    d = _problem(client, _design(), power=1.5)
    assert d["loc"] == ["query", "power"]
    d = _problem(client, _design(), noise_experiment_id=999_999)
    assert d["loc"] == ["query", "noise_experiment_id"]


# Throughput by (clients_per_thread, workers) cell; value_size = C follows C = AB.
CELLS = {(1, 8): [10.0, 12.0], (4, 8): [20.0, 22.0], (1, 16): [30.0, 28.0], (4, 16): [50.0, 54.0]}


def _fractional_experiment(client: TestClient, db: Session, generator: str) -> dict[str, Any]:
    """A stored, 'run' 2^(3-1) x 2 experiment whose client throughput is CELLS."""
    exp = create_random_experiment(
        client,
        factors={"clients_per_thread": [1, 4], "workers": [8, 16], "value_size": [128, 4096]},
        fixed={"servers": 2, "ratio": "0:1"},
        fraction={"generators": [generator]},
    )
    assert exp["preview"]["configurations"] == 4 and exp["preview"]["runs"] == 8
    assert exp["fraction"] == {"generators": [generator], "resolution": None}
    assert exp["preview"]["fraction"]["generators"] == [generator]
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    runs = db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all()
    assert len(runs) == 8
    for run in runs:
        v = run.configuration.values
        tp = CELLS[(v["clients_per_thread"], v["workers"])][run.repetition]
        db.add(stored_summary(run.id, "client:0", tp, 500.0))
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def test_fractional_experiment_analysis_names_the_aliases(client: TestClient, db: Session) -> None:
    exp = _fractional_experiment(client, db, "C = AB")
    r = client.get(f"{ANALYSIS}/{exp['id']}/factorial", params={"confidence": 0.9})
    assert r.status_code == 200, r.text
    body = r.json()
    effects = {e["name"]: e["value"] for e in body["effects"]}
    # By hand (tests/analysis/test_fractional.py): cell means 11, 21, 29, 52.
    assert effects == pytest.approx(
        {
            "I": 28.25,
            "clients_per_thread + workers:value_size": 8.25,
            "workers + clients_per_thread:value_size": 12.25,
            "value_size + clients_per_thread:workers": 3.25,
        }
    )
    assert body["error_variance"] == pytest.approx(3.5)
    assert body["levels"]["value_size"] == [128, 4096]
    bad = client.get(f"{ANALYSIS}/{exp['id']}/factorial", params={"factors": "workers,value_size"})
    assert bad.status_code == 422
    assert bad.json()["detail"][0]["loc"] == ["query", "factors"]

    # Its noise plans the next design: pooled std sqrt(14 / 4) over 4 degrees of freedom.
    five = dict(list(SEVEN.items())[:5])
    plan = _preview(
        client,
        _design(factors=five, fraction={"resolution": 5}),
        noise_experiment_id=exp["id"],
        noise_metric="throughput_per_s",
        alpha=0.05,
        power=0.8,
    )["power"]
    assert plan["noise"]["std"] == pytest.approx(math.sqrt(3.5))
    assert plan["noise"]["degrees_of_freedom"] == 4
    assert plan["noise"]["experiment"] == exp["name"]
    v = next(d for d in plan["designs"] if d["chosen"])
    # 2^(5-1), r = 1: 2 sigma (z_0.975 + z_0.8) / sqrt(16)
    assert v["min_effect"] == pytest.approx(2 * math.sqrt(3.5) * 2.801585 / 4, rel=1e-6)

    # A copy keeps the fraction.
    copy = client.post(f"{API}/{exp['id']}/duplicate", json={"name": random_name()})
    assert copy.status_code in (200, 201), copy.text
    assert copy.json()["fraction"] == exp["fraction"]
