#!/usr/bin/env bash
# Full middleware test run (part of `make test`): release, ASan+UBSan and TSan builds, GoogleTest
# (with the fuzz corpus replay), then at once the Python integration tests against each binary
# and 30 s of fuzzing of each parser. Every step runs even when an earlier one failed (an ASan
# failure must not hide what TSan and the fuzzers find); only a flavour whose build failed
# skips its tests. The script fails at the end when any step failed (infra/local/timed.sh).
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PYTEST="${PYTEST:-$ROOT/.venv/bin/pytest}"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
START=$(date +%s)
source "$ROOT/infra/local/timed.sh"
cd "$ROOT" || exit 2

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

built=()
for flavour in release asan tsan; do
    echo "== build $flavour"
    timed "build $flavour" "$HERE/scripts/build.sh" "$flavour" && built+=("$flavour")
done

for flavour in release asan tsan; do
    if [[ " ${built[*]} " != *" $flavour "* ]]; then
        skipped "tests $flavour" "its build failed"
        continue
    fi
    echo "== unit tests ($flavour)"
    timed "ctest $flavour" ctest --test-dir "$HERE/build/$flavour" --output-on-failure -j 2
done

# The three integration suites and the fuzzers at once: the suites mostly wait (53 s of wall
# for 10-24 CPU s each, measured 2026-11-29), each middleware and memcached on its own free
# ports; run one after another they held the lane for 160 s. Each job's log is printed whole
# when all are done, in this order (timed_background, infra/local/timed.sh).
for flavour in release asan tsan; do
    [[ " ${built[*]} " == *" $flavour "* ]] || continue
    # In file order (-p no:randomly): these are not yet checked under random orders. Their
    # times go where `make test` collects them (backend/tests/utils/durations.py).
    MCSCOPE_MIDDLEWARE_BIN="$HERE/build/$flavour/mcscope-middleware" \
    MCSCOPE_TEST_DURATIONS="${MCSCOPE_TEST_DURATIONS_DIR:+$MCSCOPE_TEST_DURATIONS_DIR/cpp-$flavour.jsonl}" \
        timed_background "integration $flavour" "$PYTEST" "$HERE/tests/integration" -q \
        -p no:cacheprovider -p no:randomly
done
timed_background "fuzz (${FUZZ_SECONDS}s each)" "$HERE/scripts/fuzz.sh" "$FUZZ_SECONDS"
timed_wait

if timed_summary; then
    echo "middleware-cpp tests passed in $(( $(date +%s) - START ))s"
else
    echo "middleware-cpp tests FAILED (steps marked above) in $(( $(date +%s) - START ))s"
    exit 1
fi
