"""A 422 (FastAPI's shape; domain errors take it in backend.schemas.problems) as a body
strict JSON can always carry."""

import math
from typing import Any

from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError


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
