"""Domain errors in the same 422 shape FastAPI uses for schema errors, so a service raises
what its route would: a route, a figure and a table answer the same selection alike."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from fastapi.exceptions import RequestValidationError

from backend.analysis.errors import AnalysisError


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


@contextmanager
def analysis_errors(location: Literal["body", "query"] = "body") -> Iterator[None]:
    """Turn AnalysisError into FastAPI's 422 shape with the field in `loc`."""
    try:
        yield
    except AnalysisError as err:
        raise unprocessable((err.field,), err.reason, location=location) from err


def parse_percentiles(text: str) -> tuple[float, ...]:
    """ "50,90,99" as numbers; anything else is a 422 on the `percentiles` query field."""
    try:
        qs = tuple(float(q) for q in text.split(","))
    except ValueError as err:
        raise unprocessable(
            ("percentiles",), "comma-separated numbers", text, location="query"
        ) from err
    # Checked here too, so a grid without histograms still rejects q = 150.
    for q in qs:
        if not 0.0 <= q <= 100.0:
            raise unprocessable(
                ("percentiles",), f"each must lie in [0, 100], got {q}", text, location="query"
            )
    return qs
