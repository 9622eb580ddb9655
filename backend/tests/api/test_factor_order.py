"""The order of factors is data: served as the user gave it, so the first factor is the default
x of the results figures, the report and the tables (PostgreSQL sorts JSONB object keys)."""

import importlib.util
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend.tests.utils.experiment import create_random_experiment, experiment_payload
from backend.tests.utils.stored import stored_experiment

API = "/api/v1/experiments"
# JSONB would serve these as workers, then clients_per_thread (shorter keys first).
ORDER = ["clients_per_thread", "workers"]

pytestmark = pytest.mark.usefixtures("closes_renderer")


def test_factor_order_survives_save_and_reload(client: TestClient) -> None:
    exp = create_random_experiment(client, factors={"clients_per_thread": [1, 4], "workers": [8]})
    assert list(exp["factors"]) == ORDER
    assert list(client.get(f"{API}/{exp['id']}").json()["factors"]) == ORDER
    listed = client.get(API, params={"q": exp["name"]}).json()["data"]
    assert [list(e["factors"]) for e in listed if e["id"] == exp["id"]] == [ORDER]
    configs = client.get(f"{API}/{exp['id']}/configurations").json()["data"]
    assert [list(c["values"]) for c in configs] == [ORDER, ORDER]
    # A replaced design keeps its own order, and so does a duplicate.
    reordered = experiment_payload(
        name=exp["name"], factors={"workers": [8, 16], "clients_per_thread": [1]}
    )
    r = client.put(f"{API}/{exp['id']}", json=reordered)
    assert r.status_code == 200, r.text
    assert list(client.get(f"{API}/{exp['id']}").json()["factors"]) == ["workers", *ORDER[:1]]
    copy = client.post(f"{API}/{exp['id']}/duplicate", json={"name": exp["name"] + " copy"})
    assert list(copy.json()["factors"]) == ["workers", "clients_per_thread"]


def test_first_factor_is_the_default_x_of_figures_and_tables(
    client: TestClient, db: Session
) -> None:
    exp = stored_experiment(client, db)
    fig = client.get(f"{API}/{exp['id']}/figures/throughput.json").json()
    assert fig["layout"]["xaxis"]["title"]["text"] == "Clients per thread"
    assert fig["layout"]["meta"]["caption"].startswith(
        "Throughput against clients per thread, one line per worker threads"
    )
    results = client.get(f"{API}/{exp['id']}/results").json()["data"]
    assert all(list(r["values"]) == ORDER for r in results)
    header = client.get(f"{API}/{exp['id']}/tables/summary.csv").text.splitlines()[0]
    assert header.startswith("Clients per thread,Worker threads")


def _migration() -> object:
    path = Path(__file__).parents[3] / "migrations/versions/0017_factor_order.py"
    spec = importlib.util.spec_from_file_location("factor_order_migration", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_migration_recovers_the_order_a_grid_was_expanded_in() -> None:
    expansion_order = _migration().expansion_order  # type: ignore[attr-defined]
    # Row-major: the first factor changes least often along the configurations.
    points = [
        {"workers": w, "clients_per_thread": c, "ratio": "1:1"} for c in (1, 4, 8) for w in (8, 16)
    ]
    assert expansion_order(["workers", "ratio", "clients_per_thread"], points) == [
        "ratio",
        "clients_per_thread",
        "workers",
    ]
