"""The factorial analysis takes the user's factor and level order (first level = -1), names
effects with their levels, and says where a factor has no effect by construction; the preview
warns about configurations that are the same system."""

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from backend.models import RequestType, Run, RunStatus, RunSummary
from backend.tests.utils.experiment import create_random_experiment, experiment_payload

API = "/api/v1/experiments"
ANALYSIS = "/api/v1/analysis/experiments"


def _throughput(values: dict[str, Any], repetition: int) -> float:
    # As measured in issue 36: replication "one" is faster than "all", 3 servers slower than 1.
    return float(
        24_000.0
        - 1_300.0 * (values["replication"] == "all")
        - 4_166.0 * (values["servers"] == 3)
        + 10.0 * repetition
    )


def _stored(client: TestClient, db: Session, factors: dict[str, list[Any]]) -> dict[str, Any]:
    """A stored 2^2 experiment with two finished repetitions per configuration."""
    exp = create_random_experiment(
        client, factors=factors, fixed={"ratio": "1:9", "value_size": 128}, repetitions=2
    )
    client.post(f"{API}/{exp['id']}/start")
    client.post(f"{API}/{exp['id']}/cancel")
    for run in db.scalars(select(Run).where(Run.experiment_id == exp["id"])).all():
        tp = _throughput(run.configuration.values, run.repetition)
        db.add(
            RunSummary(
                run_id=run.id,
                source="client:0",
                request_type=RequestType.ALL,
                window_start_s=5,
                window_end_s=25,
                count=int(tp * 20),
                throughput=tp,
                response_time_us=1000.0,
            )
        )
    db.execute(update(Run).where(Run.experiment_id == exp["id"]).values(status=RunStatus.SUCCEEDED))
    db.commit()
    return exp


def _factorial(client: TestClient, exp: dict[str, Any]) -> dict[str, Any]:
    r = client.get(f"{ANALYSIS}/{exp['id']}/factorial", params={"confidence": 0.9})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_reversed_factors_and_levels_keep_the_effects_meaning(
    client: TestClient, db: Session
) -> None:
    given = _factorial(
        client, _stored(client, db, {"servers": [1, 3], "replication": ["one", "all"]})
    )
    flipped = _factorial(
        client, _stored(client, db, {"replication": ["all", "one"], "servers": [3, 1]})
    )
    assert given["factors"] == ["servers", "replication"]
    assert given["levels"] == {"servers": [1, 3], "replication": ["one", "all"]}
    assert flipped["factors"] == ["replication", "servers"]
    assert flipped["levels"] == {"replication": ["all", "one"], "servers": [3, 1]}
    one = {e["name"]: e for e in given["effects"]}
    two = {e["name"]: e for e in flipped["effects"]}
    # q = half the change from the first level entered to the second.
    assert one["servers"]["value"] == pytest.approx(-2_083.0)
    assert one["servers"]["label"] == "Memcached servers 1 → 3"
    assert two["servers"]["value"] == pytest.approx(2_083.0)
    assert two["servers"]["label"] == "Memcached servers 3 → 1"
    assert one["replication"]["value"] == pytest.approx(-650.0)
    assert one["replication"]["label"] == "Replication (servers) one → all"
    assert two["replication"]["value"] == pytest.approx(650.0)
    assert two["replication"]["label"] == "Replication (servers) all → one"
    # A is the first factor entered.
    assert given["effects"][1]["factors"] == ["servers"]
    assert flipped["effects"][1]["factors"] == ["replication"]
    assert given["main_effects"]["replication"][0] > given["main_effects"]["replication"][1]


def test_factorial_says_where_a_factor_has_no_effect_by_construction(
    client: TestClient, db: Session
) -> None:
    exp = _stored(client, db, {"servers": [1, 3], "replication": ["one", "all"]})
    body = _factorial(client, exp)
    assert len(body["no_effect"]) == 1
    note = body["no_effect"][0]
    assert note["factor"] == "replication"
    assert note["where"] == "where servers = 1"
    assert len(note["configurations"]) == 2
    assert "1 server" in note["reason"]
    assert note["text"].startswith("replication one → all has no effect by construction where")
    # The factorial table (the report's and the exports') names effects with their levels
    # and carries the note in its caption.
    tex = client.get(f"{API}/{exp['id']}/tables/factorial.tex")
    assert tex.status_code == 200, tex.text
    assert "replication one" in tex.text and "has no effect by construction where" in tex.text
    assert "Memcached servers 1 " in tex.text
    csv_rows = client.get(f"{API}/{exp['id']}/tables/factorial.csv").text.splitlines()
    assert any(row.startswith("Replication (servers) one → all,") for row in csv_rows)


def test_no_note_where_every_level_pair_differs(client: TestClient, db: Session) -> None:
    body = _factorial(
        client, _stored(client, db, {"servers": [2, 3], "replication": ["one", "all"]})
    )
    assert body["no_effect"] == []


def test_preview_warns_about_configurations_that_are_the_same_system(client: TestClient) -> None:
    r = client.post(
        f"{API}/preview",
        json=experiment_payload(
            factors={"servers": [1, 3], "replication": ["one", "all"], "workers": [8, 32]},
            fixed={"ratio": "1:9"},
        ),
    )
    assert r.status_code == 200, r.text
    groups = r.json()["same_system"]
    # servers 1 with one and all, at each worker count: two pairs.
    assert len(groups) == 2
    for g in groups:
        assert [v["servers"] for v in g["values"]] == [1, 1]
        assert {v["replication"] for v in g["values"]} == {"one", "all"}
        assert len({v["workers"] for v in g["values"]}) == 1
        assert g["reasons"] == ["with 1 server every set is written to that one server"]
        assert all(
            r.json()["points"][i] == v for i, v in zip(g["points"], g["values"], strict=True)
        )


def test_preview_warns_about_multiget_sizes_of_a_read_free_mix(client: TestClient) -> None:
    r = client.post(
        f"{API}/preview",
        json=experiment_payload(
            factors={"multiget_size": [1, 4], "ratio": ["1:0", "1:1"]}, fixed={"servers": 2}
        ),
    )
    assert r.status_code == 200, r.text
    groups = r.json()["same_system"]
    assert len(groups) == 1
    assert {v["ratio"] for v in groups[0]["values"]} == {"1:0"}
    assert "read-free" in groups[0]["reasons"][0]


def test_preview_of_distinct_configurations_has_no_warning(client: TestClient) -> None:
    r = client.post(f"{API}/preview", json=experiment_payload())
    assert r.status_code == 200 and r.json()["same_system"] == []
