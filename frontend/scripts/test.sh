#!/usr/bin/env bash
# The whole frontend test: lint/format, type check, unit tests, then end-to-end on the real API.
# Prints each step's wall and CPU time (infra/local/timed.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
source ../infra/local/timed.sh
START=$(date +%s)
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  timed "npm ci" npm ci --no-audit --no-fund
fi
timed "biome" npx biome check .
timed "tsc" npx tsc -p tsconfig.json --noEmit
timed "vitest (unit)" npx vitest run
# e2e tests what the user gets: always against a fresh build.
timed "vite build" npx vite build --logLevel warn
timed "e2e" bash scripts/e2e.sh
timed_summary
echo "frontend tests passed in $(( $(date +%s) - START ))s"
