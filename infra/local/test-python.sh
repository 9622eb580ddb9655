#!/usr/bin/env bash
# The Python suites (`make test-python`). Tests that put no load on the machine run on two
# pytest-xdist workers, each module on one of them (conftest.py groups them), in a random order
# (pytest-randomly: modules, then the tests of each) whose seed is printed, with the API fuzz
# beside them in its own process, in file order (schemathesis' cases do not spread over xdist
# workers); then the budget: no load-free test (the fuzz aside) over the limit in
# backend/tests/utils/durations.py. Then the tests that put load on the machine (local
# testbed, namespace and fake-Azure VMs) run one at a time on a quiet machine, in file order
# but those whose load is not measured last (backend/tests/utils/load_lane.py): each asserts
# throughput ratios, heartbeats and timeouts, which another run beside it would disturb. `load-free` or `load` runs only that half (`make test` runs the two halves in lanes
# side by side: infra/local/test-all.sh).
#
# MCSCOPE_TEST_SEED repeats an order; MCSCOPE_TEST_DURATIONS_DIR keeps each run's test times
# (test-all.sh prints the slowest from there).
set -uo pipefail
MODE="${1:-all}"
case "$MODE" in
  all|load-free|load) ;;
  *) echo "usage: $0 [all|load-free|load]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.." || exit 2
SEED="${MCSCOPE_TEST_SEED:-$(( RANDOM * 32768 + RANDOM ))}"
DURATIONS="${MCSCOPE_TEST_DURATIONS_DIR:-$(mktemp -d -t mcscope-durations.XXXXXX)}"
mkdir -p "$DURATIONS"
PYTEST=(.venv/bin/pytest -q -p no:cacheprovider)
SUITES=(backend/tests worker/tests infra/tests)
FUZZ=backend/tests/api/test_fuzz.py
START=$(date +%s)
status=0
if [[ "$MODE" != load ]]; then
  echo "== load-free tests in random order, seed $SEED (the same order again:" \
       "MCSCOPE_TEST_SEED=$SEED, or pytest -p randomly --randomly-seed=$SEED)"
  RANDOM_ORDER=(-p randomly --randomly-seed="$SEED")
  log="$(mktemp -t mcscope-fuzz.XXXXXX.log)"
  # The API fuzz in file order: its operations share seeded rows, not yet checked in any order.
  MCSCOPE_TEST_DURATIONS="$DURATIONS/fuzz.jsonl" \
    "${PYTEST[@]}" -p no:randomly "$FUZZ" >"$log" 2>&1 &
  fuzz_pid=$!
  MCSCOPE_TEST_DURATIONS="$DURATIONS/load-free.jsonl" \
    "${PYTEST[@]}" "${RANDOM_ORDER[@]}" "${SUITES[@]}" -m "not load" --ignore "$FUZZ" \
    -n 2 --dist loadgroup || status=1
  fuzz_status=0
  wait "$fuzz_pid" || fuzz_status=$?
  echo "== API fuzz"
  tail -n 30 "$log"
  rm -f "$log"
  [[ $fuzz_status -eq 0 ]] || status=1
  # The API fuzz (one test per operation, run beside) is not held to the budget yet: its
  # times were not measured here; make test's slowest-tests list shows them.
  .venv/bin/python -m backend.tests.utils.durations budget "$DURATIONS/load-free.jsonl" || status=1
fi
if [[ "$MODE" != load-free ]]; then
  echo "== tests that put load on the machine, one at a time, in file order, those whose load is not measured last"
  MCSCOPE_TEST_DURATIONS="$DURATIONS/load.jsonl" \
    "${PYTEST[@]}" -p no:randomly "${SUITES[@]}" -m load || status=1
fi
[[ -n "${MCSCOPE_TEST_DURATIONS_DIR:-}" ]] || rm -rf "$DURATIONS"
echo "python tests ($MODE) finished in $(( $(date +%s) - START ))s"
exit "$status"
