#!/usr/bin/env bash
# The one recipe for memtier_benchmark, which Debian does not package: build a pinned release
# from source when the binary is missing. Used by infra/local/install-deps.sh (the set-up of
# `make up` and `make test`) and by infra/hosts/setup-host.sh (cloud VMs); nothing else builds it.
#
#   MEMTIER_TARBALL       a local source tarball of the release (checked against
#                         MEMTIER_TARBALL_SHA256); without it the release is downloaded
#                         (checked against MEMTIER_SHA256)
#   MEMTIER_VERSION       default 2.3.0; another version needs its own checksums
#   MEMTIER_PREFIX        install prefix (default /usr/local)
#   MEMTIER_SRC_DIR       where the source is unpacked and built (default: a temporary folder)
#   MEMTIER_REQUIRED=1    fail when it cannot be installed (hosts); otherwise one line, exit 0
#   MEMTIER_QUIET=1       print nothing when it is already installed
#   INSTALL_REQUIRED, INSTALL_QUIET, INSTALL_SRC_DIR: the same, under the names the set-up
#                         scripts pass to every recipe of the load-generator registry
#   DRY_RUN=1             print every command instead of running it
set -euo pipefail
MEMTIER_REQUIRED="${MEMTIER_REQUIRED:-${INSTALL_REQUIRED:-0}}"
MEMTIER_QUIET="${MEMTIER_QUIET:-${INSTALL_QUIET:-0}}"
MEMTIER_SRC_DIR="${MEMTIER_SRC_DIR:-${INSTALL_SRC_DIR:-}}"

# 2.3.0: the worker's memtier parsers were checked on output of this release, so its
# JSON/stdout/HDR formats are the ones the worker expects.
DEFAULT_MEMTIER_VERSION=2.3.0
# GitHub's archive of the tag, and the `git archive` export of the same tag (another gzip).
DEFAULT_MEMTIER_SHA256=4c3238e28e63b524e6adf31e3c306af911597c5a73da4957b1dd2498d6ae7c74
DEFAULT_MEMTIER_TARBALL_SHA256=c093d85573e9d143e92a2d107f516caf2f09cf716eeb178047a03165fdde05b8
MEMTIER_VERSION="${MEMTIER_VERSION:-$DEFAULT_MEMTIER_VERSION}"
if [ "$MEMTIER_VERSION" = "$DEFAULT_MEMTIER_VERSION" ]; then
  MEMTIER_SHA256="${MEMTIER_SHA256:-$DEFAULT_MEMTIER_SHA256}"
  MEMTIER_TARBALL_SHA256="${MEMTIER_TARBALL_SHA256:-$DEFAULT_MEMTIER_TARBALL_SHA256}"
else
  MEMTIER_SHA256="${MEMTIER_SHA256:-}"
  MEMTIER_TARBALL_SHA256="${MEMTIER_TARBALL_SHA256:-}"
fi
MEMTIER_URL="https://github.com/redis/memtier_benchmark/archive/refs/tags/${MEMTIER_VERSION}.tar.gz"
MEMTIER_TARBALL="${MEMTIER_TARBALL:-}"
PREFIX="${MEMTIER_PREFIX:-/usr/local}"
REQUIRED="${MEMTIER_REQUIRED:-0}"
DRY_RUN="${DRY_RUN:-0}"
BUILD_DEPS=(build-essential autoconf automake libtool pkg-config libevent-dev libssl-dev zlib1g-dev)

say() { printf '[memtier] %s\n' "$*"; }
die() { printf '[memtier] error: %s\n' "$1" >&2; exit 1; }
dry() { [ "$DRY_RUN" = "1" ]; }
run() { if dry; then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi; }
run_in() {
  local dir="$1"; shift
  if dry; then printf '+ (cd %q &&' "$dir"; printf ' %q' "$@"; printf ')\n'; else (cd "$dir" && "$@"); fi
}
# Cannot install: hosts fail, the local set-up says so in one line and goes on with memaslap.
unavailable() {
  if [ "$REQUIRED" = "1" ]; then die "$1"; fi
  say "memtier_benchmark not installed ($1); runs will use memaslap"
  exit 0
}

# Releases print "memtier_benchmark v=2.3.0 sha=..." (older ones "memtier_benchmark 2.1.1").
has_version() {
  "$1" --version 2>&1 | grep -Fq -e "v=${MEMTIER_VERSION} " -e "memtier_benchmark ${MEMTIER_VERSION}"
}

installed() {
  dry && return 1
  local bin="$PREFIX/bin/memtier_benchmark"
  # An explicit prefix is checked alone (a build into a test prefix ignores the PATH).
  if [ ! -x "$bin" ] && [ -z "${MEMTIER_PREFIX:-}" ]; then bin="$(command -v memtier_benchmark || true)"; fi
  [ -n "$bin" ] && [ -x "$bin" ] && has_version "$bin"
}

sudo_for() {  # sudo when the folder is not writable by us (a non-root user installing in /usr/local)
  if [ -w "$1" ] || [ "$(id -u)" -eq 0 ] || dry; then return 0; fi
  command -v sudo >/dev/null 2>&1 && echo sudo
}

install_build_deps() {
  local want=() p
  for p in "${BUILD_DEPS[@]}"; do
    if ! dry && dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then continue; fi
    want+=("$p")
  done
  [ ${#want[@]} -eq 0 ] && return 0
  local sudo; sudo="$(sudo_for /)"
  run ${sudo:+"$sudo"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${want[@]}" \
    || unavailable "its build dependencies could not be installed: ${want[*]}"
}

check_sha256() {  # FILE SHA256 (empty: not verified)
  if [ -z "$2" ]; then say "no checksum for memtier ${MEMTIER_VERSION}: download not verified ($1)"; return 0; fi
  if dry; then printf '+ check sha256 %s of %q\n' "$2" "$1"; return 0; fi
  echo "$2  $1" | sha256sum -c --quiet - >/dev/null 2>&1 || die "checksum mismatch for $1 (want sha256 $2)"
}

main() {
  if installed; then
    [ "${MEMTIER_QUIET:-0}" = "1" ] || say "memtier_benchmark ${MEMTIER_VERSION} already installed"
    return 0
  fi
  local src="${MEMTIER_SRC_DIR:-$BUILD_TMP}" tarball
  install_build_deps
  say "building memtier_benchmark ${MEMTIER_VERSION} into $PREFIX (about a minute)"
  run mkdir -p "$src"
  if [ -n "$MEMTIER_TARBALL" ]; then
    [ -f "$MEMTIER_TARBALL" ] || dry || die "MEMTIER_TARBALL=$MEMTIER_TARBALL is not a file"
    tarball="$MEMTIER_TARBALL"
    check_sha256 "$tarball" "$MEMTIER_TARBALL_SHA256"
  else
    tarball="$src/memtier_benchmark-${MEMTIER_VERSION}.tar.gz"
    run curl -fsSL --retry 2 --connect-timeout 20 -o "$tarball" "$MEMTIER_URL" \
      || unavailable "cannot download $MEMTIER_URL (offline?) and no MEMTIER_TARBALL is set"
    check_sha256 "$tarball" "$MEMTIER_SHA256"
  fi
  run tar -xzf "$tarball" -C "$src"
  local dir="$src/memtier_benchmark-${MEMTIER_VERSION}"
  run_in "$dir" autoreconf -ivf
  run_in "$dir" ./configure --prefix="$PREFIX"
  run_in "$dir" make -j"$(nproc 2>/dev/null || echo 2)"
  local sudo=""
  if ! dry; then mkdir -p "$PREFIX" 2>/dev/null || true; sudo="$(sudo_for "$PREFIX")"; fi
  run_in "$dir" ${sudo:+"$sudo"} make install
  if ! dry; then
    has_version "$PREFIX/bin/memtier_benchmark" || die "built, but $PREFIX/bin/memtier_benchmark does not report v=${MEMTIER_VERSION}"
    say "installed $("$PREFIX/bin/memtier_benchmark" --version 2>&1 | head -1)"
  fi
}

# Quiet build logs unless it fails: autoreconf/configure/make print thousands of lines.
if dry; then
  BUILD_TMP=/tmp/memtier-build
  main
else
  BUILD_TMP="$(mktemp -d)"
  log="$(mktemp)"
  trap 'rm -rf "$log" "$BUILD_TMP"' EXIT
  set +e
  (set -e; main) >"$log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -eq 0 ]; then grep '^\[memtier\]' "$log" || true; else { grep -v "^\[memtier\]" "$log" || true; } | tail -40 >&2; grep '^\[memtier\]' "$log" >&2 || true; exit "$rc"; fi
fi
