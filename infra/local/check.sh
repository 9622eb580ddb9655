#!/usr/bin/env bash
# `make check`, the edit loop: lint, types and docs; every Python test that puts no load on the
# machine; the frontend's lint, types and unit tests. The three groups run at once: one after
# another they took 357 s on 2026-11-29, the load-free tests alone 281 s on two workers that
# mostly wait (subprocesses, SSH, PostgreSQL); at once, with three workers and bytecode caches
# (the Makefile), 276 s, the machine 93 % busy. Each group's output is printed whole when all
# have ended, then each group's wall and CPU time (infra/local/timed.sh); a failing group fails
# the check without stopping the others.
#
# MCSCOPE_TEST_SEED repeats the load-free tests' random order; PYTEST_PARALLEL sets their
# pytest-xdist options (the Makefile's default: three workers).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
source infra/local/timed.sh
START=$(date +%s)
CPU_START=$(busy_cpu_s)
SEED="${MCSCOPE_TEST_SEED:-$(( RANDOM * 32768 + RANDOM ))}"
echo "== load-free tests in random order, seed $SEED (again: MCSCOPE_TEST_SEED=$SEED make check)"
echo "== lint, types, docs; load-free tests; frontend static checks: at once, output when all end"

lint_types_docs() {
  local status=0
  .venv/bin/ruff format --check backend worker infra migrations conftest.py docs/hooks || status=1
  .venv/bin/ruff check backend worker infra migrations conftest.py docs/hooks || status=1
  .venv/bin/mypy backend worker infra docs/hooks || status=1
  NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet || status=1
  return "$status"
}

frontend_static() {
  local status=0
  cd frontend || return 1
  npx biome check . || status=1
  npx tsc -p tsconfig.json --noEmit || status=1
  npx vitest run || status=1
  return "$status"
}

# /usr/bin/time runs programs, not shell functions: each group is a bash of its own.
export -f lint_types_docs frontend_static
read -ra PARALLEL <<<"${PYTEST_PARALLEL:--n 3 --dist loadgroup}"
timed_background "lint, types, docs" bash -c lint_types_docs
timed_background "load-free tests" .venv/bin/pytest backend/tests worker/tests infra/tests -q \
  -p no:cacheprovider -m "not load" --ignore backend/tests/api/test_fuzz.py \
  "${PARALLEL[@]}" -p randomly --randomly-seed="$SEED"
timed_background "frontend static" bash -c frontend_static
timed_wait
echo "== machine CPU busy (of $(nproc) cores): $(( $(busy_cpu_s) - CPU_START )) s in" \
  "$(( $(date +%s) - START )) s wall"
if timed_summary; then
  echo "== make check passed in $(( $(date +%s) - START ))s"
else
  echo "== make check FAILED in $(( $(date +%s) - START ))s"
  exit 1
fi
