#!/usr/bin/env bash
# Prepares a fresh Ubuntu/Debian VM for one mcscope role (server | middleware | client).
# Idempotent: safe to re-run; DRY_RUN=1 prints every command instead of running it.
# Real runs need MCSCOPE_SETUP_CONFIRM=yes so that it never changes the wrong machine
# (cloud-init on the Azure VMs sets it; the test machine never does).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# memtier_benchmark is built by the one recipe next to this script (cloud-init ships both).
MEMTIER_RECIPE="$HERE/install-memtier.sh"
WORK_DIR="${MCSCOPE_WORK_DIR:-/opt/mcscope}"
# The middleware is built from a copied source tree (scp/rsync) or, if configured, a git clone.
MIDDLEWARE_SRC="${MIDDLEWARE_SRC:-$WORK_DIR/middleware-cpp}"
MIDDLEWARE_GIT_URL="${MIDDLEWARE_GIT_URL:-}"
MIDDLEWARE_GIT_REF="${MIDDLEWARE_GIT_REF:-main}"
MIDDLEWARE_BIN=/usr/local/bin/mcscope-middleware
DRY_RUN="${DRY_RUN:-0}"

say() { printf '[setup-host] %s\n' "$*"; }
die() { printf '[setup-host] error: %s\n' "$1" >&2; exit "${2:-1}"; }
dry() { [ "$DRY_RUN" = "1" ]; }

usage() {
  cat >&2 <<USAGE
usage: $0 server|middleware|client
  DRY_RUN=1                   print the commands instead of running them
  MCSCOPE_SETUP_CONFIRM=yes   required for a real run (this changes the machine)
  MEMTIER_VERSION, MEMTIER_SHA256 (see install-memtier.sh), MIDDLEWARE_SRC, MIDDLEWARE_GIT_URL, MIDDLEWARE_GIT_REF
USAGE
  exit 2
}

# Runs a command, or prints it shell-quoted in dry-run mode.
run() {
  if dry; then
    printf '+'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}

# Same as run, inside a directory (a subshell, so the caller's cwd never changes).
run_in() {
  local dir="$1"; shift
  if dry; then
    printf '+ (cd %q &&' "$dir"; printf ' %q' "$@"; printf ')\n'
  else
    (cd "$dir" && "$@")
  fi
}

# True when the command is missing. Dry runs report everything missing, so their output
# is the full command list whatever the machine has installed.
missing_cmd() { dry || ! command -v "$1" >/dev/null 2>&1; }

# Debian package names differ between releases (dstat and libpcre3 left Debian 13):
# keep only the packages the archive offers, and only those not installed yet.
apt_install() {
  local want=() p
  for p in "$@"; do
    if dry; then want+=("$p"); continue; fi
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && continue
    if apt-cache show "$p" >/dev/null 2>&1; then want+=("$p"); else say "skipping $p: not in this release"; fi
  done
  [ ${#want[@]} -eq 0 ] && return 0
  run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${want[@]}"
}

setup_common() {
  say "common tools: chrony (clock sync across VMs), sysstat/dstat, build basics"
  run apt-get update -q
  # iperf3: bandwidth between roles, measured on request (worker/drivers/netprobe.py).
  apt_install ca-certificates curl tar gzip git chrony sysstat dstat iperf3 python3
  # Time stamps of clients and middleware are compared across machines.
  run systemctl enable --now chrony
}

setup_server() {
  apt_install memcached
  # The worker starts `memcached -t 1` itself on the ports an experiment chooses;
  # the packaged service on 11211 would compete for the single core.
  run systemctl disable --now memcached
}

fetch_middleware_source() {
  if dry || [ -f "$MIDDLEWARE_SRC/CMakeLists.txt" ]; then return 0; fi
  [ -n "$MIDDLEWARE_GIT_URL" ] || die "no middleware source at $MIDDLEWARE_SRC: copy middleware-cpp/ there \
(scp -r middleware-cpp HOST:$WORK_DIR/) or set MIDDLEWARE_GIT_URL, then re-run" 4
  if [ ! -d "$WORK_DIR/repo/.git" ]; then
    run git clone --depth 1 --branch "$MIDDLEWARE_GIT_REF" "$MIDDLEWARE_GIT_URL" "$WORK_DIR/repo"
  fi
  MIDDLEWARE_SRC="$WORK_DIR/repo/middleware-cpp"
}

setup_middleware() {
  # C++20 with Boost.Asio (headers only); the unit tests are not built on the VMs.
  apt_install build-essential g++ make cmake libboost-dev
  fetch_middleware_source
  run_in "$MIDDLEWARE_SRC" bash scripts/build.sh release --no-tests
  run install -m 0755 "$MIDDLEWARE_SRC/build/release/mcscope-middleware" "$MIDDLEWARE_BIN"
}

setup_client() {
  apt_install libmemcached-tools
  # The pinned release, checksum checked; a host without it cannot run memtier experiments.
  env MEMTIER_REQUIRED=1 MEMTIER_SRC_DIR="$WORK_DIR/src" DRY_RUN="$DRY_RUN" \
    bash "$MEMTIER_RECIPE"
}

# One line per installed tool, so cloud-init's log shows what the VM ended up with.
print_versions() {
  say "versions:"
  if dry; then
    printf '+ report versions for role %s\n' "$1"
    return 0
  fi
  local v
  case "$1" in
    server) v="$(memcached -V 2>&1 || echo missing)"; say "  memcached: $v" ;;
    middleware) v="$(ls -l "$MIDDLEWARE_BIN" 2>/dev/null || echo missing)"; say "  mcscope-middleware: $v"
      v="$(g++ --version 2>&1 | head -1)"; say "  g++: $v" ;;
    client) v="$(memtier_benchmark --version 2>&1 | head -1 || echo missing)"; say "  memtier_benchmark: $v"
      v="$( (memcaslap --version || memaslap --version) 2>&1 | head -1 || echo missing)"; say "  memaslap: $v" ;;
  esac
  v="$(chronyc --version 2>&1 | head -1 || echo missing)"; say "  chrony: $v"
  v="$( (sar -V 2>&1 || true) | head -1)"; say "  sysstat: $v"
}

main() {
  [ $# -eq 1 ] || usage
  local role="$1"
  case "$role" in server|middleware|client) ;; *) usage ;; esac
  if ! dry; then
    [ "${MCSCOPE_SETUP_CONFIRM:-}" = "yes" ] \
      || die "refusing to change this machine: set MCSCOPE_SETUP_CONFIRM=yes on the target VM (or DRY_RUN=1)" 3
    [ "$(id -u)" -eq 0 ] || die "run as root (sudo)" 3
    command -v apt-get >/dev/null 2>&1 || die "needs a Debian/Ubuntu system (apt-get)" 3
  fi
  say "role: $role (dry run: $DRY_RUN)"
  setup_common
  "setup_$role"
  print_versions "$role"
  say "done: $role"
}

main "$@"
