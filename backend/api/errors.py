"""Turning domain errors into the same 422 shape FastAPI uses for schema errors."""

from typing import Any

from fastapi.exceptions import RequestValidationError


def unprocessable(
    loc: tuple[str | int, ...], msg: str, value: Any = None
) -> RequestValidationError:
    return RequestValidationError(
        [{"type": "value_error", "loc": ("body", *loc), "msg": msg, "input": value}]
    )
