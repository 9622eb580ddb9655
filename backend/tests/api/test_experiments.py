"""Experiment design endpoints against a real PostgreSQL database."""

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from backend.api.routes.experiment_runs import INVALID_DESIGN
from backend.models import Configuration, Experiment
from backend.tests.utils.experiment import (
    create_random_experiment,
    experiment_payload,
    random_name,
)

API = "/api/v1/experiments"


def _count(db: Session, model: type) -> int:
    db.expire_all()
    return db.scalar(select(func.count()).select_from(model)) or 0


def test_create_experiment_stores_grid(client: TestClient, db: Session) -> None:
    body = create_random_experiment(client)
    assert body["status"] == "draft"
    # The overhead per run comes from the testbed's runs (test_run_overhead.py).
    overhead = body["preview"]["overhead"]
    assert body["preview"] == {
        "configurations": 4,
        "runs": 8,
        "estimated_seconds": round(8 * (30 + overhead["seconds"])),
        "overhead": overhead,
        "stable_window": {"start_s": 5, "end_s": 25},
        "cost": None,  # not on an Azure testbed
        "fraction": None,  # the full grid
        "rule_range": None,  # fixed repetitions
        "slo_search": None,  # a grid, counted exactly
    }
    assert body["run_counts"]["queued"] == 0
    configs = db.scalars(
        select(Configuration)
        .where(Configuration.experiment_id == body["id"])
        .order_by(Configuration.index)
    ).all()
    assert [c.values for c in configs] == [
        {"clients_per_thread": 1, "workers": 8},
        {"clients_per_thread": 1, "workers": 16},
        {"clients_per_thread": 4, "workers": 8},
        {"clients_per_thread": 4, "workers": 16},
    ]


def test_read_configurations_has_effective_parameters(client: TestClient) -> None:
    body = create_random_experiment(client)
    r = client.get(f"{API}/{body['id']}/configurations")
    assert r.status_code == 200
    first = r.json()["data"][0]
    assert first["parameters"]["servers"] == 2  # fixed
    assert first["parameters"]["key_maximum"] == 10_000  # default
    assert first["parameters"]["workers"] == 8  # factor


def test_read_experiment_not_found(client: TestClient) -> None:
    r = client.get(f"{API}/999999999")
    assert r.status_code == 404
    assert r.json()["detail"] == "Experiment not found"


def _error(r: object) -> dict[str, object]:
    assert r.status_code == 422, r.text  # type: ignore[attr-defined]
    detail = r.json()["detail"]  # type: ignore[attr-defined]
    assert len(detail) >= 1
    return detail[0]  # type: ignore[no-any-return]


def test_create_rejects_bad_input_without_writing(client: TestClient, db: Session) -> None:
    before = (_count(db, Experiment), _count(db, Configuration))
    cases: list[tuple[dict[str, Any], list[str], str]] = [
        ({"factors": {"colour": [1]}}, ["body", "factors", "colour"], "unknown parameter"),
        ({"factors": {"servers": []}}, ["body", "factors", "servers"], "non-empty"),
        ({"factors": {"servers": [0, 1]}}, ["body", "factors", "servers"], "outside"),
        (
            {"factors": {"clients_per_thread": [10**9]}},
            ["body", "factors", "clients_per_thread"],
            "outside",
        ),
        ({"factors": {"workers": ["many"]}}, ["body", "factors", "workers"], "integer"),
        ({"fixed": {"ratio": "half"}}, ["body", "fixed", "ratio"], "SET:GET"),
        (
            {"factors": {"replication": [1, 5]}, "fixed": {"servers": 3}},
            ["body", "factors", "replication"],
            "only 3 server",
        ),
        (
            {
                "factors": {
                    "workers": list(range(1, 257)),
                    "clients_per_thread": list(range(1, 101)),
                }
            },
            ["body", "factors"],
            "limit",
        ),
        ({"repetitions": 0}, ["body", "repetitions"], "greater than or equal"),
        (
            {"run_time_s": 20, "warmup_s": 10, "cooldown_s": 10},
            ["body", "cooldown_s"],
            "warm-up plus cool-down (20 s) must be shorter than the run time (20 s)",
        ),
        ({"name": "   "}, ["body", "name"], "blank"),
        ({"testbed_id": 987654321}, ["body", "testbed_id"], "does not exist"),
    ]
    for overrides, loc, fragment in cases:
        err = _error(client.post(API, json=experiment_payload(**overrides)))
        assert err["loc"] == loc, (overrides, err)
        assert fragment in str(err["msg"]), (overrides, err)
    assert (_count(db, Experiment), _count(db, Configuration)) == before


def test_create_checks_the_window_with_defaults(client: TestClient, db: Session) -> None:
    """Only warm-up sent: the default run time (90 s) and cool-down (10 s) are checked with it,
    and nothing is stored."""
    before = _count(db, Experiment)
    payload = {
        k: v for k, v in experiment_payload().items() if k not in ("run_time_s", "cooldown_s")
    }
    err = _error(client.post(API, json={**payload, "warmup_s": 304}))
    assert err["loc"] == ["body", "warmup_s"]  # the field the request sent
    assert "(314 s) must be shorter than the run time (90 s)" in str(err["msg"])
    assert _count(db, Experiment) == before
    assert client.get(API).status_code == 200


def test_create_duplicate_name(client: TestClient) -> None:
    body = create_random_experiment(client)
    err = _error(client.post(API, json=experiment_payload(name=body["name"])))
    assert err["loc"] == ["body", "name"] and "already exists" in str(err["msg"])


def test_preview_does_not_store(client: TestClient, db: Session) -> None:
    before = _count(db, Experiment)
    r = client.post(
        f"{API}/preview",
        json=experiment_payload(
            factors={"servers": [3, 5, 7], "replication": ["one", "half", "all"]},
            fixed={},
            repetitions=3,
        ),
    )
    assert r.status_code == 200
    assert r.json()["configurations"] == 9 and r.json()["runs"] == 27
    assert r.json()["points"][4] == {"servers": 5, "replication": "half"}
    assert _count(db, Experiment) == before


def test_preview_serves_the_window_of_the_design(client: TestClient) -> None:
    r = client.post(
        f"{API}/preview",
        json=experiment_payload(run_time_s=60, warmup_s=12, cooldown_s=3),
    )
    assert r.status_code == 200
    assert r.json()["stable_window"] == {"start_s": 12, "end_s": 57}


def test_stored_design_without_a_window_still_lists(client: TestClient, db: Session) -> None:
    """A row stored before every field was checked against the window (warm-up 304 s of a
    90 s run) is served with no window instead of failing the list for everyone."""
    body = create_random_experiment(client)
    exp = db.get(Experiment, body["id"])
    assert exp is not None
    exp.warmup_s, exp.run_time_s, exp.cooldown_s = 304, 90, 0
    db.commit()
    listed = client.get(API, params={"q": body["name"]})
    assert listed.status_code == 200
    assert listed.json()["data"][0]["preview"]["stable_window"] is None
    one = client.get(f"{API}/{body['id']}")
    assert one.status_code == 200 and one.json()["preview"]["stable_window"] is None


def test_list_filters_and_pages(client: TestClient) -> None:
    tag = random_name("list")
    for i in range(3):
        create_random_experiment(client, name=f"{tag}-{i}", template="factorial")
    r = client.get(API, params={"q": tag, "limit": 2})
    assert r.status_code == 200
    assert r.json()["count"] == 3 and len(r.json()["data"]) == 2
    assert r.json()["data"][0]["name"] == f"{tag}-2"  # newest first
    r = client.get(API, params={"q": tag, "template": "custom"})
    assert r.json()["count"] == 0
    r = client.get(API, params={"q": "%"})  # a LIKE wildcard is matched literally
    assert all("%" in e["name"] for e in r.json()["data"])


def test_update_replaces_grid(client: TestClient) -> None:
    body = create_random_experiment(client)
    r = client.put(
        f"{API}/{body['id']}",
        json=experiment_payload(name=body["name"], factors={"servers": [1, 3, 5]}, fixed={}),
    )
    assert r.status_code == 200, r.text
    assert r.json()["preview"]["configurations"] == 3
    configs = client.get(f"{API}/{body['id']}/configurations").json()
    assert [c["values"] for c in configs["data"]] == [{"servers": s} for s in (1, 3, 5)]


def test_update_rejected_keeps_old_design(client: TestClient) -> None:
    body = create_random_experiment(client)
    r = client.put(
        f"{API}/{body['id']}",
        json=experiment_payload(name=body["name"], factors={"servers": [1, 99]}, fixed={}),
    )
    assert r.status_code == 422
    assert client.get(f"{API}/{body['id']}/configurations").json()["count"] == 4


def test_duplicate_and_delete(client: TestClient, db: Session) -> None:
    body = create_random_experiment(client)
    r = client.post(f"{API}/{body['id']}/duplicate", json={"name": random_name("copy")})
    assert r.status_code == 201, r.text
    copy = r.json()
    assert copy["factors"] == body["factors"] and copy["id"] != body["id"]
    assert client.get(f"{API}/{copy['id']}/configurations").json()["count"] == 4
    assert client.delete(f"{API}/{copy['id']}").status_code == 204
    assert client.get(f"{API}/{copy['id']}").status_code == 404
    db.expire_all()
    assert db.scalar(select(func.count()).where(Configuration.experiment_id == copy["id"])) == 0


def test_parameters_and_templates(client: TestClient) -> None:
    params = {p["name"]: p for p in client.get("/api/v1/parameters").json()}
    assert params["servers"]["minimum"] == 1 and params["value_size"]["unit"] == "bytes"
    templates = {t["id"]: t for t in client.get("/api/v1/templates").json()}
    assert templates["factorial"]["factors"]["workers"] == [8, 32]


def test_create_checks_the_window_whatever_subset_is_sent(client: TestClient, db: Session) -> None:
    # Issue 30: a warm-up alone, against the default run time (90 s) and cool-down (10 s),
    # answered 500 after committing the row, and every list page answered 500 after it.
    before = (_count(db, Experiment), _count(db, Configuration))
    name = random_name("warmup-only")
    cases: list[tuple[dict[str, Any], str, int]] = [
        ({"name": name, "warmup_s": 304}, "warmup_s", 304),
        ({"name": name, "run_time_s": 15}, "run_time_s", 15),
        ({"name": name, "warmup_s": 40, "run_time_s": 50}, "warmup_s", 40),
        ({"name": name, "cooldown_s": 85}, "cooldown_s", 85),
    ]
    for body, field, value in cases:
        r = client.post(API, json=body)
        assert r.status_code == 422, (body, r.text)
        err = r.json()["detail"][0]
        assert err["loc"] == ["body", field] and err["input"] == value, (body, err)
        assert "must be shorter than the run time" in err["msg"]
    assert (_count(db, Experiment), _count(db, Configuration)) == before
    assert client.get(API, params={"q": name}).json()["count"] == 0
    assert client.get(API).status_code == 200
    # The whole design at its defaults passes.
    assert client.post(API, json={"name": name}).status_code == 201


def test_update_checks_the_merged_design(client: TestClient) -> None:
    body = create_random_experiment(client)  # run time 30 s, warm-up and cool-down 5 s
    r = client.put(f"{API}/{body['id']}", json={"name": body["name"], "warmup_s": 120})
    assert r.status_code == 422, r.text
    assert r.json()["detail"][0]["loc"] == ["body", "warmup_s"]
    kept = client.get(f"{API}/{body['id']}").json()
    assert (kept["warmup_s"], kept["run_time_s"], kept["factors"]) == (5, 30, body["factors"])
    assert client.get(f"{API}/{body['id']}/configurations").json()["count"] == 4


def test_a_stored_row_that_breaks_a_rule_is_still_served(client: TestClient, db: Session) -> None:
    # A row stored before the rule (or by hand): listed and readable; duplicating it or
    # starting it is refused with the field named, never a 500.
    body = create_random_experiment(client)
    db.execute(update(Experiment).where(Experiment.id == body["id"]).values(warmup_s=304))
    db.commit()
    listed = client.get(API, params={"limit": 500})
    assert listed.status_code == 200, listed.text
    row = next(e for e in listed.json()["data"] if e["id"] == body["id"])
    assert row["warmup_s"] == 304
    assert client.get(f"{API}/{body['id']}").json()["warmup_s"] == 304
    r = client.post(f"{API}/{body['id']}/duplicate", json={"name": random_name("copy")})
    assert r.status_code == 422, r.text
    # Every field of a stored design is given, so the form's last window field is named.
    err = r.json()["detail"][0]
    assert err["loc"] == ["body", "cooldown_s"] and "(309 s)" in err["msg"], err
    r = client.post(f"{API}/{body['id']}/start")
    assert r.status_code == 409, r.text
    assert r.json()["detail"].startswith(INVALID_DESIGN)
    # PUT (no runs yet) is the way to correct it.
    fixed = experiment_payload(name=body["name"], warmup_s=5)
    assert client.put(f"{API}/{body['id']}", json=fixed).status_code == 200


def test_every_problem_of_a_design_in_one_422(client: TestClient, db: Session) -> None:
    # Issue 27.5: the field errors came first and the design's only after them, one at a time.
    before = (_count(db, Experiment), _count(db, Configuration))
    body = {
        "name": " ",
        "repetitions": 0,
        "fixed": {"servers": 0, "workers": 8, "value_size": -1},
        "factors": {"colour": [1], "middlewares": [1, 2]},
        "warmup_s": 200,
    }
    for method, url in (("POST", API), ("POST", f"{API}/preview")):
        r = client.request(method, url, json=body)
        assert r.status_code == 422, r.text
        errors = {tuple(e["loc"]): e["msg"] for e in r.json()["detail"]}
        assert set(errors) == {
            ("body", "name"),
            ("body", "repetitions"),
            ("body", "fixed", "servers"),
            ("body", "fixed", "value_size"),
            ("body", "factors", "colour"),
            ("body", "warmup_s"),
        }, errors
        assert "blank" in errors[("body", "name")]
        assert "outside the allowed range" in errors[("body", "fixed", "servers")]
        assert "unknown parameter" in errors[("body", "factors", "colour")]
        assert "must be shorter than the run time" in errors[("body", "warmup_s")]
    assert (_count(db, Experiment), _count(db, Configuration)) == before


def test_valid_fields_with_every_design_problem_and_a_taken_name(client: TestClient) -> None:
    taken = create_random_experiment(client)
    body = experiment_payload(
        name=taken["name"], fixed={"servers": 0, "workers": 0}, factors={"sharded": [1]}
    )
    r = client.post(API, json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert {tuple(e["loc"]) for e in detail} == {
        ("body", "name"),
        ("body", "fixed", "servers"),
        ("body", "fixed", "workers"),
        ("body", "factors", "sharded"),
    }, detail
    echoed = {tuple(e["loc"]): e["input"] for e in detail}
    assert echoed[("body", "fixed", "servers")] == 0
    # Editing: the same problems, and the stored design is kept.
    r = client.put(f"{API}/{taken['id']}", json={**body, "name": taken["name"]})
    assert r.status_code == 422, r.text
    assert len(r.json()["detail"]) == 3
    assert client.get(f"{API}/{taken['id']}/configurations").json()["count"] == 4
