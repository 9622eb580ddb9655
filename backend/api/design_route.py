"""A design's body errors and its parameters' errors in one 422.

FastAPI checks the body's fields before the endpoint runs, so the domain check of each factor
and fixed value would only be seen once every field passes: the form would show one error at
a time. This route class adds, to a body's field errors, every parameter error of its raw
factors and fixed values, and the stable-window error its fields would give."""

from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute

from backend.domain.design import parameter_problems
from backend.domain.window import WindowError, design_window
from backend.schemas.experiment import WINDOW_FIELDS, ExperimentBase, window_field
from backend.schemas.problems import problem


def with_design_problems(err: RequestValidationError) -> RequestValidationError:
    """`err` with the raw body's parameter and window errors added (a loc it names already
    is not named twice); unchanged when it has no JSON object body (an endpoint's own 422)."""
    body = err.body
    if not isinstance(body, dict):
        return err
    detail = list(err.errors())
    named = {tuple(e["loc"]) for e in detail}
    factors, fixed = body.get("factors", {}), body.get("fixed", {})
    _, _, errors = parameter_problems(
        factors if isinstance(factors, dict) else {}, fixed if isinstance(fixed, dict) else {}
    )
    added = [
        problem(e.loc, e.reason, body[e.loc[0]].get(e.loc[1]))
        for e in errors
        if ("body", *e.loc) not in named
    ]
    times = {f: body.get(f, ExperimentBase.model_fields[f].default) for f in WINDOW_FIELDS}
    if all(type(v) is int for v in times.values()) and not any(("body", f) in named for f in times):
        try:
            design_window(**times)
        except WindowError as e:
            field = window_field(set(body))
            added.append(problem((field,), str(e), times[field]))
    return RequestValidationError([*detail, *added], body=body) if added else err


class DesignRoute(APIRoute):
    """A route whose body validation errors carry every design problem at once."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                return await handler(request)
            except RequestValidationError as err:
                raise with_design_problems(err) from None

        return route
