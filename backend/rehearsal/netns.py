"""Namespace hosts: network namespaces on a bridge, each with its own address and its own sshd
(infra/local/sshd.sh with overrides), the "machines" of a rehearsal testbed, of the fake
Azure's VMs and of the worker's namespace tests. Creating them needs root and iproute2.

A host is a namespace `name` whose veth pair is `<name>o` (on the bridge, in the root
namespace) and `<name>i` (inside it); interface names are at most 15 characters, so names
are short. Removing a host stops every process inside its namespace by PID first (the sshd
and the sessions and tools the worker started through it), then deletes the namespace and
its veth."""

import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from backend.core.config import REPO_ROOT
from backend.rehearsal.shaping import LinkCap, shape_egress

SSHD = REPO_ROOT / "infra" / "local" / "sshd.sh"
# iproute2 binds /etc/netns/<name>/* over /etc inside the namespace: files written there are
# the namespace's own (and removed with it), nothing of the machine is read.
IP_NETNS_ETC = "/etc/netns"
COMMAND_TIMEOUT_S = 30
# Linux interface names: IFNAMSIZ 16 with the terminating NUL.
MAX_IFNAME = 15


def run_ip(*argv: str) -> None:
    """Run one iproute2/tc command; a failure raises CalledProcessError with its stderr."""
    subprocess.run(argv, check=True, capture_output=True, timeout=COMMAND_TIMEOUT_S)


def free_network(within: ipaddress.IPv4Network) -> ipaddress.IPv4Network:
    """A /24 inside `within` that no route on this machine overlaps: namespace hosts made side
    by side (two rehearsals, test sessions) each get their own network."""
    out = subprocess.run(
        ["ip", "-4", "route"], capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
    )
    routes = [
        ipaddress.ip_network(line.split()[0], strict=False)
        for line in out.stdout.splitlines()
        if line.split() and line.split()[0] != "default"
    ]
    # The first and last /24 are left out: often a gateway's or a broadcast's elsewhere.
    candidates = list(within.subnets(new_prefix=24))[1:-1] or list(within.subnets(new_prefix=24))
    random.shuffle(candidates)
    for c in candidates:
        if not any(c.overlaps(r) for r in routes):
            return c
    raise LookupError(f"every /24 of {within} is in use by a route on this machine")


def namespaces() -> set[str]:
    """The network namespaces iproute2 knows on this machine."""
    out = subprocess.run(
        ["ip", "netns", "list"], capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
    )
    return {line.split()[0] for line in out.stdout.splitlines() if line.strip()}


def links() -> set[str]:
    """The interface names of the root namespace."""
    out = subprocess.run(
        ["ip", "-o", "link", "show"], capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S
    )
    # "12: mcrab12o@if11: <...>": the name before any "@peer".
    return {
        line.split(":")[1].strip().split("@")[0] for line in out.stdout.splitlines() if ":" in line
    }


def pids_in(namespace: str) -> list[int]:
    """PIDs of the processes inside a namespace ([] when it does not exist)."""
    out = subprocess.run(
        ["ip", "netns", "pids", namespace],
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT_S,
    )
    return [int(p) for p in out.stdout.split() if p.isdigit()]


def kill_namespace_processes(namespace: str) -> int:
    """SIGKILL every process inside the namespace, by PID; how many were signalled."""
    killed = 0
    for pid in pids_in(namespace):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
            killed += 1
    return killed


@dataclass
class Bridge:
    """A Linux bridge in the root namespace holding `gateway` (e.g. "10.231.77.1/24"): the
    machine's side of the hosts' network."""

    name: str
    gateway: str

    def up(self) -> None:
        run_ip("ip", "link", "add", self.name, "type", "bridge")
        run_ip("ip", "addr", "add", self.gateway, "dev", self.name)
        run_ip("ip", "link", "set", self.name, "up")

    def down(self) -> None:
        subprocess.run(
            ["ip", "link", "del", self.name], capture_output=True, timeout=COMMAND_TIMEOUT_S
        )


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
    # Its egress cap (backend/rehearsal/shaping.py), applied at `up`; None: the veth's full speed.
    cap: LinkCap | None = None

    @property
    def etc_dir(self) -> Path:
        return Path(IP_NETNS_ETC) / self.name

    @property
    def outer(self) -> str:
        """The veth end on the bridge: the host's link as the machine sees it."""
        return f"{self.name}o"

    @property
    def device(self) -> str:
        """The host's end of its veth, inside its namespace: what its traffic leaves by."""
        return f"{self.name}i"

    @property
    def host_key_file(self) -> Path:
        return self.state_dir / "ssh_host_ed25519_key"

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
        if len(self.outer) > MAX_IFNAME:
            raise ValueError(f"namespace host name {self.name!r} is too long for its veth")
        for file, text in (self.etc_files or {}).items():
            self.etc_dir.mkdir(parents=True, exist_ok=True)
            (self.etc_dir / file).write_text(text)
        run_ip("ip", "netns", "add", self.name)
        run_ip("ip", "link", "add", self.outer, "type", "veth", "peer", "name", self.device)
        run_ip("ip", "link", "set", self.outer, "master", bridge.name, "up")
        run_ip("ip", "link", "set", self.device, "netns", self.name)
        ns = ("ip", "netns", "exec", self.name)
        run_ip(*ns, "ip", "addr", "add", f"{self.address}/{self.prefixlen}", "dev", self.device)
        run_ip(*ns, "ip", "link", "set", self.device, "up")
        run_ip(*ns, "ip", "link", "set", "lo", "up")
        if self.cap is not None:
            shape_egress(self.name, self.device, self.cap.mbit_s)
        self.start_sshd()

    def start_sshd(self) -> None:
        done = subprocess.run(
            ["ip", "netns", "exec", self.name, "bash", str(SSHD), "start"],
            env=self._env(),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if done.returncode != 0:  # sshd.sh's own words (a missing key folder, a bad config)
            tail = (done.stderr or done.stdout).strip()[-500:]
            raise RuntimeError(f"sshd did not start in namespace {self.name}: {tail}")

    def stop_sshd(self) -> None:
        """Stops every process of the namespace by PID: its sshd and the sessions the worker's
        kept SSH connections leave (once the namespace is deleted their connections could never
        close). Not through sshd.sh's stop: it waits up to 5 s for the TERMed sshd to be gone
        (measured: 5.4-5.7 s per host), which a host being torn down does not need."""
        kill_namespace_processes(self.name)
        (self.state_dir / "sshd.pid").unlink(missing_ok=True)

    def down(self) -> None:
        self.stop_sshd()
        subprocess.run(
            ["ip", "netns", "del", self.name], capture_output=True, timeout=COMMAND_TIMEOUT_S
        )
        subprocess.run(
            ["ip", "link", "del", self.outer], capture_output=True, timeout=COMMAND_TIMEOUT_S
        )
        if self.etc_files:
            shutil.rmtree(self.etc_dir, ignore_errors=True)
