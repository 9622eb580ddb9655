#!/usr/bin/env bash
# Builds the libFuzzer target for the request/reply parsers (clang) and fuzzes it.
# Usage: scripts/fuzz.sh [seconds, default 300]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TO_RUN="${1:-300}"
OUT="$HERE/build/fuzz"
mkdir -p "$OUT/corpus" "$OUT/artifacts"
CXX="${FUZZ_CXX:-clang++}"
if ! command -v "$CXX" >/dev/null; then
    echo "fuzz.sh: $CXX not found (apt install clang libclang-rt-14-dev)" >&2
    exit 1
fi
"$CXX" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I "$HERE/src" \
    "$HERE/fuzz/request_parser_fuzz.cpp" "$HERE/src/request_parser.cpp" \
    "$HERE/src/response_parser.cpp" -o "$OUT/request_parser_fuzz"
# New inputs go to build/fuzz/corpus; the checked-in seeds stay untouched.
"$OUT/request_parser_fuzz" "$OUT/corpus" "$HERE/fuzz/corpus" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=1024 \
    -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 2>&1 | tail -n 25
