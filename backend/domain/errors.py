"""The errors services raise, in the domain's words; backend/api/errors.py maps each to its HTTP
status once (the app factory registers the handlers), so nothing below the API speaks HTTP.

| error | meaning | status |
|---|---|---|
| NotFound | what the request names does not exist | 404 |
| Conflict | the request contradicts the stored state (a run in progress, a name taken) | 409 |
| NotApplicable | an analysis or option is undefined for this input, `field` says which | 422 |
| InvalidInput | one or more fields are wrong; `problems` in FastAPI's 422 shape | 422 |
| Unavailable | a service the answer needs does not answer (Redis, the renderer) | 503 |
"""

from typing import Any, Literal

Location = Literal["body", "query", "path"]


class DomainError(Exception):
    """Base of the errors a service raises for its caller (a route, a figure, the report)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(DomainError):
    """What the request names does not exist (e.g. "Experiment not found")."""


class Conflict(DomainError):
    """The request contradicts the stored state."""


class Unavailable(DomainError):
    """A service the answer needs (Redis, the figure renderer) does not answer."""


class NotApplicable(DomainError):
    """An analysis or option is undefined for its input; `field` names the input and `reason`
    says why (rho >= 1, r = 1 for intervals, a grid that is not 2^k). `location` is where the
    field was sent, when the service knows it; else the handler takes the request's."""

    def __init__(self, field: str, reason: str, location: Location | None = None) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.location = location


def problem(
    loc: tuple[str | int, ...], msg: str, value: Any = None, *, location: Location = "body"
) -> dict[str, Any]:
    """One item of a 422's detail list, shaped as FastAPI shapes its own."""
    return {"type": "value_error", "loc": (location, *loc), "msg": msg, "input": value}


class InvalidInput(DomainError):
    """One or more fields of the request are wrong: `problems` lists each, shaped as FastAPI's
    own 422 items (`problem`), so a service's refusal reads like a schema's."""

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        super().__init__("; ".join(str(p.get("msg", "")) for p in problems))
        self.problems = problems

    @classmethod
    def at(
        cls,
        loc: tuple[str | int, ...],
        msg: str,
        value: Any = None,
        *,
        location: Location = "body",
    ) -> "InvalidInput":
        """One wrong field."""
        return cls([problem(loc, msg, value, location=location)])

    def errors(self) -> list[dict[str, Any]]:
        """The 422's detail list (named as RequestValidationError names it)."""
        return self.problems
