#!/usr/bin/env bash
# admin-token.sh FILE: prints the admin token the API should start with, so `make up` is secure
# by default. MCSCOPE_ADMIN_TOKEN when set; else FILE's token; else, when no token was ever
# created with `python -m backend.cli token create`, a new one written to FILE (mode 600).
# Prints nothing when tokens are managed with the CLI only.
set -euo pipefail
file="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
py="$root/.venv/bin/python"
if [ -n "${MCSCOPE_ADMIN_TOKEN:-}" ]; then
  printf '%s\n' "$MCSCOPE_ADMIN_TOKEN"
  exit 0
fi
if [ ! -s "$file" ] && [ -z "$(cd "$root" && "$py" -m backend.cli token list)" ]; then
  mkdir -p "$(dirname "$file")"
  (umask 077 && "$py" -c 'import secrets; print("mcs_" + secrets.token_urlsafe(32))' >"$file")
fi
if [ -s "$file" ]; then cat "$file"; fi
