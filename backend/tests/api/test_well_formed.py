"""The edge rule on every request value (backend.api.well_formed): non-finite numbers, NUL and
lone surrogates are a 422 naming the field, with a body that is strict JSON, and nothing is
stored. Issue 30: each of these answered 500 (the 422 itself could not be serialised)."""

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from backend.models import Experiment, Report, SavedView
from backend.tests.utils.experiment import create_random_experiment, random_name

API = "/api/v1"


def _refuse_constant(text: str) -> Any:
    raise AssertionError(f"the answer is not strict JSON: it holds {text}")


def _detail(r: Any) -> list[dict[str, Any]]:
    """The 422's items, read as strict JSON (no NaN, no Infinity)."""
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/json")
    body = json.loads(r.content, parse_constant=_refuse_constant)
    r.content.decode("utf-8")  # raises on an unencodable echo
    detail: list[dict[str, Any]] = body["detail"]
    return detail


def _post_raw(client: TestClient, path: str, text: str, method: str = "POST") -> Any:
    return client.request(
        method, f"{API}{path}", content=text.encode(), headers={"content-type": "application/json"}
    )


def _count(db: Session, model: type) -> int:
    db.expire_all()
    return int(db.scalar(select(func.count()).select_from(model)) or 0)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_non_finite_numbers_are_refused_naming_the_field(
    client: TestClient, db: Session, number: str
) -> None:
    before = _count(db, Experiment)
    name = json.dumps(random_name())
    cases = [
        ("/experiments", f'{{"name": {name}, "repetitions": {number}}}', ["body", "repetitions"]),
        (
            "/experiments",
            f'{{"name": {name}, "fixed": {{"servers": {number}}}}}',
            ["body", "fixed", "servers"],
        ),
        (
            "/experiments",
            f'{{"name": {name}, "factors": {{"workers": [8, {number}]}}}}',
            ["body", "factors", "workers", 1],
        ),
        (
            "/analysis/mm1",
            f'{{"arrival_rate_per_s": {number}, "service_rate_per_s": 10}}',
            ["body", "arrival_rate_per_s"],
        ),
    ]
    for path, text, loc in cases:
        detail = _detail(_post_raw(client, path, text))
        assert detail[0]["loc"] == loc, (text, detail)
        assert detail[0]["type"] == "finite_number" and detail[0]["input"] == number
    assert _count(db, Experiment) == before


@pytest.mark.parametrize("number", ["nan", "inf", "-inf", "1e400"])
def test_non_finite_query_numbers_answer_json(client: TestClient, number: str) -> None:
    exp = create_random_experiment(client)
    cases = [
        (f"/analysis/experiments/{exp['id']}/interactive-law", "think_time_s"),
        (f"/analysis/experiments/{exp['id']}/network-inputs", "server_utilization"),
        (f"/analysis/experiments/{exp['id']}/saturation", "fraction"),
        (f"/experiments/{exp['id']}/figures/throughput.json", "height"),
    ]
    for path, field in cases:
        detail = _detail(client.get(f"{API}{path}", params={field: number}))
        assert detail[0]["loc"] == ["query", field], (path, detail)


@pytest.mark.parametrize(
    ("char", "kind"), [("\\u0000", "string_nul"), ("\\ud800", "string_unicode")]
)
def test_nul_and_lone_surrogates_are_refused_in_every_text(
    client: TestClient, db: Session, char: str, kind: str
) -> None:
    exp = create_random_experiment(client)
    before = (_count(db, Experiment), _count(db, Report), _count(db, SavedView))
    view = json.dumps({"experiment_ids": [exp["id"]]})
    cases = [
        ("POST", "/experiments", f'{{"name": "a{char}b"}}', ["body", "name"]),
        (
            "POST",
            "/experiments",
            f'{{"name": "ok", "description": "x{char}"}}',
            ["body", "description"],
        ),
        ("PUT", f"/experiments/{exp['id']}/report", f'{{"notes": "n{char}"}}', ["body", "notes"]),
        (
            "PUT",
            f"/experiments/{exp['id']}/report",
            f'{{"hypothesis": "{char}"}}',
            ["body", "hypothesis"],
        ),
        (
            "PUT",
            f"/experiments/{exp['id']}/report",
            f'{{"items": [{{"kind": "figure", "name": "throughput", "explanation": "{char}"}}]}}',
            ["body", "items", 0, "explanation"],
        ),
        ("POST", "/views", f'{{"name": "v{char}", "state": {view}}}', ["body", "name"]),
        (
            "POST",
            "/views",
            f'{{"name": "v", "state": {{"experiment_ids": [1], "x": "{char}"}}}}',
            ["body", "state", "x"],
        ),
        (
            "POST",
            f"/experiments/{exp['id']}/duplicate",
            f'{{"name": "{char}"}}',
            ["body", "name"],
        ),
    ]
    for method, path, text, loc in cases:
        detail = _detail(_post_raw(client, path, text, method))
        assert detail[0]["loc"] == loc, (text, detail)
        assert detail[0]["type"] == kind
    # A key of a free-form field is named too.
    detail = _detail(
        _post_raw(client, "/experiments", f'{{"name": "k", "fixed": {{"se{char}rvers": 2}}}}')
    )
    assert detail[0]["loc"][:2] == ["body", "fixed"] and detail[0]["type"] == kind
    assert (_count(db, Experiment), _count(db, Report), _count(db, SavedView)) == before


def test_nul_in_a_query_is_refused(client: TestClient) -> None:
    detail = _detail(client.get(f"{API}/experiments", params={"q": "a\x00b"}))
    assert detail[0]["loc"] == ["query", "q"] and detail[0]["type"] == "string_nul"
