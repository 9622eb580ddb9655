#!/usr/bin/env bash
# Builds frontend/dist (installs dependencies first when node_modules is missing or stale).
set -euo pipefail
cd "$(dirname "$0")/.."
# npm ci writes node_modules/.package-lock.json; older than package-lock.json means stale.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  npm ci --no-audit --no-fund
fi
npm run build
