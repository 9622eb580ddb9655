"""The frontend's typed client is generated from this API (frontend/scripts/generate-client.sh
writes frontend/openapi.json, then src/api/ from it): a route or bound changed without
regenerating fails here, not in a browser."""

import json

from backend.core.config import REPO_ROOT
from backend.main import app

COMMITTED = REPO_ROOT / "frontend" / "openapi.json"


def _differences(old: object, new: object, where: str = "") -> list[str]:
    if isinstance(old, dict) and isinstance(new, dict):
        out = []
        for key in sorted(set(old) | set(new)):
            out += _differences(old.get(key), new.get(key), f"{where}/{key}")
        return out
    return [] if old == new else [where or "/"]


def test_frontend_client_was_generated_from_this_api() -> None:
    committed = json.loads(COMMITTED.read_text())
    changed = _differences(committed, app.openapi())
    assert changed == [], (
        f"frontend/openapi.json is not this API's schema ({len(changed)} differences, first "
        f"{changed[:5]}): run `cd frontend && npm run generate-client` and commit src/api/"
    )
