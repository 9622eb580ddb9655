"""Serving a stored row whose stored JSON no longer fits its response model.

A list answers with every row or fails as a whole; one row stored before a rule changed (or
edited by hand) must not take the list down. The fields that fail are left out, so they take
their defaults, and logged; a row that still cannot be served raises as before.
"""

import logging
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

logger = logging.getLogger(__name__)

M = TypeVar("M", bound=BaseModel)

_MAX_PASSES = 3  # leaving a field out can uncover an error below another one


def _drop(data: dict[str, Any], loc: tuple[str | int, ...]) -> bool:
    """Delete the deepest dict key on `loc` (a bad list item drops its whole list)."""
    node: Any = data
    last: tuple[dict[str, Any], str] | None = None
    for part in loc:
        if isinstance(node, dict) and part in node:
            last = (node, str(part))
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            break
    if last is None:
        return False
    del last[0][last[1]]
    return True


def served(model: type[M], data: dict[str, Any], *, what: str, row_id: int) -> M:
    """`data` as `model`, leaving out (and logging) what no longer validates."""
    for _ in range(_MAX_PASSES):
        try:
            return model.model_validate(data)
        except ValidationError as err:
            errors = err.errors(include_url=False, include_input=False)
            logger.error(
                f"{what}.unservable",
                extra={"row_id": row_id, "fields": [".".join(map(str, e["loc"])) for e in errors]},
            )
            data = _deep_copy(data)
            if not any([_drop(data, e["loc"]) for e in errors]):
                raise
    return model.model_validate(data)


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value
