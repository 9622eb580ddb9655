"""Paging of every list route: one dependency, so each list bounds `skip` and `limit` alike
(a `skip` past PostgreSQL's bigint was a 500 where a bound answers a 422 naming it)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

from fastapi import Query

from backend.schemas.limits import INT32_MAX


@dataclass(frozen=True)
class Page:
    skip: int
    limit: int


def paging(*, default: int = 100, maximum: int = 1000) -> Callable[..., Page]:
    """The dependency of a list whose page holds `default` rows unless asked, `maximum` at most."""

    def page(
        # An offset PostgreSQL takes as bigint, bounded well inside it; descriptions from the
        # glossary (backend/schemas/glossary.py).
        skip: Annotated[int, Query(ge=0, le=INT32_MAX)] = 0,
        limit: Annotated[int, Query(ge=1, le=maximum)] = default,
    ) -> Page:
        return Page(skip=skip, limit=limit)

    return page
