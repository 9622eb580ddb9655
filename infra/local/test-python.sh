#!/usr/bin/env bash
# The Python suites (`make test-python`). Tests that put no load on the machine run on two
# pytest-xdist workers, each module on one of them (conftest.py groups them), with the API fuzz
# beside them in its own process (schemathesis' cases do not spread over xdist workers). Then the
# tests that put load on the machine (local testbed, namespace and fake-Azure VMs) run one at a
# time on a quiet machine: each asserts throughput ratios, heartbeats and timeouts, which another
# run beside it would disturb. `load-free` or `load` runs only that half (`make test` runs the two
# halves in lanes side by side: infra/local/test-all.sh).
set -euo pipefail
MODE="${1:-all}"
case "$MODE" in
  all|load-free|load) ;;
  *) echo "usage: $0 [all|load-free|load]" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
PYTEST=(.venv/bin/pytest -q -p no:cacheprovider)
SUITES=(backend/tests worker/tests infra/tests)
FUZZ=backend/tests/api/test_fuzz.py
START=$(date +%s)
status=0
if [[ "$MODE" != load ]]; then
  log="$(mktemp -t mcscope-fuzz.XXXXXX.log)"
  "${PYTEST[@]}" "$FUZZ" >"$log" 2>&1 &
  fuzz_pid=$!
  "${PYTEST[@]}" "${SUITES[@]}" -m "not load" --ignore "$FUZZ" -n 2 --dist loadgroup || status=1
  fuzz_status=0
  wait "$fuzz_pid" || fuzz_status=$?
  echo "== API fuzz"
  tail -n 30 "$log"
  rm -f "$log"
  [[ $fuzz_status -eq 0 ]] || status=1
fi
if [[ "$MODE" != load-free ]]; then
  echo "== tests that put load on the machine, one at a time"
  "${PYTEST[@]}" "${SUITES[@]}" -m load || status=1
fi
echo "python tests ($MODE) finished in $(( $(date +%s) - START ))s"
exit "$status"
