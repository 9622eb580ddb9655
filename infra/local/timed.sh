#!/usr/bin/env bash
# Sourced by the test scripts: `timed NAME cmd...` runs cmd and prints its wall time and CPU time
# (user + sys of cmd and every child it waited for, from /usr/bin/time), then keeps a summary
# that `timed_summary` prints. CPU seconds are what a shared 2-core machine pays; wall alone
# hides how much of a phase is waiting.
TIMED_LINES=()
timed() {
    local name="$1" out status
    shift
    out="$(mktemp -t mcscope-timed.XXXXXX)"
    status=0
    /usr/bin/time -f "%e %U %S" -o "$out" "$@" || status=$?
    local wall user sys
    read -r wall user sys < <(tail -n 1 "$out")
    rm -f "$out"
    local line
    line="$(awk -v n="$name" -v w="$wall" -v u="$user" -v s="$sys" \
        'BEGIN { printf "%-30s %7.1f s wall %7.1f s CPU", n, w, u + s }')"
    echo "-- $line"
    TIMED_LINES+=("$line")
    return "$status"
}
timed_summary() {
    local line
    for line in "${TIMED_LINES[@]}"; do
        echo "   $line"
    done
}
