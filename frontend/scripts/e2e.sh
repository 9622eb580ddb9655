#!/usr/bin/env bash
# End-to-end tests on the real API: own PostgreSQL database, migrations, uvicorn serving
# frontend/dist, Playwright (playwright-core) driving Debian's chromium in a network namespace of
# its own (below). Cleans up after itself.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/.." && pwd)"
py="$root/.venv/bin/python"
db="mcscope_e2e_$$"
uvicorn_pid=""
preview_pid=""
fake_arm_pid=""
forkrun_pid=""
forward_pid=""
browser_ns=""
shared_pid=""
sshd_env=()
# Raw run files of this database's runs (run ids restart at 1): never the dev instance's var/.
var_dir="$(mktemp -d -t mcscope-e2e-var.XXXXXX)"
export MCSCOPE_VAR_DIR="$var_dir" E2E_VAR_DIR="$var_dir"

stop_pid() {
  if [[ -n "$1" ]] && kill -0 "$1" 2>/dev/null; then
    kill "$1" && wait "$1" 2>/dev/null || true
  fi
}

cleanup() {
  stop_pid "$shared_pid"
  stop_pid "$forkrun_pid"
  stop_pid "$forward_pid"
  [[ -z "$browser_ns" ]] || ip netns del "$browser_ns" 2>/dev/null || true
  stop_pid "$fake_arm_pid"  # removes its VM hosts (namespaces, bridge) itself
  if [[ ${#sshd_env[@]} -gt 0 ]]; then
    env "${sshd_env[@]}" bash "$root/infra/local/sshd.sh" stop >/dev/null 2>&1 || true
  fi
  if [[ -n "${MCSCOPE_RUNS_QUEUE:-}" ]]; then
    "$py" -c "import redis,sys; r=redis.Redis.from_url(sys.argv[1]); r.delete(sys.argv[2], sys.argv[2] + '.maintenance')" \
      "${MCSCOPE_REDIS_URL:-redis://127.0.0.1:6379/0}" "$MCSCOPE_RUNS_QUEUE" 2>/dev/null || true
  fi
  rm -rf "${azure_dir:-/nonexistent}"
  if [[ -n "$uvicorn_pid" ]] && kill -0 "$uvicorn_pid" 2>/dev/null; then
    kill "$uvicorn_pid" && wait "$uvicorn_pid" 2>/dev/null || true
  fi
  if [[ -n "$preview_pid" ]] && kill -0 "$preview_pid" 2>/dev/null; then
    kill "$preview_pid" && wait "$preview_pid" 2>/dev/null || true
  fi
  psql -h 127.0.0.1 -U postgres -q -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
  rm -rf "$var_dir"
  [[ -n "${MCSCOPE_KEEP_TEST_LOGS:-}" ]] || rm -f "${log:-}"
}
trap cleanup EXIT  # bash runs it on SIGTERM and SIGINT too (make test interrupted)

# Build when dist is missing or older than any source, so the tests never drive a stale UI.
stale="$(find "$here/src" "$here/index.html" "$here"/vite.config.* "$here/package.json" \
  -newer "$here/dist/index.html" -print -quit 2>/dev/null || true)"
if [[ ! -f "$here/dist/index.html" || -n "$stale" ]]; then
  (cd "$here" && npx vite build >/dev/null)
fi

psql -h 127.0.0.1 -U postgres -q -c "CREATE DATABASE $db" >/dev/null
export MCSCOPE_DATABASE_URL="postgresql+psycopg://postgres@127.0.0.1:5432/$db"
# The tests' one rule for a free loopback port (backend/tests/utils/ports.py).
free_port() {
  (cd "$root" && "$py" -c 'from backend.tests.utils.ports import free_port; print(free_port())')
}
# The app serves dist at "/" itself; if that fails to load, serve dist with vite preview instead.
export MCSCOPE_UI_DIST="$here/dist"
serve_ui=app
if ! (cd "$root" && "$py" -c "import backend.main" >/dev/null 2>&1); then
  echo "e2e: backend.main does not load with MCSCOPE_UI_DIST set; serving dist with vite preview" >&2
  export MCSCOPE_UI_DIST="$here/.no-ui"
  serve_ui=preview
fi
(cd "$root" && "$root/.venv/bin/alembic" upgrade head >/dev/null 2>&1)

# Authentication on, as `make up` leaves it: the specs log in once through tests/e2e/browser.ts.
E2E_TOKEN="$("$py" -c 'import secrets; print("mcs_" + secrets.token_urlsafe(32))')"
export E2E_TOKEN MCSCOPE_ADMIN_TOKEN="$E2E_TOKEN"

# Azure testbeds (azure.spec.ts): the fake Azure Resource Manager, whose VMs are network
# namespace hosts, and this run's own queue; the API and the spec's Celery worker are pointed
# at the fake by the same MCSCOPE_AZURE_* settings a deployment points at Azure. Each Azure
# operation is polled once a second, so a creation takes long enough to be watched.
export MCSCOPE_RUNS_QUEUE="runs-e2e-$$"
azure_dir="$(mktemp -d -t mcscope-e2e-azure.XXXXXX)"
mkdir -p "$azure_dir/keys"
ssh-keygen -q -t ed25519 -N "" -f "$azure_dir/keys/id_ed25519"
export MCSCOPE_SSH_KEY_DIR="$azure_dir/keys"
(cd "$root" && exec "$py" -m infra.tests.serve_fake_arm "$azure_dir/arm") \
  >"$azure_dir/fake-arm.log" 2>&1 &
fake_arm_pid=$!
for _ in $(seq 1 100); do
  [[ -f "$azure_dir/arm/fake-arm.json" ]] && break
  kill -0 "$fake_arm_pid" 2>/dev/null || break
  sleep 0.2
done
if [[ -f "$azure_dir/arm/fake-arm.json" ]]; then
  arm_field() { "$py" -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$azure_dir/arm/fake-arm.json" "$1"; }
  MCSCOPE_AZURE_SUBSCRIPTION_ID="$(arm_field subscription)"
  MCSCOPE_AZURE_ARM_URL="$(arm_field base_url)"
  MCSCOPE_AZURE_CA_BUNDLE="$(arm_field cert)"
  MCSCOPE_AZURE_ACCESS_TOKEN="$(arm_field token)"
  E2E_AZURE_NETWORK="$(arm_field network)"
  export MCSCOPE_AZURE_SUBSCRIPTION_ID MCSCOPE_AZURE_ARM_URL MCSCOPE_AZURE_CA_BUNDLE \
    MCSCOPE_AZURE_ACCESS_TOKEN E2E_AZURE_NETWORK MCSCOPE_AZURE_POLLING_INTERVAL_S=1
  # azure.spec.ts starts its own Celery worker on this queue (only while it runs: other specs
  # leave maintenance messages nobody is meant to carry out).
  export E2E_AZURE_WORKER_LOG="$azure_dir/worker.log"
else
  echo "e2e: the fake Azure did not start (azure.spec.ts will fail):" >&2
  cat "$azure_dir/fake-arm.log" >&2
fi

# The local testbed of smoke-run.spec.ts (the one spec that runs a real experiment): its own
# sshd on a free port with its own keys, as the Python tests' conftest.py starts one, so it
# neither needs nor disturbs a `make up` sshd; the API and the spec's worker read the same
# settings. The spec starts its Celery worker on the run queue only while it runs.
ssh_dir="$var_dir/ssh"
MCSCOPE_LOCAL_SSH_PORT="$(free_port)"
export MCSCOPE_LOCAL_SSH_PORT MCSCOPE_LOCAL_SSH_DIR="$ssh_dir"
export MCSCOPE_SSH_KNOWN_HOSTS="$var_dir/known_hosts" E2E_RUN_WORKER_LOG="$var_dir/run-worker.log"
sshd_env=(SSHD_PORT="$MCSCOPE_LOCAL_SSH_PORT" SSHD_DIR="$ssh_dir")
env "${sshd_env[@]}" bash "$root/infra/local/sshd.sh" start >/dev/null \
  || echo "e2e: the local testbed's sshd did not start (smoke-run.spec.ts will fail)" >&2

port="$(free_port)"
log="$(mktemp -t mcscope-e2e-uvicorn.XXXXXX.log)"
# With MCSCOPE_KEEP_TEST_LOGS=1 (as make test keeps its lane logs) the API logs every request
# and its status, for a failing spec to be read against; otherwise warnings only, and the log
# goes with the rest when the tests end.
api_log_level=warning
if [[ -n "${MCSCOPE_KEEP_TEST_LOGS:-}" ]]; then
  api_log_level=info
  echo "e2e: the API's log: $log"
fi
(cd "$root" && exec "$py" -m backend.serve --host 127.0.0.1 --port "$port" \
  --log-level "$api_log_level") >"$log" 2>&1 &
uvicorn_pid=$!

for _ in $(seq 1 100); do
  if "$py" -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$port/api/v1/health', timeout=1)" 2>/dev/null; then
    break
  fi
  kill -0 "$uvicorn_pid" 2>/dev/null || { cat "$log"; exit 1; }
  sleep 0.2
done

# The live-progress spec publishes to Redis as the worker would (a Redis that does not answer
# fails it, as it fails the API's own live streams).
export E2E_REDIS_URL="${MCSCOPE_REDIS_URL:-redis://127.0.0.1:6379/0}"

# The specs' Python helpers (seeding scripts) run in children of one process that imported them
# once (infra/local/forkrun.py): started last, so it sees every setting above.
E2E_FORKRUN_SOCKET="$var_dir/forkrun.sock"
export E2E_FORKRUN_SOCKET
(cd "$root" && exec "$py" -m infra.local.forkrun serve "$E2E_FORKRUN_SOCKET") \
  >"$var_dir/forkrun.log" 2>&1 &
forkrun_pid=$!
for _ in $(seq 1 150); do
  [[ -S "$E2E_FORKRUN_SOCKET" ]] && break
  kill -0 "$forkrun_pid" 2>/dev/null || { cat "$var_dir/forkrun.log"; exit 1; }
  sleep 0.2
done

cd "$here"
base="http://127.0.0.1:$port"
if [[ "$serve_ui" == preview ]]; then
  ui_port="$(free_port)"
  MCSCOPE_API_URL="$base" npx vite preview --port "$ui_port" --strictPort >/dev/null 2>&1 &
  preview_pid=$!
  base="http://127.0.0.1:$ui_port"
  for _ in $(seq 1 100); do
    "$py" -c "import urllib.request; urllib.request.urlopen('$base/', timeout=1)" 2>/dev/null && break
    sleep 0.2
  done
fi
export E2E_DATABASE="$db" E2E_BASE_URL="$base"

# Chromium in a network namespace of its own, with only its loopback, and the base URL's port
# forwarded into it (infra/local/netns_forward.py): Chromium fails every request in flight
# when an address changes in its namespace (ERR_NETWORK_CHANGED), and the fake Azure's subnets
# (azure.spec here, the Azure tests of make test's load lane) add and remove addresses beside
# the browser tests. The specs' own requests (Node.js) and the API stay in this namespace.
browser_ns="mcscope-e2e-$$"
ip netns add "$browser_ns"
ip -n "$browser_ns" link set lo up
(cd "$root" && exec "$py" -m infra.local.netns_forward "$browser_ns" "${base##*:}") \
  >"$var_dir/forward.log" 2>&1 &
forward_pid=$!
for _ in $(seq 1 100); do
  grep -q "^forwarding" "$var_dir/forward.log" && break
  kill -0 "$forward_pid" 2>/dev/null || { cat "$var_dir/forward.log"; exit 1; }
  sleep 0.1
done
printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' "$browser_ns" "${CHROMIUM:-/usr/bin/chromium}" \
  >"$var_dir/chromium"
chmod +x "$var_dir/chromium"
export CHROMIUM="$var_dir/chromium"
vitest=("$here/node_modules/.bin/vitest" run --config vitest.e2e.config.ts)
vitest_run() { "${vitest[@]}" "$@"; }
if [[ $# -gt 0 ]]; then
  vitest_run "$@"  # the spec files given, their projects' groups in turn
  exit
fi
# The whole suite: "shared-state" (one spec at a time, mostly waiting on its Celery worker or
# the fake Azure's polls), then "run-state" once its workers are gone, beside "isolated" (two
# at a time), then "real-load" (vitest.e2e.config.ts says why). The shared-state and run-state
# log follows the isolated one; the result cache is left to the isolated process (two writers
# of one file).
shared_log="$var_dir/shared-state.log"
(
  status=0
  "${vitest[@]}" --project shared-state --no-cache || status=1
  "${vitest[@]}" --project run-state --no-cache || status=1
  exit "$status"
) >"$shared_log" 2>&1 &
shared_pid=$!
status=0
vitest_run --project isolated || status=1
wait "$shared_pid" || status=1
echo "== the shared-state and run-state specs, run beside the isolated ones:"
cat "$shared_log"
# The real run on the local testbed loads the machine: under `make test` it waits until the
# load tests, which measure the machine, are over (infra/local/test-all.sh creates this file).
if [[ -n "${MCSCOPE_E2E_LOAD_OVER:-}" && ! -f "$MCSCOPE_E2E_LOAD_OVER" ]]; then
  echo "== the real-load spec waits for the load tests to end"
  while [[ ! -f "$MCSCOPE_E2E_LOAD_OVER" ]]; do sleep 1; done
fi
vitest_run --project real-load || status=1
# For make test's summary of what failed: the API's slow or unanswered requests and its errors
# (backend/api/slow_requests.py), beside the failed tests' pages (tests/e2e/on-failure.ts).
if [[ $status -ne 0 && -n "${MCSCOPE_TEST_FAILURES:-}" ]]; then
  grep -a -E "slow request|ERROR" "$log" | head -n 20 | sed 's/^/  e2e API log: /' \
    >>"$MCSCOPE_TEST_FAILURES" || true
fi
exit "$status"
