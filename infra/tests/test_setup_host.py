"""setup-host.sh checked without touching this machine: syntax, shellcheck, and DRY_RUN=1
output per role. A real run is refused unless MCSCOPE_SETUP_CONFIRM=yes."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "hosts" / "setup-host.sh"


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    # The caller's recipe settings (CI exports MEMTIER_TARBALL) must not leak into the plan.
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DRY_RUN", "MCSCOPE_SETUP_CONFIRM") and not k.startswith("MEMTIER_")
    }
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=30,
        env={**base, **env},
        check=False,
    )


def _commands(role: str) -> list[str]:
    proc = _run(role, DRY_RUN="1")
    assert proc.returncode == 0, proc.stderr
    return [ln[2:] for ln in proc.stdout.splitlines() if ln.startswith("+ ")]


def test_syntax() -> None:
    proc = subprocess.run(["bash", "-n", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_shellcheck_clean() -> None:
    assert shutil.which("shellcheck"), "shellcheck not installed (Debian package: shellcheck)"
    proc = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize("role", ["server", "middleware", "client"])
def test_common_tools_on_every_role(role: str) -> None:
    cmds = _commands(role)
    assert cmds[0] == "apt-get update -q"
    common = cmds[1]
    for pkg in ("chrony", "sysstat", "dstat", "curl", "iperf3"):
        assert pkg in common.split()
    assert "systemctl enable --now chrony" in cmds
    assert cmds[-1] == f"report versions for role {role}"


def test_server_installs_memcached_and_disables_the_service() -> None:
    cmds = _commands("server")
    assert any(
        c.startswith("env DEBIAN_FRONTEND=noninteractive apt-get install")
        and c.endswith(" memcached")
        for c in cmds
    )
    assert "systemctl disable --now memcached" in cmds
    assert not any("memtier" in c or "build.sh" in c for c in cmds)


def test_middleware_builds_and_installs_the_binary() -> None:
    cmds = _commands("middleware")
    install = next(c for c in cmds if "libboost-dev" in c)
    assert {"cmake", "g++", "make"} <= set(install.split())
    assert "(cd /opt/mcscope/middleware-cpp && bash scripts/build.sh release --no-tests)" in cmds
    assert (
        "install -m 0755 /opt/mcscope/middleware-cpp/build/release/mcscope-middleware "
        "/usr/local/bin/mcscope-middleware"
    ) in cmds
    assert not any("memcached" in c.split() for c in cmds)


def test_middleware_source_location_is_configurable() -> None:
    proc = _run("middleware", DRY_RUN="1", MIDDLEWARE_SRC="/srv/src/middleware-cpp")
    assert (
        "+ (cd /srv/src/middleware-cpp && bash scripts/build.sh release --no-tests)" in proc.stdout
    )


def test_client_builds_pinned_memtier_and_installs_memaslap() -> None:
    cmds = _commands("client")
    assert any(c.split()[-1] == "libmemcached-tools" for c in cmds if "apt-get install" in c)
    # The build dependencies come from the one memtier recipe (infra/hosts/install-memtier.sh).
    deps = next(c for c in cmds if "libevent-dev" in c).split()
    for pkg in ("autoconf", "automake", "libtool", "pkg-config", "zlib1g-dev", "libssl-dev"):
        assert pkg in deps
    url = "https://github.com/redis/memtier_benchmark/archive/refs/tags/2.3.0.tar.gz"
    assert any(c.startswith("curl ") and c.endswith(url) for c in cmds)
    src = "/opt/mcscope/src/memtier_benchmark-2.3.0"
    steps = [c for c in cmds if c.startswith(f"(cd {src} && ")]
    assert [s.split("&& ")[1].rstrip(")").split()[0] for s in steps] == [
        "autoreconf",
        "./configure",
        "make",
        "make",
    ]
    assert steps[-1] == f"(cd {src} && make install)"


def test_default_memtier_download_is_checksummed() -> None:
    out = _run("client", DRY_RUN="1").stdout
    sha = "4c3238e28e63b524e6adf31e3c306af911597c5a73da4957b1dd2498d6ae7c74"
    lines = out.splitlines()
    check = lines.index(f"+ check sha256 {sha} of /opt/mcscope/src/memtier_benchmark-2.3.0.tar.gz")
    # Verified after the download and before anything is unpacked.
    assert lines[check - 1].startswith("+ curl ")
    assert lines[check + 1].startswith("+ tar -xzf ")


def test_other_memtier_version_uses_its_own_checksum() -> None:
    proc = _run("client", DRY_RUN="1", MEMTIER_VERSION="2.1.4", MEMTIER_SHA256="ab" * 32)
    assert "refs/tags/2.1.4.tar.gz" in proc.stdout
    assert f"+ check sha256 {'ab' * 32}" in proc.stdout
    unchecked = _run("client", DRY_RUN="1", MEMTIER_VERSION="2.1.4").stdout
    assert "check sha256" not in unchecked
    assert "download not verified" in unchecked


@pytest.mark.parametrize("args", [[], ["database"], ["server", "extra"]])
def test_bad_role_prints_usage(args: list[str]) -> None:
    proc = _run(*args, DRY_RUN="1")
    assert proc.returncode == 2
    assert "usage:" in proc.stderr
    assert "+ " not in proc.stdout


def test_real_run_refused_without_confirmation() -> None:
    # Exits before any command: this machine is never modified by the tests.
    proc = _run("server")
    assert proc.returncode == 3
    assert "refusing to change this machine" in proc.stderr
    assert proc.stdout == ""
