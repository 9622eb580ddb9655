#!/usr/bin/env bash
# Builds the libFuzzer targets of the request and reply parsers (clang, ASan + UBSan) and fuzzes
# both at once for the given time each. New inputs go to build/fuzz/<target>/corpus (or
# $FUZZ_OUT/<target>/corpus); the
# checked-in seeds (fuzz/corpus/{request,response}, replayed by the unit tests) stay untouched.
# Usage: scripts/fuzz.sh [seconds, default 300]     (`make fuzz-middleware`: 600 s)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SECONDS_TO_RUN="${1:-300}"
CXX="${FUZZ_CXX:-clang++}"
if ! command -v "$CXX" >/dev/null; then
    echo "fuzz.sh: $CXX not found (apt install clang libclang-rt-14-dev)" >&2
    exit 1
fi
pids=()
for target in request response; do
    OUT="${FUZZ_OUT:-$HERE/build/fuzz}/$target"
    mkdir -p "$OUT/corpus" "$OUT/artifacts"
    "$CXX" -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -I "$HERE/src" \
        "$HERE/fuzz/${target}_parser_fuzz.cpp" "$HERE/src/request_parser.cpp" \
        "$HERE/src/response_parser.cpp" "$HERE/src/memory_budget.cpp" -o "$OUT/fuzz"
    "$OUT/fuzz" "$OUT/corpus" "$HERE/fuzz/corpus/$target" \
        -max_total_time="$SECONDS_TO_RUN" -max_len=8192 -timeout=10 -rss_limit_mb=1024 \
        -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 >"$OUT/log.txt" 2>&1 &
    pids+=($!)
done
status=0
for i in 0 1; do
    wait "${pids[$i]}" || status=1
done
for target in request response; do
    OUT="${FUZZ_OUT:-$HERE/build/fuzz}/$target"
    echo "== $target parser: $(find "$OUT/corpus" -type f | wc -l) inputs in $OUT/corpus," \
        "$(find "$OUT/artifacts" -type f | wc -l) crash/timeout artifacts"
    grep -E "^(#[0-9]+.*DONE|stat::|Done|==[0-9]+==ERROR|SUMMARY)" "$OUT/log.txt" | tail -n 12
done
exit "$status"
