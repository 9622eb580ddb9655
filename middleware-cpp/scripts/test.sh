#!/usr/bin/env bash
# Full middleware test run (part of `make test`): release, ASan+UBSan and TSan builds, GoogleTest
# (with the fuzz corpus replay), then at once the Python integration tests against each binary
# and 30 s of fuzzing of each parser. Every step runs even when an earlier one failed (an ASan failure
# must not hide what TSan and the fuzzers find); only a flavour whose build failed skips its
# tests. The script fails at the end when any step failed (infra/local/timed.sh).
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
# when all are done, in this order.
jobs_dir="$(mktemp -d -t mcscope-cpp-jobs.XXXXXX)"
job_names=()
# `background NAME cmd...`: cmd under `timed` in the background; its log, timed line and
# status go to files that `collect` reads.
background() {
    local name="$1"
    shift
    job_names+=("$name")
    (
        TIMED_LINES=()
        timed "$name" "$@"
        echo $? >"$jobs_dir/$name.rc"
        printf '%s\n' "${TIMED_LINES[@]}" >"$jobs_dir/$name.line"
    ) >"$jobs_dir/$name.log" 2>&1 &
}
for flavour in release asan tsan; do
    [[ " ${built[*]} " == *" $flavour "* ]] || continue
    # In file order (-p no:randomly): these are not yet checked under random orders. Their
    # times go where `make test` collects them (backend/tests/utils/durations.py).
    MCSCOPE_MIDDLEWARE_BIN="$HERE/build/$flavour/mcscope-middleware" \
    MCSCOPE_TEST_DURATIONS="${MCSCOPE_TEST_DURATIONS_DIR:+$MCSCOPE_TEST_DURATIONS_DIR/cpp-$flavour.jsonl}" \
        background "integration $flavour" "$PYTEST" "$HERE/tests/integration" -q \
        -p no:cacheprovider -p no:randomly
done
background "fuzz (${FUZZ_SECONDS}s each)" "$HERE/scripts/fuzz.sh" "$FUZZ_SECONDS"
wait
for name in "${job_names[@]}"; do
    echo "== $name"
    cat "$jobs_dir/$name.log"
    timed_add "$(cat "$jobs_dir/$name.line" 2>/dev/null || echo "$name: no result")" \
        "$(cat "$jobs_dir/$name.rc" 2>/dev/null || echo 1)"
done
rm -rf "$jobs_dir"

if timed_summary; then
    echo "middleware-cpp tests passed in $(( $(date +%s) - START ))s"
else
    echo "middleware-cpp tests FAILED (steps marked above) in $(( $(date +%s) - START ))s"
    exit 1
fi
