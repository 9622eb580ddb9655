#!/usr/bin/env bash
# Uses PostgreSQL and Redis when they already answer on their standard ports, starts them
# otherwise, then creates the database and migrates it to the newest revision.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if ! pg_isready -q -h 127.0.0.1 -p 5432; then
  say "starting PostgreSQL"
  version="$(ls /etc/postgresql | sort -V | tail -1)"
  $SUDO pg_ctlcluster --skip-systemctl-redirect "$version" main start \
    || $SUDO service postgresql start
  for _ in $(seq 1 50); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 0.2; done
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  say "starting Redis"
  $SUDO redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --logfile "$VAR/log/redis.log"
  for _ in $(seq 1 50); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.2; done
fi

"$PY" - "$PG_ADMIN_URL" "$DB_NAME" <<'PYEOF'
import sys
import psycopg
from psycopg import sql
admin, name = sys.argv[1], sys.argv[2]
with psycopg.connect(admin, autocommit=True) as conn:
    if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        print(f"==> created database {name}")
PYEOF
(cd "$ROOT" && "$VENV/bin/alembic" -c alembic.ini upgrade head 2>&1 | grep -v "^INFO  \[alembic.runtime.migration\] \(Context\|Will\)" || true)
