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
# `timed_background NAME cmd...`: `timed NAME cmd` in the background, its output kept apart;
# `timed_wait` waits for every such job, then prints each job's output whole, in the order they
# were started, and adds its line and status to the summary.
TIMED_JOBS_DIR=""
TIMED_JOBS=()
timed_background() {
    local name="$1" n
    shift
    [[ -n "$TIMED_JOBS_DIR" ]] || TIMED_JOBS_DIR="$(mktemp -d -t mcscope-timed-jobs.XXXXXX)"
    n=${#TIMED_JOBS[@]}
    TIMED_JOBS+=("$name")
    (
        TIMED_LINES=()
        timed "$name" "$@"
        echo $? >"$TIMED_JOBS_DIR/$n.rc"
        printf '%s\n' "${TIMED_LINES[@]}" >"$TIMED_JOBS_DIR/$n.line"
    ) >"$TIMED_JOBS_DIR/$n.log" 2>&1 &
}
timed_wait() {
    local n
    wait
    for n in "${!TIMED_JOBS[@]}"; do
        echo "== ${TIMED_JOBS[$n]}"
        cat "$TIMED_JOBS_DIR/$n.log"
        TIMED_LINES+=("$(cat "$TIMED_JOBS_DIR/$n.line" 2>/dev/null || echo "${TIMED_JOBS[$n]}: no result")")
        [[ "$(cat "$TIMED_JOBS_DIR/$n.rc" 2>/dev/null)" == 0 ]] || TIMED_FAILED=1
    done
    TIMED_JOBS=()
    [[ -z "$TIMED_JOBS_DIR" ]] || rm -rf "$TIMED_JOBS_DIR"
    TIMED_JOBS_DIR=""
}
# `busy_cpu_s`: the CPU seconds this machine has been busy since boot, every process counted
# (the database server and the children of other processes too, which a step's own CPU time
# misses); the difference over a phase says how close to CPU-bound it ran.
busy_cpu_s() {
    awk -v hz="$(getconf CLK_TCK)" '/^cpu / { printf "%d", ($2 + $3 + $4 + $7 + $8 + $9) / hz }' /proc/stat
}
timed_summary() {
    local line
    for line in "${TIMED_LINES[@]}"; do
        echo "   $line"
    done
    return "$TIMED_FAILED"
}
