"""Turning domain errors into the same 422 shape FastAPI uses for schema errors, and that
shape into a body strict JSON can always carry."""

import math
from typing import Any, Literal

from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError


def problem(
    loc: tuple[str | int, ...],
    msg: str,
    value: Any = None,
    *,
    location: Literal["body", "query", "path"] = "body",
) -> dict[str, Any]:
    """One item of a 422's detail list, shaped as FastAPI shapes its own."""
    return {"type": "value_error", "loc": (location, *loc), "msg": msg, "input": value}


def unprocessable(
    loc: tuple[str | int, ...],
    msg: str,
    value: Any = None,
    *,
    location: Literal["body", "query", "path"] = "body",
) -> RequestValidationError:
    return RequestValidationError([problem(loc, msg, value, location=location)])


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


def validation_error_content(exc: RequestValidationError) -> dict[str, Any]:
    """The body of a 422: FastAPI's shape, always serialisable (see json_safe)."""
    return {"detail": json_safe(exc.errors())}
