"""Throw-away "machines" for remote-testbed tests: the product's namespace hosts
(backend.rehearsal.netns) on a network of the tests' own range, removed afterwards.

NetnsTestbed is the fixed set of hosts the worker tests use; the fake Azure
(infra/tests/fake_arm) builds its VMs from the same Bridge and NetnsHost."""

import ipaddress
import uuid
from pathlib import Path

from backend.core.config import settings
from backend.rehearsal.capabilities import missing_capability
from backend.rehearsal.netns import Bridge, NetnsHost
from backend.rehearsal.netns import free_network as _free_network
from backend.rehearsal.netns import run_ip as _sh
from backend.rehearsal.shaping import LinkCap

__all__ = ["Bridge", "NetnsHost", "NetnsTestbed", "_sh", "free_network", "netns_supported"]

# The tests' hosts live under 10.231.0.0/16 (rehearsal testbeds under their own range).
TEST_NETWORKS = ipaddress.IPv4Network("10.231.0.0/16")


def free_network() -> ipaddress.IPv4Network:
    """A /24 under 10.231.0.0/16 that no route on this machine overlaps: test sessions running
    side by side (helpers, CI shards) each get their own hosts' network."""
    return _free_network(TEST_NETWORKS)


def netns_supported() -> str | None:
    """None when namespaces can be created here, else the reason why not."""
    return missing_capability(shaping=False)


class NetnsTestbed:
    """N namespaces on one bridge; the worker reaches them over SSH on port 22. `caps`: each
    host's egress cap (None: unshaped), as many as hosts when given."""

    def __init__(
        self, count: int, state_root: Path, caps: list[LinkCap | None] | None = None
    ) -> None:
        tag = uuid.uuid4().hex[:4]
        net = free_network()
        self.bridge = Bridge(f"mcxbr{tag}", f"{net[1]}/{net.prefixlen}")
        self.key_path = str(settings.LOCAL_SSH_DIR / "id_ed25519")
        self.hosts = [
            NetnsHost(
                f"mcx{tag}{i}",
                str(net[i + 2]),
                state_root / f"ns{i}",
                client_key=self.key_path,
                cap=caps[i] if caps else None,
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
