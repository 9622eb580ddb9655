"""Bounds on request integers that reach the database: ids are PostgreSQL `integer`, paging
offsets are `bigint`; a value beyond them is a 422 naming the parameter, not a 500."""

from typing import Annotated

from fastapi import Query
from pydantic import AfterValidator, Field

INT32_MAX = 2**31 - 1

Skip = Annotated[int, Query(ge=0, le=INT32_MAX, description="rows to skip")]

# A database id in a request body (a PostgreSQL `integer` primary key).
DbId = Annotated[int, Field(ge=1, le=INT32_MAX)]


def _no_nul(value: str) -> str:
    # PostgreSQL text cannot hold NUL; refuse it here, at the field, not as a 500 on insert.
    if "\x00" in value:
        raise ValueError("must not contain NUL characters")
    return value


# A string stored in or searched against a PostgreSQL text column.
DbText = Annotated[str, AfterValidator(_no_nul)]
