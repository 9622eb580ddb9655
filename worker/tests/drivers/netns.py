"""Throw-away "machines" for remote-testbed tests: network namespaces on a bridge, each with its
own address and its own sshd (infra/local/sshd.sh with overrides), removed afterwards."""

import contextlib
import os
import shutil
import signal
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

from backend.core.config import REPO_ROOT, settings

SSHD = REPO_ROOT / "infra" / "local" / "sshd.sh"
SUBNET = "10.231.77"


def _sh(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=30)


def netns_supported() -> str | None:
    """None when namespaces can be created here, else the reason why not."""
    if os.geteuid() != 0 or shutil.which("ip") is None:
        return "needs root and iproute2 to create network namespaces"
    probe = f"mcx-probe-{uuid.uuid4().hex[:6]}"
    try:
        _sh("ip", "netns", "add", probe)
    except (subprocess.CalledProcessError, OSError) as exc:
        return f"`ip netns add` is not permitted here: {exc}"
    _sh("ip", "netns", "del", probe)
    return None


@dataclass
class NetnsHost:
    name: str
    address: str
    state_dir: Path


class NetnsTestbed:
    """N namespaces on one bridge; the worker reaches them over SSH on port 22."""

    def __init__(self, count: int, state_root: Path) -> None:
        tag = uuid.uuid4().hex[:4]
        self.bridge = f"mcxbr{tag}"
        self.hosts = [
            NetnsHost(f"mcx{tag}{i}", f"{SUBNET}.{i + 2}", state_root / f"ns{i}")
            for i in range(count)
        ]
        self.key_path = str(settings.LOCAL_SSH_DIR / "id_ed25519")

    def _env(self, host: NetnsHost) -> dict[str, str]:
        return os.environ | {
            "SSHD_DIR": str(host.state_dir),
            "SSHD_LISTEN": host.address,
            "SSHD_PORT": "22",
            "SSHD_CLIENT_KEY": self.key_path,
        }

    def up(self) -> None:
        _sh("ip", "link", "add", self.bridge, "type", "bridge")
        _sh("ip", "addr", "add", f"{SUBNET}.1/24", "dev", self.bridge)
        _sh("ip", "link", "set", self.bridge, "up")
        for h in self.hosts:
            outer, inner = f"{h.name}o", f"{h.name}i"
            _sh("ip", "netns", "add", h.name)
            _sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
            _sh("ip", "link", "set", outer, "master", self.bridge, "up")
            _sh("ip", "link", "set", inner, "netns", h.name)
            ns = ("ip", "netns", "exec", h.name)
            _sh(*ns, "ip", "addr", "add", f"{h.address}/24", "dev", inner)
            _sh(*ns, "ip", "link", "set", inner, "up")
            _sh(*ns, "ip", "link", "set", "lo", "up")
            subprocess.run(
                [*ns, "bash", str(SSHD), "start"],
                env=self._env(h),
                check=True,
                capture_output=True,
                timeout=60,
            )

    def down(self) -> None:
        for h in self.hosts:
            subprocess.run(
                ["bash", str(SSHD), "stop"], env=self._env(h), capture_output=True, timeout=60
            )
            # The worker's kept SSH connections leave sshd sessions in the namespace; once it
            # is deleted their connections can never close, so stop them by PID first.
            pids = subprocess.run(
                ["ip", "netns", "pids", h.name], capture_output=True, text=True, timeout=30
            ).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(int(pid), signal.SIGKILL)
            subprocess.run(["ip", "netns", "del", h.name], capture_output=True, timeout=30)
            subprocess.run(["ip", "link", "del", f"{h.name}o"], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "del", self.bridge], capture_output=True, timeout=30)
