#!/usr/bin/env bash
# Installs what is missing on a Debian/Ubuntu machine: Debian packages, the Python
# virtualenv with the project's pinned dependencies. Idempotent and quiet when nothing is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PACKAGES=(postgresql redis-server memcached libmemcached-tools openssh-server iproute2 iperf3
  cmake g++ make libboost-all-dev googletest libgtest-dev libgmock-dev clang libclang-rt-14-dev
  nutcracker chromium python3-venv docker-compose shellcheck
  fonts-liberation poppler-utils
  texlive-latex-base texlive-latex-recommended texlive-fonts-recommended lmodern)
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs npm)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  say "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# The virtualenv is rebuilt only when pyproject.toml changed since the last install.
stamp="$VENV/.mcscope-installed"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -d' ' -f1)"
if [ ! -x "$PY" ]; then
  say "creating virtualenv .venv"
  python3 -m venv "$VENV"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing Python dependencies"
  "$PY" -m pip install -q --upgrade pip
  "$PY" -m pip install -q -e "${ROOT}[dev]"
  echo "$want" > "$stamp"
fi

# memtier_benchmark (not a Debian package): the one recipe builds the pinned release when it is
# missing, from $MEMTIER_TARBALL when set, else from the checksummed download; offline with no
# tarball it says so in one line and the local testbed uses memaslap.
MEMTIER_QUIET=1 bash "$ROOT/infra/hosts/install-memtier.sh"
