#!/usr/bin/env bash
# Configure and build one flavour of the middleware: release (default), asan or tsan.
# Usage: scripts/build.sh [release|asan|tsan] [--no-tests|--middleware-only]
#   --no-tests         configure without the unit tests and fuzzers (`make up`)
#   --middleware-only  build only the binary now (the tree keeps its tests configured; `make
#                      test`'s load lane needs the binary first, its C++ suite the rest later)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLAVOUR="${1:-release}"
TESTS=ON
TARGET=()
case "${2:-}" in
    --no-tests) TESTS=OFF ;;
    --middleware-only) TARGET=(--target mcscope-middleware) ;;
    "") ;;
    *) echo "unknown option '$2' (--no-tests, --middleware-only)" >&2; exit 2 ;;
esac
case "$FLAVOUR" in
    release) SAN="" ;;
    asan) SAN="asan" ;;
    tsan) SAN="tsan" ;;
    *) echo "unknown flavour '$FLAVOUR' (release, asan, tsan)" >&2; exit 2 ;;
esac
BUILD="$HERE/build/$FLAVOUR"
# One build of a flavour at a time: `make test` builds release in its load lane while the C++
# suite in the side lane reaches the same tree (the second finds it up to date).
mkdir -p "$HERE/build"
exec 9>"$HERE/build/$FLAVOUR.lock"
flock 9
# Sanitizer builds keep -O1 and asserts so reports are readable and invariants checked, and
# line tables only (-g1): a report's frames still name file and line, and the ASan build takes
# 70 CPU s instead of 102 with full debug information (2026-11-30).
TYPE=RelWithDebInfo
EXTRA=()
if [[ -n "$SAN" ]]; then
    TYPE=Debug
    EXTRA=(-DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1")
fi
# Unity build: the Asio-heavy sources compiled together instantiate Asio's templates once per
# batch, not once per file (ASan build 276 -> 170 CPU s). MCSCOPE_UNITY_BUILD=OFF for quick
# incremental rebuilds while editing one file.
cmake -S "$HERE" -B "$BUILD" -DCMAKE_BUILD_TYPE="$TYPE" -DMCSCOPE_SANITIZER="$SAN" \
    -DMCSCOPE_TESTS="$TESTS" -DCMAKE_UNITY_BUILD="${MCSCOPE_UNITY_BUILD:-ON}" "${EXTRA[@]}" >/dev/null
cmake --build "$BUILD" -j 2 "${TARGET[@]}"
echo "built $BUILD/mcscope-middleware"
