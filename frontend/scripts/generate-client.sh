#!/usr/bin/env bash
# Regenerates src/api/ from the backend's OpenAPI schema (never hand-write API types).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
# Dump the schema straight from the app object: no server or database needed.
(cd "$root" && .venv/bin/python -c \
  "import json; from backend.main import app; print(json.dumps(app.openapi(), indent=2))") \
  > "$here/openapi.json"
# What /parameters, /metrics and /design-fields serve, for unit tests of the labels the UI derives from them.
(cd "$root" && .venv/bin/python -c "
import json
from backend.api.routes.parameters import read_design_fields, read_metrics, read_parameters
served = {
    'parameters': read_parameters(),
    'metrics': read_metrics(),
    'design_fields': read_design_fields(),
}
print(json.dumps({k: [x.model_dump(mode='json') for x in v] for k, v in served.items()}, indent=2))
") > "$here/src/test/served.gen.json"
cd "$here"
npx openapi-ts
npx biome format --write src/test/served.gen.json > /dev/null
