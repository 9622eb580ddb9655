#!/usr/bin/env bash
# Configure and build one flavour of the middleware: release (default), asan or tsan.
# Usage: scripts/build.sh [release|asan|tsan] [--no-tests]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
FLAVOUR="${1:-release}"
TESTS=ON
if [[ "${2:-}" == "--no-tests" ]]; then
    TESTS=OFF
fi
case "$FLAVOUR" in
    release) SAN="" ;;
    asan) SAN="asan" ;;
    tsan) SAN="tsan" ;;
    *) echo "unknown flavour '$FLAVOUR' (release, asan, tsan)" >&2; exit 2 ;;
esac
BUILD="$HERE/build/$FLAVOUR"
# Sanitizer builds keep -O1 and asserts so reports are readable and invariants checked.
TYPE=RelWithDebInfo
EXTRA=()
if [[ -n "$SAN" ]]; then
    TYPE=Debug
    EXTRA=(-DCMAKE_CXX_FLAGS_DEBUG="-O1 -g")
fi
cmake -S "$HERE" -B "$BUILD" -DCMAKE_BUILD_TYPE="$TYPE" -DMCSCOPE_SANITIZER="$SAN" \
    -DMCSCOPE_TESTS="$TESTS" "${EXTRA[@]}" >/dev/null
cmake --build "$BUILD" -j 2
echo "built $BUILD/mcscope-middleware"
