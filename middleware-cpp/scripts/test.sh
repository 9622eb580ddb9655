#!/usr/bin/env bash
# Full middleware test run (part of `make test`): release, ASan+UBSan and TSan builds, GoogleTest
# (with the fuzz corpus replay) and the Python integration tests against each binary, then 30 s
# of fuzzing of each parser.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PYTEST="${PYTEST:-$ROOT/.venv/bin/pytest}"
FUZZ_SECONDS="${FUZZ_SECONDS:-30}"
START=$(date +%s)
source "$ROOT/infra/local/timed.sh"
cd "$ROOT"

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

for flavour in release asan tsan; do
    echo "== build $flavour"
    timed "build $flavour" "$HERE/scripts/build.sh" "$flavour"
done

for flavour in release asan tsan; do
    echo "== unit tests ($flavour)"
    timed "ctest $flavour" ctest --test-dir "$HERE/build/$flavour" --output-on-failure -j 2
    echo "== integration tests ($flavour)"
    MCSCOPE_MIDDLEWARE_BIN="$HERE/build/$flavour/mcscope-middleware" \
        timed "integration $flavour" "$PYTEST" "$HERE/tests/integration" -q -p no:cacheprovider
done

echo "== fuzzing the request and reply parsers for ${FUZZ_SECONDS}s each"
timed "fuzz (${FUZZ_SECONDS}s each)" "$HERE/scripts/fuzz.sh" "$FUZZ_SECONDS"

timed_summary
echo "middleware-cpp tests passed in $(( $(date +%s) - START ))s"
