#!/usr/bin/env bash
# The whole frontend test: lint/format, type check, unit tests and the build ("static"), then
# end-to-end on the real API ("e2e"). `test.sh static` or `test.sh e2e` runs only that half
# (`make test` runs the static half in its side lane and e2e alone at the end:
# infra/local/test-all.sh). Prints each step's wall and CPU time (infra/local/timed.sh). Every
# step runs even when an earlier one failed (a lint failure does not hide an e2e failure); the
# script fails at the end.
set -uo pipefail
MODE="${1:-all}"
case "$MODE" in
  all|static|e2e) ;;
  *) echo "usage: $0 [all|static|e2e]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.." || exit 2
source ../infra/local/timed.sh
START=$(date +%s)
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  timed "npm ci" npm ci --no-audit --no-fund || exit 1  # nothing below runs without it
fi
built=1
if [[ "$MODE" != e2e ]]; then
  timed "biome" npx biome check .
  timed "tsc" npx tsc -p tsconfig.json --noEmit
  timed "vitest (unit)" npx vitest run
  timed "vite build" npx vite build --logLevel warn || built=0
elif [[ -f dist/index.html ]]; then
  : # e2e.sh rebuilds dist when any source is newer, so the tests never drive a stale UI
else
  timed "vite build" npx vite build --logLevel warn || built=0
fi
if [[ "$MODE" != static ]]; then
  if [[ $built -eq 1 ]]; then
    timed "e2e" bash scripts/e2e.sh
  else
    skipped "e2e" "the vite build failed"
  fi
fi
if timed_summary; then
  echo "frontend tests ($MODE) passed in $(( $(date +%s) - START ))s"
else
  echo "frontend tests ($MODE) FAILED (steps marked above) in $(( $(date +%s) - START ))s"
  exit 1
fi
