#!/usr/bin/env bash
# Installs what is missing on a Debian/Ubuntu machine: Debian packages, the Python
# virtualenv with the project's pinned dependencies. Idempotent and quiet when nothing is missing.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

PACKAGES=(postgresql redis-server memcached openssh-server iproute2 iperf3
  cmake g++ make libboost-all-dev googletest libgtest-dev libgmock-dev clang libclang-rt-14-dev
  nutcracker chromium python3-venv docker-compose shellcheck
  fonts-liberation poppler-utils
  texlive-latex-base texlive-latex-recommended texlive-fonts-recommended lmodern
  texlive-luatex fonts-noto-cjk fonts-symbola)
# report.pdf: pdflatex for Latin text; LuaLaTeX with Noto CJK and Symbola (monochrome emoji)
# as fallback fonts when a report's text holds CJK, emoji or other scripts
# (backend/domain/printing.py). These three add about 80 MB to download, 130 MB installed.
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs npm)

updated=0
install_missing() {
  local missing=() p
  for p in "$@"; do
    [ -n "$p" ] || continue
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing Debian packages: ${missing[*]}"
  if [ "$updated" = 0 ]; then $SUDO apt-get update -qq; updated=1; fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
}
install_missing "${PACKAGES[@]}"
# LuaLaTeX builds its font names database on first use (about 20 s of the first CJK report);
# build it now, as the user who runs the app (the cache is per user). Quick when up to date.
if command -v luaotfload-tool >/dev/null 2>&1; then
  luaotfload-tool --update >/dev/null 2>&1 || say "luaotfload-tool --update failed (LuaLaTeX builds its font cache on first use)"
fi

# The load generators' packages and install recipes come from their registry
# (backend/domain/load_generators.py), read by the system python3 (python3-venv above brings it).
plan() { (cd "$ROOT" && python3 -m infra.install_plan "$1"); }
tool_packages="$(plan packages)"
mapfile -t TOOL_PACKAGES <<< "$tool_packages"
install_missing "${TOOL_PACKAGES[@]}"

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

# Tools Debian does not package: each recipe installs its pinned release when it is missing
# (memtier_benchmark: from $MEMTIER_TARBALL when set, else the checksummed download; offline
# with no tarball it says so in one line and the local testbed uses memaslap).
tool_recipes="$(plan recipes)"
mapfile -t TOOL_RECIPES <<< "$tool_recipes"
for recipe in "${TOOL_RECIPES[@]}"; do
  [ -z "$recipe" ] || INSTALL_QUIET=1 bash "$ROOT/$recipe"
done
