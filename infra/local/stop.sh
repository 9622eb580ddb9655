#!/usr/bin/env bash
# Stops exactly the processes `make up` started, by the PIDs it recorded.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
stop_pid "$VAR/run/api.pid" "API"
stop_pid "$VAR/run/worker.pid" "Celery worker"
stop_pid "$VAR/run/beat.pid" "Celery beat"
stop_pid "$VAR/run/azure.pid" "Celery Azure worker"
if [ -x "$ROOT/infra/local/sshd.sh" ]; then "$ROOT/infra/local/sshd.sh" stop; fi
