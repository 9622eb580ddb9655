#!/usr/bin/env bash
# `make bench-middleware`: memcached direct vs twemproxy vs the middleware at several worker
# counts: throughput ratios, CPU, context switches and syscalls per request (scripts/bench.py).
# Usage: scripts/bench.sh [--cells ...] [--workers 2,8,32,64] [--reps 3] [--seconds 10]
#        [--tools memtier,memaslap] [--strace-seconds 3] [--build LABEL=BINARY]... [--out FILE]
# Traffic only on 127.0.0.1.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
for tool in memcached memcaslap nutcracker strace; do
    command -v "$tool" >/dev/null || { echo "bench.sh: $tool not installed (apt install ${tool/memcaslap/libmemcached-tools})" >&2; exit 1; }
done
[[ -x "$HERE/build/release/mcscope-middleware" ]] || "$HERE/scripts/build.sh" release --no-tests
exec "$ROOT/.venv/bin/python" "$HERE/scripts/bench.py" "$@"
