"""Each domain error a service raises reaches the client as its one HTTP status and body
(backend/api/errors.py), however deep below the route it was raised."""

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from backend.analysis.errors import AnalysisError
from backend.api.errors import add_error_handlers
from backend.domain.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NotApplicable,
    NotFound,
    Unavailable,
)


def _service(error: DomainError) -> None:
    """Stands for a service: it knows nothing of HTTP and raises in the domain's words."""
    raise error


def _app(error: DomainError) -> TestClient:
    app = FastAPI()
    add_error_handlers(app)

    @app.get("/thing")
    def read_thing() -> None:
        _service(error)

    @app.post("/thing")
    def create_thing() -> None:
        _service(error)

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize(
    ("error", "code", "detail"),
    [
        (NotFound("Experiment not found"), 404, "Experiment not found"),
        (Conflict("The experiment has runs"), 409, "The experiment has runs"),
        (Unavailable("Redis does not answer"), 503, "Redis does not answer"),
    ],
)
def test_read_thing_maps_error_to_status(error: DomainError, code: int, detail: str) -> None:
    res = _app(error).get("/thing")
    assert res.status_code == code
    assert res.json() == {"detail": detail}


def test_read_thing_not_applicable_names_the_query_field() -> None:
    res = _app(AnalysisError("factors", "the grid is not 2^k")).get("/thing")
    assert res.status_code == 422
    assert res.json()["detail"] == [
        {"type": "value_error", "loc": ["query", "factors"], "msg": "the grid is not 2^k"}
    ]


def test_create_thing_not_applicable_names_the_body_field() -> None:
    res = _app(NotApplicable("lambda_per_s", "rho >= 1: the queue is unstable")).post("/thing")
    assert res.status_code == 422
    assert res.json()["detail"][0]["loc"] == ["body", "lambda_per_s"]


def test_read_thing_not_applicable_keeps_the_location_it_was_given() -> None:
    res = _app(NotApplicable("experiment_id", "not a 2^k grid", location="path")).get("/thing")
    assert res.json()["detail"][0]["loc"] == ["path", "experiment_id"]


def test_read_thing_invalid_input_in_fastapis_shape() -> None:
    error = InvalidInput.at(
        ("window_end_s",), "must be greater than window_start_s", 5, location="query"
    )
    res = _app(error).get("/thing")
    assert res.status_code == 422
    assert res.json() == {
        "detail": [
            {
                "type": "value_error",
                "loc": ["query", "window_end_s"],
                "msg": "must be greater than window_start_s",
                "input": 5,
            }
        ]
    }


def test_read_thing_invalid_input_echo_is_strict_json() -> None:
    res = _app(InvalidInput.at(("x",), "not finite", float("nan"))).get("/thing")
    assert res.status_code == 422
    assert res.json()["detail"][0]["input"] == "nan"


def test_read_thing_unlisted_domain_error_is_a_server_error() -> None:
    assert _app(DomainError("a kind nobody mapped")).get("/thing").status_code == 500
