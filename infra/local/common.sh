# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Shared by the local set-up scripts: paths, sudo when not root, PID-file helpers.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VAR="$ROOT/var"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
API_HOST="${MCSCOPE_API_HOST:-127.0.0.1}"
API_PORT="${MCSCOPE_API_PORT:-8000}"
DB_NAME="${MCSCOPE_DB_NAME:-mcscope}"
PG_ADMIN_URL="${MCSCOPE_PG_ADMIN_URL:-postgresql://postgres@127.0.0.1:5432/postgres}"
export MCSCOPE_DATABASE_URL="${MCSCOPE_DATABASE_URL:-postgresql+psycopg://postgres@127.0.0.1:5432/$DB_NAME}"
mkdir -p "$VAR/run" "$VAR/log"

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }

# pid_alive FILE: the process named in FILE is running.
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# stop_pid FILE NAME: SIGTERM the PID in FILE, SIGKILL after 15 s, remove FILE.
stop_pid() {
  local file="$1" name="$2" pid
  if ! pid_alive "$file"; then rm -f "$file"; return 0; fi
  pid="$(cat "$file")"
  say "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$file"
}
