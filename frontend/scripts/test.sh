#!/usr/bin/env bash
# The whole frontend test: lint/format, type check, unit tests, then end-to-end on the real API.
# Prints each step's wall and CPU time (infra/local/timed.sh). Every step runs even when an
# earlier one failed (a lint failure does not hide an e2e failure); the script fails at the end.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
source ../infra/local/timed.sh
START=$(date +%s)
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  timed "npm ci" npm ci --no-audit --no-fund || exit 1  # nothing below runs without it
fi
timed "biome" npx biome check .
timed "tsc" npx tsc -p tsconfig.json --noEmit
timed "vitest (unit)" npx vitest run
# e2e tests what the user gets: always against a fresh build.
if timed "vite build" npx vite build --logLevel warn; then
  timed "e2e" bash scripts/e2e.sh
else
  skipped "e2e" "the vite build failed"
fi
if timed_summary; then
  echo "frontend tests passed in $(( $(date +%s) - START ))s"
else
  echo "frontend tests FAILED (steps marked above) in $(( $(date +%s) - START ))s"
  exit 1
fi
