"""Path ids beyond PostgreSQL's `integer` answer 422 naming the parameter (a router-level
dependency, so every `{..._id}` route is covered, present and future)."""

from fastapi import Request

from backend.schemas.limits import INT32_MAX
from backend.schemas.problems import unprocessable


def check_path_ids(request: Request) -> None:
    for name, raw in request.path_params.items():
        if not name.endswith("_id") or not isinstance(raw, str):
            continue
        text = raw.strip()
        if text.lstrip("-").isdigit() and abs(int(text)) > INT32_MAX:
            raise unprocessable((name,), f"must be at most {INT32_MAX}", raw, location="path")
