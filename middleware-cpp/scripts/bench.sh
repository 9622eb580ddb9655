#!/usr/bin/env bash
# `make bench-middleware`: throughput and latency of memcached direct vs middleware vs twemproxy.
# Usage: scripts/bench.sh [--seconds N] [--workers 2,8]   (traffic only on 127.0.0.1)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
for tool in memcached memcaslap nutcracker; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool not installed" >&2; exit 1; }
done
[[ -x "$HERE/build/release/mcscope-middleware" ]] || "$HERE/scripts/build.sh" release --no-tests
exec "$ROOT/.venv/bin/python" "$HERE/scripts/bench.py" "$@"
