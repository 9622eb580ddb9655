"""Throw-away "machines" for remote-testbed tests: network namespaces on a bridge, each with its
own address and its own sshd (infra/local/sshd.sh with overrides), removed afterwards.

The pieces (Bridge, NetnsHost) are also what the fake Azure (infra/tests/fake_arm) turns each of
its VMs into; NetnsTestbed is the fixed set of hosts the worker tests use."""

import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
import uuid
from dataclasses import dataclass
from pathlib import Path

from backend.core.config import REPO_ROOT, settings

SSHD = REPO_ROOT / "infra" / "local" / "sshd.sh"
# iproute2 binds /etc/netns/<name>/* over /etc inside the namespace: the tests write these files
# there themselves (and remove them), nothing of the machine is read.
IP_NETNS_ETC = "/etc/netns"


def _sh(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=30)


def free_network() -> ipaddress.IPv4Network:
    """A /24 under 10.231.0.0/16 that no route on this machine overlaps: test sessions running
    side by side (helpers, CI shards) each get their own hosts' network."""
    out = subprocess.run(["ip", "-4", "route"], capture_output=True, text=True, timeout=30)
    routes = [
        ipaddress.ip_network(line.split()[0], strict=False)
        for line in out.stdout.splitlines()
        if line.split() and line.split()[0] != "default"
    ]
    candidates = [ipaddress.IPv4Network(f"10.231.{n}.0/24") for n in range(2, 250)]
    random.shuffle(candidates)
    return next(c for c in candidates if not any(c.overlaps(r) for r in routes))


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
class Bridge:
    """A Linux bridge in the root namespace holding `gateway` (e.g. "10.231.77.1/24"): the
    test's side of the hosts' network."""

    name: str
    gateway: str

    def up(self) -> None:
        _sh("ip", "link", "add", self.name, "type", "bridge")
        _sh("ip", "addr", "add", self.gateway, "dev", self.name)
        _sh("ip", "link", "set", self.name, "up")

    def down(self) -> None:
        subprocess.run(["ip", "link", "del", self.name], capture_output=True, timeout=30)


@dataclass
class NetnsHost:
    """One namespace on a bridge with `address` and an sshd on port 22. `authorized_keys` (a
    file) replaces the shared client key; a host key put in `state_dir` first is the one served."""

    name: str
    address: str
    state_dir: Path
    prefixlen: int = 24
    client_key: str = ""
    authorized_keys: Path | None = None
    # Login names sshd admits (default: the current user) and files `ip netns exec` binds
    # over /etc/<name> inside the namespace (e.g. a passwd naming another user for uid 0).
    allow_users: str | None = None
    etc_files: dict[str, str] | None = None

    @property
    def etc_dir(self) -> Path:
        return Path(IP_NETNS_ETC) / self.name

    def _env(self) -> dict[str, str]:
        env = os.environ | {
            "SSHD_DIR": str(self.state_dir),
            "SSHD_LISTEN": self.address,
            "SSHD_PORT": "22",
            "SSHD_CLIENT_KEY": self.client_key,
        }
        if self.authorized_keys is not None:
            env["SSHD_AUTHORIZED_KEYS"] = str(self.authorized_keys)
        if self.allow_users is not None:
            env["SSHD_ALLOW_USERS"] = self.allow_users
        return env

    def up(self, bridge: Bridge) -> None:
        outer, inner = f"{self.name}o", f"{self.name}i"
        for file, text in (self.etc_files or {}).items():
            self.etc_dir.mkdir(parents=True, exist_ok=True)
            (self.etc_dir / file).write_text(text)
        _sh("ip", "netns", "add", self.name)
        _sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        _sh("ip", "link", "set", outer, "master", bridge.name, "up")
        _sh("ip", "link", "set", inner, "netns", self.name)
        ns = ("ip", "netns", "exec", self.name)
        _sh(*ns, "ip", "addr", "add", f"{self.address}/{self.prefixlen}", "dev", inner)
        _sh(*ns, "ip", "link", "set", inner, "up")
        _sh(*ns, "ip", "link", "set", "lo", "up")
        self.start_sshd()

    def start_sshd(self) -> None:
        subprocess.run(
            ["ip", "netns", "exec", self.name, "bash", str(SSHD), "start"],
            env=self._env(),
            check=True,
            capture_output=True,
            timeout=60,
        )

    def stop_sshd(self) -> None:
        """Stops every process of the namespace by PID: its sshd and the sessions the worker's
        kept SSH connections leave (once the namespace is deleted their connections could never
        close). Not through sshd.sh's stop: it waits up to 5 s for the TERMed sshd to be gone
        (measured: 5.4-5.7 s per host), which a test's own throw-away host does not need."""
        pids = subprocess.run(
            ["ip", "netns", "pids", self.name], capture_output=True, text=True, timeout=30
        ).stdout.split()
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(pid), signal.SIGKILL)
        (self.state_dir / "sshd.pid").unlink(missing_ok=True)

    def down(self) -> None:
        self.stop_sshd()
        subprocess.run(["ip", "netns", "del", self.name], capture_output=True, timeout=30)
        subprocess.run(["ip", "link", "del", f"{self.name}o"], capture_output=True, timeout=30)
        if self.etc_files:
            shutil.rmtree(self.etc_dir, ignore_errors=True)


class NetnsTestbed:
    """N namespaces on one bridge; the worker reaches them over SSH on port 22."""

    def __init__(self, count: int, state_root: Path) -> None:
        tag = uuid.uuid4().hex[:4]
        net = free_network()
        self.bridge = Bridge(f"mcxbr{tag}", f"{net[1]}/{net.prefixlen}")
        self.key_path = str(settings.LOCAL_SSH_DIR / "id_ed25519")
        self.hosts = [
            NetnsHost(
                f"mcx{tag}{i}", str(net[i + 2]), state_root / f"ns{i}", client_key=self.key_path
            )
            for i in range(count)
        ]

    def up(self) -> None:
        self.bridge.up()
        for h in self.hosts:
            h.up(self.bridge)

    def down(self) -> None:
        for h in self.hosts:
            h.down()
        self.bridge.down()
