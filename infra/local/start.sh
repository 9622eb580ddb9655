#!/usr/bin/env bash
# Starts the API (uvicorn) and one Celery worker in the background, PIDs and logs under var/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"

# Secure by default: the first start without a configured token writes one to var/admin-token.
TOKEN_FILE="$VAR/admin-token"
MCSCOPE_ADMIN_TOKEN="$("$ROOT/infra/local/admin-token.sh" "$TOKEN_FILE")"
token_note=""
if [ -n "$MCSCOPE_ADMIN_TOKEN" ]; then
  export MCSCOPE_ADMIN_TOKEN
  token_note="login token:     $MCSCOPE_ADMIN_TOKEN   (kept in $TOKEN_FILE)"
else
  unset MCSCOPE_ADMIN_TOKEN
fi

if pid_alive "$VAR/run/api.pid"; then
  say "API already running (pid $(cat "$VAR/run/api.pid"))"
else
  say "starting API on http://$API_HOST:$API_PORT"
  # The app checks the address it is exposed on (no auth beyond loopback: it refuses to start).
  # backend.serve: uvicorn with X-Forwarded-For trusted only from MCSCOPE_TRUSTED_PROXIES and
  # no query strings in the access log.
  export MCSCOPE_API_HOST="$API_HOST"
  nohup "$PY" -m backend.serve --host "$API_HOST" --port "$API_PORT" \
    >>"$VAR/log/api.log" 2>&1 &
  echo $! >"$VAR/run/api.pid"
fi
RUNS_QUEUE="${MCSCOPE_RUNS_QUEUE:-runs}"
if pid_alive "$VAR/run/worker.pid"; then
  say "worker already running (pid $(cat "$VAR/run/worker.pid"))"
else
  say "starting Celery worker"
  nohup "$VENV/bin/celery" -A worker.celery_app worker --loglevel=INFO --concurrency=1 \
    -Q "$RUNS_QUEUE" -n "mcscope@%h" >>"$VAR/log/worker.log" 2>&1 &
  echo $! >"$VAR/run/worker.pid"
fi
# Celery beat (embedded, -B) with the maintenance queue's worker: periodic recovery and
# Start's background sender run beside a long run, which occupies the run worker.
if pid_alive "$VAR/run/beat.pid"; then
  say "beat already running (pid $(cat "$VAR/run/beat.pid"))"
else
  say "starting Celery beat (recovery every ${MCSCOPE_RECOVERY_EVERY_S:-20} s)"
  nohup "$VENV/bin/celery" -A worker.celery_app worker -B --loglevel=INFO --concurrency=1 \
    -Q "$RUNS_QUEUE.maintenance" -s "$VAR/run/celerybeat-schedule" -n "mcscope-beat@%h" \
    >>"$VAR/log/beat.log" 2>&1 &
  echo $! >"$VAR/run/beat.pid"
fi
# Azure testbeds' creation, deletion and janitor: a worker of their own (minutes of polling
# Azure each); it does nothing without MCSCOPE_AZURE_SUBSCRIPTION_ID.
if pid_alive "$VAR/run/azure.pid"; then
  say "Azure worker already running (pid $(cat "$VAR/run/azure.pid"))"
else
  say "starting Celery worker for Azure testbeds"
  nohup "$VENV/bin/celery" -A worker.celery_app worker --loglevel=INFO --concurrency=2 \
    -Q "$RUNS_QUEUE.azure" -n "mcscope-azure@%h" >>"$VAR/log/azure.log" 2>&1 &
  echo $! >"$VAR/run/azure.pid"
fi

for _ in $(seq 1 100); do
  if curl -fsS "http://$API_HOST:$API_PORT/api/v1/health" >/dev/null 2>&1; then
    echo
    echo "mcscope is up:   http://$API_HOST:$API_PORT/"
    echo "API docs:        http://$API_HOST:$API_PORT/docs"
    if [ -n "$token_note" ]; then echo "$token_note"; fi
    echo "logs:            $VAR/log/{api,worker,beat,azure}.log    stop with: make down"
    exit 0
  fi
  pid_alive "$VAR/run/api.pid" || { echo "API exited; see $VAR/log/api.log" >&2; tail -20 "$VAR/log/api.log" >&2; exit 1; }
  sleep 0.2
done
echo "API did not answer /api/v1/health within 20 s; see $VAR/log/api.log" >&2
exit 1
