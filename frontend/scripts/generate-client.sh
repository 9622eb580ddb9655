#!/usr/bin/env bash
# Regenerates src/api/ from the backend's OpenAPI schema (never hand-write API types).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
# Dump the schema straight from the app object: no server or database needed.
(cd "$root" && .venv/bin/python -c \
  "import json; from backend.main import app; print(json.dumps(app.openapi(), indent=2))") \
  > "$here/openapi.json"
cd "$here"
npx openapi-ts
