"""Errors as HTTP answers, in one place: each domain error's status (backend.domain.errors), and
a 422 (FastAPI's shape) as a body strict JSON can always carry."""

import math
from typing import Any

from fastapi import FastAPI, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from backend.domain.errors import (
    Conflict,
    DomainError,
    InvalidInput,
    NotApplicable,
    NotFound,
    Unavailable,
)

# The one mapping of a domain error to its status; InvalidInput and NotApplicable are 422s.
STATUS: dict[type[DomainError], int] = {
    NotFound: status.HTTP_404_NOT_FOUND,
    Conflict: status.HTTP_409_CONFLICT,
    Unavailable: status.HTTP_503_SERVICE_UNAVAILABLE,
}


def json_safe(value: Any) -> Any:
    """`value` (an error detail, its echoed input included) as strict JSON can carry it: a
    non-finite float as its text ("nan", "inf"), a string with a lone surrogate escaped,
    anything else jsonable_encoder does not know as its str()."""
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, str):
        return value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {str(json_safe(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    if value is None or isinstance(value, bool | int):
        return value
    try:
        return json_safe(jsonable_encoder(value))
    except Exception:  # noqa: BLE001 - an echo must never turn a 422 into a 500
        return str(value)


def validation_error_content(exc: RequestValidationError | InvalidInput) -> dict[str, Any]:
    """The body of a 422: FastAPI's shape, always serialisable (see json_safe)."""
    return {"detail": json_safe(exc.errors())}


def domain_error_response(request: Request, exc: DomainError) -> JSONResponse:
    """The HTTP answer to a domain error a service raised and no route translated."""
    if isinstance(exc, InvalidInput):
        return JSONResponse(status_code=422, content=validation_error_content(exc))
    if isinstance(exc, NotApplicable):
        # Where the field was sent: the service knows it, or a GET's fields are its query.
        body = request.method in {"POST", "PUT", "PATCH"}
        location = exc.location or ("body" if body else "query")
        problem = {"type": "value_error", "loc": [location, exc.field], "msg": exc.reason}
        return JSONResponse(status_code=422, content={"detail": json_safe([problem])})
    # A DomainError of no listed kind is a bug in the service: a 500, as an unhandled error.
    code = next((c for kind, c in STATUS.items() if isinstance(exc, kind)), 500)
    return JSONResponse(status_code=code, content={"detail": exc.detail})


def add_error_handlers(app: FastAPI) -> None:
    """Register the domain errors' mapping on the app (called once by the app factory)."""

    async def handle(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, DomainError)
        return domain_error_response(request, exc)

    app.add_exception_handler(DomainError, handle)
