#!/usr/bin/env bash
# Starts the API (uvicorn) and one Celery worker in the background, PIDs and logs under var/.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$ROOT"

if pid_alive "$VAR/run/api.pid"; then
  say "API already running (pid $(cat "$VAR/run/api.pid"))"
else
  say "starting API on http://$API_HOST:$API_PORT"
  nohup "$VENV/bin/uvicorn" backend.main:app --host "$API_HOST" --port "$API_PORT" \
    >>"$VAR/log/api.log" 2>&1 &
  echo $! >"$VAR/run/api.pid"
fi
if pid_alive "$VAR/run/worker.pid"; then
  say "worker already running (pid $(cat "$VAR/run/worker.pid"))"
else
  say "starting Celery worker"
  nohup "$VENV/bin/celery" -A worker.celery_app worker --loglevel=INFO --concurrency=1 \
    -n "mcscope@%h" >>"$VAR/log/worker.log" 2>&1 &
  echo $! >"$VAR/run/worker.pid"
fi

for _ in $(seq 1 100); do
  if curl -fsS "http://$API_HOST:$API_PORT/api/v1/health" >/dev/null 2>&1; then
    echo
    echo "mcscope is up:   http://$API_HOST:$API_PORT/"
    echo "API docs:        http://$API_HOST:$API_PORT/docs"
    echo "logs:            $VAR/log/{api,worker}.log    stop with: make down"
    exit 0
  fi
  pid_alive "$VAR/run/api.pid" || { echo "API exited; see $VAR/log/api.log" >&2; tail -20 "$VAR/log/api.log" >&2; exit 1; }
  sleep 0.2
done
echo "API did not answer /api/v1/health within 20 s; see $VAR/log/api.log" >&2
exit 1
