"""Field errors in the same 422 shape FastAPI uses for schema errors (backend.domain.errors'
InvalidInput), so a service raises what its route would: a route, a figure and a table answer
the same selection alike."""

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Literal

from backend.domain.errors import InvalidInput, NotApplicable, problem

__all__ = ["analysis_errors", "parse_percentiles", "problem", "unprocessable"]


def unprocessable(
    loc: tuple[str | int, ...],
    msg: str,
    value: Any = None,
    *,
    location: Literal["body", "query", "path"] = "body",
) -> InvalidInput:
    """A 422 on one field."""
    return InvalidInput.at(loc, msg, value, location=location)


@contextmanager
def analysis_errors(location: Literal["body", "query"] = "body") -> Iterator[None]:
    """Turn NotApplicable (AnalysisError among them) into FastAPI's 422 shape with the field in
    `loc`, sent in `location`."""
    try:
        yield
    except NotApplicable as err:
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
