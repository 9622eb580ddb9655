#!/usr/bin/env bash
# `make test`: every suite, in lanes that share the machine without measuring each other.
#
# The tests that run real load (runs on the local testbed, namespace and fake-Azure VMs) assert
# throughput ratios, heartbeats and timeouts, so they run one at a time at normal priority: the
# "load" lane, in the foreground. They leave about half of the two cores idle (measured
# 2026-11-28: 54 % idle over their 1,153 s, and under 10 % idle in 2 of 234 five-second samples).
# Beside them, one lane at SCHED_IDLE (`chrt --idle`, inherited by every process it starts) runs
# lint, the C++ suite (builds, sanitizer runs, fuzzing), the frontend's static half (Biome, tsc,
# Vitest, build: no server, no browser) and the load-free Python tests in turn: the kernel gives
# it only CPU time that no normal-priority process wants, so the load lane still sees a quiet
# machine. One lane, not one per suite: with four idle-class lanes beside the load tests (tried
# 2026-11-28) each got so little CPU that uvicorn took over 60 s to start and a browser test
# timed out. The frontend's end-to-end tests (a real browser against a real API) are the third
# lane. They start when the load lane ends, or earlier once both the side lane has ended and
# the load lane has reached the modules whose load is not measured (lifecycle, recovery,
# orchestration: run last, backend/tests/utils/load_lane.py), and not before the side lane's
# frontend step has installed and built what they use. Beside the load tests they take the
# side lane's place at SCHED_IDLE, and their one spec that runs real load on the local testbed
# waits for the load lane's end (frontend/scripts/e2e.sh); started after it (a slow machine,
# where the side lane is the longer: 1,113 s against 985 s on 2026-11-29) they run at normal
# priority beside what is left of the side lane. Never beside a measurement: even at idle
# priority they moved the local SLO search's p99 from 0.3 ms to 7-30 ms (2026-11-30), and in
# the side lane during the load tests (2026-11-28) two worker-recovery tests failed.
#
# The side and browser lanes' logs are printed when all three are done; the summary gives
# each lane's wall time and status, and the 15 slowest tests of every pytest run (their times
# are recorded by backend/tests/utils/durations.py; test-python.sh checks the load-free tests'
# budget). One random-order seed for the whole run, printed, so a failing order can be repeated.
# MCSCOPE_KEEP_TEST_LOGS=1 keeps the lane logs and every test phase's times (durations/*.jsonl).
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
source infra/local/timed.sh  # busy_cpu_s: what a phase cost the two cores, beside its wall time
START=$(date +%s)
cpu_start=$(busy_cpu_s)
logs="$(mktemp -d -t mcscope-test.XXXXXX)"
export MCSCOPE_TEST_DURATIONS_DIR="$logs/durations"
mkdir -p "$MCSCOPE_TEST_DURATIONS_DIR"
# What failed, a line each, from every lane (pytest: backend/tests/utils/failures.py; browser
# tests: frontend/tests/e2e/on-failure.ts; a failed step of a lane), printed last: the end of
# a long CI log is often all that is read.
export MCSCOPE_TEST_FAILURES="$logs/failures.txt"
: >"$MCSCOPE_TEST_FAILURES"
export MCSCOPE_TEST_SEED="${MCSCOPE_TEST_SEED:-$(( RANDOM * 32768 + RANDOM ))}"
echo "== random test order seed $MCSCOPE_TEST_SEED (the same order again: MCSCOPE_TEST_SEED=$MCSCOPE_TEST_SEED make test)"
side_pid=""
e2e_pid=""
stop_lanes() {
    local group
    for group in $side_pid $e2e_pid; do kill -- "-$group" 2>/dev/null; done
    exit 130
}
trap stop_lanes INT TERM

# The side lane: its own process group (an interrupt stops all of it), at SCHED_IDLE; each step
# runs even when an earlier one failed, and its status and wall time go to side.rc.
side_lane() {
    local failed=0 start step
    start=$(date +%s)
    for step in "make --no-print-directory compose-check lint docs-build" \
                "bash middleware-cpp/scripts/test.sh" \
                "bash frontend/scripts/test.sh static" \
                "bash infra/local/test-python.sh load-free"; do
        echo "== side lane: $step"
        $step || { failed=1; echo "== side lane: FAILED: $step" | tee -a "$MCSCOPE_TEST_FAILURES"; }
        # npm ci and the build done: the end-to-end tests may start (they use both).
        [[ "$step" == *"frontend/scripts/test.sh"* ]] && touch "$logs/frontend-ready"
    done
    echo "$failed $(( $(date +%s) - start ))" >"$logs/side.rc"
}
# The browser lane: its own process group; waits for the built frontend, then for the load
# lane's end (load.over) or for both the side lane's end and the end of the measured load tests
# (measured.over, made by load_lane.py); at SCHED_IDLE while load tests run, and its real-load
# spec waits for load.over. Status, wall time and when and how it started go to e2e.rc.
e2e_lane() {
    local start status=0 how prio
    while [[ ! -f "$logs/frontend-ready" && ! -f "$logs/side.rc" ]]; do sleep 1; done
    until [[ -f "$logs/load.over" ]] || [[ -f "$logs/side.rc" && -f "$logs/measured.over" ]]; do
        sleep 1
    done
    start=$(date +%s)
    if [[ -f "$logs/load.over" ]]; then
        how="after the load lane"
        prio=()
    else
        how="beside the load tests whose load is not measured, at idle priority"
        prio=(chrt --idle 0)
    fi
    echo "== frontend end-to-end tests, $how (what else uses the CPU: load average, busiest processes)"
    uptime
    top -b -n 2 -d 1 -o %CPU -w 120 | awk '/^top -/ { n++ } n == 2' | sed -n 7,12p  # the last second
    MCSCOPE_E2E_LOAD_OVER="$logs/load.over" "${prio[@]}" bash frontend/scripts/test.sh e2e \
        || status=1
    [[ $status -eq 0 ]] || echo "== frontend end-to-end: FAILED" >>"$MCSCOPE_TEST_FAILURES"
    echo "$status $(( $(date +%s) - start )) $(( start - LANES_START )) $how" >"$logs/e2e.rc"
}
export -f side_lane e2e_lane
export logs MCSCOPE_MEASURED_LOAD_OVER="$logs/measured.over"
LANES_START=$(date +%s)
export LANES_START
setsid chrt --idle 0 bash -c side_lane >"$logs/side.log" 2>&1 &
side_pid=$!
setsid bash -c e2e_lane >"$logs/e2e.log" 2>&1 &
e2e_pid=$!

echo "== side lane at SCHED_IDLE: lint, C++ suite, frontend static checks, load-free Python tests (log: $logs/side.log)"
echo "== load lane: the middleware's release binary, then the load tests one at a time"
load_start=$(date +%s)
load_status=0
# Only the binary here: the C++ suite in the side lane builds the rest of the tree (its flock in
# build.sh keeps the two builds of the tree apart).
bash middleware-cpp/scripts/build.sh release --middleware-only \
    && bash infra/local/test-python.sh load || load_status=1
[[ $load_status -eq 0 ]] || echo "== load lane: FAILED" >>"$MCSCOPE_TEST_FAILURES"
load_wall=$(( $(date +%s) - load_start ))
touch "$logs/load.over"  # the browser lane may start, or its real-load spec if it is under way
echo "== load lane done in $load_wall s; waiting for the side and browser lanes"

wait "$side_pid"
wait "$e2e_pid"
echo
echo "================ side lane ================"
cat "$logs/side.log"
read -r side_status side_wall <"$logs/side.rc" 2>/dev/null || { side_status=1; side_wall="?"; }
echo
echo "================ browser lane ================"
cat "$logs/e2e.log"
read -r frontend_status frontend_wall frontend_after frontend_how <"$logs/e2e.rc" 2>/dev/null \
    || { frontend_status=1; frontend_wall="?"; frontend_after="?"; frontend_how="did not report"; }
all_cpu=$(( $(busy_cpu_s) - cpu_start ))
all_wall=$(( $(date +%s) - load_start ))

word() { [[ "$1" -eq 0 ]] && echo ok || echo FAILED; }
echo
echo "== make test: lanes"
printf '   %-36s %-6s %6s s\n' "load (release build, load tests)" "$(word "$load_status")" "$load_wall" \
    "side (lint, C++, Python, UI static)" "$(word "$side_status")" "$side_wall" \
    "frontend end-to-end" "$(word "$frontend_status")" "$frontend_wall"
echo "== the browser lane started $frontend_after s after the lanes, $frontend_how"
echo "== machine CPU busy (of $(nproc) cores): $all_cpu s in the $all_wall s since the lanes started"
.venv/bin/python -m backend.tests.utils.durations slowest 15 "$MCSCOPE_TEST_DURATIONS_DIR"/*.jsonl
status=$(( load_status || side_status || frontend_status ))
if [[ -s "$MCSCOPE_TEST_FAILURES" ]]; then
  echo "== what failed (the lane logs above have the whole of each):"
  cut -c1-600 "$MCSCOPE_TEST_FAILURES" | head -n 40
fi
echo "== make test $([[ $status -eq 0 ]] && echo passed || echo FAILED) in $(( $(date +%s) - START ))s"
if [[ -n "${MCSCOPE_KEEP_TEST_LOGS:-}" ]]; then
  echo "== lane logs and test times kept in $logs"  # (durations/*.jsonl: every test phase)
else
  rm -rf "$logs"
fi
exit "$status"
