#!/usr/bin/env bash
# Sourced by the test scripts: `timed NAME cmd...` runs cmd and prints its wall time and CPU time
# (user + sys of cmd and every child it waited for, from /usr/bin/time), then keeps a summary
# that `timed_summary` prints. CPU seconds are what a shared 2-core machine pays; wall alone
# hides how much of a phase is waiting.
#
# A failing step does not stop the script (a lane runs every step, so one failure does not hide
# the next): `timed` returns cmd's status and remembers the failure, and `timed_summary` marks
# the failed steps and returns 1 when any step failed, so the script still fails at its end.
TIMED_LINES=()
TIMED_FAILED=0
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
    if [[ $status -ne 0 ]]; then
        line="$line   FAILED (exit $status)"
        TIMED_FAILED=1
    fi
    echo "-- $line"
    TIMED_LINES+=("$line")
    return "$status"
}
# `skipped NAME WHY`: a step that cannot run (what it needs failed) is listed as failed.
skipped() {
    local line
    line="$(printf '%-30s skipped: %s' "$1" "$2")"
    echo "-- $line"
    TIMED_LINES+=("$line")
    TIMED_FAILED=1
}
# `timed_add LINE STATUS`: a step timed in a background job (its `timed` line and exit status)
# joins the summary.
timed_add() {
    TIMED_LINES+=("$1")
    [[ "$2" == 0 ]] || TIMED_FAILED=1
}
timed_summary() {
    local line
    for line in "${TIMED_LINES[@]}"; do
        echo "   $line"
    done
    return "$TIMED_FAILED"
}
