"""Every stored-experiment results route takes the window; a window outside the run is a 422."""

from typing import Any

import pytest
from fastapi.testclient import TestClient

from backend.tests.utils.experiment import create_random_experiment

TIMES = {
    "network_delay_s": 1e-4,
    "net_thread_service_s": 1e-5,
    "worker_service_s": 1e-3,
    "server_service_s": 2e-4,
}
# (method, path under /api/v1, extra query); {e} is the experiment, {c} a configuration.
ROUTES = [
    ("GET", "/experiments/{e}/results", {}),
    ("GET", "/analysis/experiments/{e}/summary", {}),
    ("GET", "/analysis/experiments/{e}/breakdown", {}),
    ("GET", "/analysis/experiments/{e}/interactive-law", {}),
    ("GET", "/analysis/experiments/{e}/little-law", {}),
    ("GET", "/analysis/experiments/{e}/saturation", {}),
    ("GET", "/analysis/experiments/{e}/relative-differences", {"factor": "workers", "base": "8"}),
    ("GET", "/analysis/experiments/{e}/factorial", {}),
    ("GET", "/analysis/experiments/{e}/percentiles", {}),
    ("GET", "/analysis/experiments/{e}/histogram", {"configuration_id": "{c}"}),
    ("POST", "/analysis/experiments/{e}/network-model", {}),
]
BAD = [
    ({"window_start_s": 5, "window_end_s": 31}, "window_end_s", "run time"),
    ({"window_start_s": 30, "window_end_s": 30}, "window_start_s", "inside the run"),
    ({"window_start_s": 10, "window_end_s": 10}, "window_end_s", "greater than"),
    ({"window_start_s": 10}, "window_end_s", "both"),
    ({"window_end_s": 10}, "window_start_s", "both"),
    ({"window_start_s": -1, "window_end_s": 10}, "window_start_s", "greater than or equal"),
]


@pytest.fixture(scope="module")
def experiment(client: TestClient) -> dict[str, Any]:
    exp = create_random_experiment(client, run_time_s=30)
    configs = client.get(f"/api/v1/experiments/{exp['id']}/configurations").json()["data"]
    return {"e": exp["id"], "c": configs[0]["id"]}


def _call(
    client: TestClient,
    route: tuple[str, str, dict[str, str]],
    ids: dict[str, Any],
    q: dict[str, Any],
) -> Any:
    method, path, extra = route
    params = {**{k: v.format(**ids) for k, v in extra.items()}, **q}
    url = "/api/v1" + path.format(**ids)
    if method == "POST":
        return client.post(url, params=params, json=TIMES)
    return client.get(url, params=params)


@pytest.mark.parametrize("route", ROUTES, ids=[r[1].rsplit("/", 1)[-1] for r in ROUTES])
@pytest.mark.parametrize("query,field,words", BAD, ids=[f"{b[1]}-{b[2]}" for b in BAD])
def test_a_window_outside_the_run_is_a_422_naming_the_field(
    client: TestClient,
    experiment: dict[str, Any],
    route: tuple[str, str, dict[str, str]],
    query: dict[str, Any],
    field: str,
    words: str,
) -> None:
    r = _call(client, route, experiment, query)
    assert r.status_code == 422, r.text
    (err,) = r.json()["detail"]
    assert err["loc"] == ["query", field]
    assert words in err["msg"]


@pytest.mark.parametrize("route", ROUTES, ids=[r[1].rsplit("/", 1)[-1] for r in ROUTES])
def test_a_window_inside_the_run_is_accepted(
    client: TestClient, experiment: dict[str, Any], route: tuple[str, str, dict[str, str]]
) -> None:
    """Nothing is stored: each route answers, or says there is no data, never about the window."""
    r = _call(client, route, experiment, {"window_start_s": 0, "window_end_s": 30})
    assert r.status_code in (200, 422), r.text
    if r.status_code == 422:
        assert all("window" not in e["loc"][-1] for e in r.json()["detail"]), r.text
