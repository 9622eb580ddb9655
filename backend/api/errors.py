"""Turning domain errors into the same 422 shape FastAPI uses for schema errors."""

from typing import Any, Literal

from fastapi.exceptions import RequestValidationError


def unprocessable(
    loc: tuple[str | int, ...],
    msg: str,
    value: Any = None,
    *,
    location: Literal["body", "query", "path"] = "body",
) -> RequestValidationError:
    return RequestValidationError(
        [{"type": "value_error", "loc": (location, *loc), "msg": msg, "input": value}]
    )
