#!/usr/bin/env bash
# The whole frontend test: lint/format, type check, unit tests, then end-to-end on the real API.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund
fi
npx biome check .
npx tsc -p tsconfig.json --noEmit
npx vitest run
# e2e tests what the user gets: always against a fresh build.
npx vite build >/dev/null
bash scripts/e2e.sh
