"""Every view of one stored experiment, asked through the API: each analysis route (from the
OpenAPI document), each figure and each table. A view answers content, or a 4xx that says why:
never a 5xx, an unexplained 4xx or an empty answer. Shared by the option-combination test and
the import test (an imported experiment is one more kind of stored experiment)."""

from typing import Any

from fastapi.testclient import TestClient

from backend.main import app

API = "/api/v1"


def analysis_routes() -> list[str]:
    """Every GET analysis route of one experiment, from the OpenAPI document."""
    paths = app.openapi()["paths"]
    prefix = f"{API}/analysis/experiments/{{experiment_id}}/"
    return sorted(p for p in paths if p.startswith(prefix) and "get" in paths[p])


def said_why(r: Any) -> bool:
    """A 4xx names its reason: a text, or FastAPI's list of problems each with a message."""
    detail = r.json().get("detail")
    if isinstance(detail, str):
        return len(detail.strip()) > 0
    return isinstance(detail, list) and all(d.get("msg") for d in detail) and len(detail) > 0


def checked(r: Any, what: str) -> str:
    """'content' or '4xx', failing on a 5xx, a 4xx without its reason or an empty answer."""
    assert r.status_code < 500, f"{what}: {r.status_code} {r.text[:300]}"
    if r.status_code >= 400:
        assert said_why(r), f"{what}: {r.status_code} without a reason: {r.text[:300]}"
        return "4xx"
    if r.headers["content-type"].startswith("application/json"):
        body = r.json()
        assert body, f"{what}: an empty answer"
        if isinstance(body, dict) and "data" in body and isinstance(body["data"], list):
            if what.endswith(".json"):  # a figure: some trace draws something
                drawn = [
                    t
                    for t in body["data"]
                    if any(t.get(k) for k in ("x", "y", "values", "dimensions"))
                ]
                assert drawn, f"{what}: a figure with nothing drawn"
            else:
                assert body["data"], f"{what}: an empty view"
    else:
        assert len(r.content) > 0, f"{what}: an empty file"
    return "content"


def every_view(client: TestClient, experiment_id: int) -> dict[str, str]:
    """Each analysis route, figure and table of the experiment: 'content' or '4xx'."""
    configs = client.get(f"{API}/experiments/{experiment_id}/configurations").json()["data"]
    first = configs[0] if configs else None
    seen: dict[str, str] = {}
    for path in analysis_routes():
        url = path.replace("{experiment_id}", str(experiment_id))
        params: dict[str, Any] = {}
        if path.endswith("/relative-differences") and first:
            factor = next(iter(first["values"]), "workers")
            params = {"factor": factor, "base": first["values"].get(factor)}
        if path.endswith("/histogram") and first:
            params = {"configuration_id": first["id"]}
        seen[path] = checked(client.get(url, params=params), path)
    figures = client.get(f"{API}/experiments/{experiment_id}/figures").json()["data"]
    tables = client.get(f"{API}/experiments/{experiment_id}/tables").json()["data"]
    assert figures and tables
    for fig in figures:
        name = f"figures/{fig['name']}.json"
        seen[name] = checked(client.get(f"{API}/experiments/{experiment_id}/{name}"), name)
    for table in tables:
        name = f"tables/{table['name']}.csv"
        seen[name] = checked(client.get(f"{API}/experiments/{experiment_id}/{name}"), name)
    return seen
