"""Which machines play which role: the local testbed (SSH to 127.0.0.1) or hosts from the DB."""

import getpass
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from backend.core.config import REPO_ROOT, settings
from backend.models import HostRole, Testbed, TestbedKind
from worker.drivers.host import HostSpec

LOCAL_MIDDLEWARE = REPO_ROOT / "middleware-cpp" / "build" / "release" / "mcscope-middleware"
REMOTE_WORKROOT = "/tmp/mcscope"
# Advisory lock namespace (first key of pg_try_advisory_lock(int, int)).
LOCK_NAMESPACE = 7301


@dataclass(frozen=True)
class TestbedLayout:
    """Hosts per role; instance i of a role runs on hosts[i % len(hosts)] with its own port."""

    __test__ = False  # not a pytest class

    lock_key: int
    name: str
    servers: tuple[HostSpec, ...]
    middlewares: tuple[HostSpec, ...]
    clients: tuple[HostSpec, ...]
    middleware_binary: str | None  # None: look it up on the host's PATH
    workroot: str
    # Host name -> what is known of its machine before connecting ({"size", "region", "zone"}
    # of an Azure VM); recorded in Run.hosts["hardware"] with the CPU model read at each run.
    hardware: dict[str, dict[str, str]] = field(default_factory=dict, hash=False, compare=False)

    def used(self, params: dict[str, Any]) -> list[HostSpec]:
        """The hosts a run with these parameters uses, once each, in role order."""
        return list(
            dict.fromkeys(
                [
                    *self.servers[: params["servers"]],
                    *self.middlewares[: params["middlewares"]],
                    *self.clients[: params["client_machines"]],
                ]
            )
        )


def local_host() -> HostSpec:
    return HostSpec(
        name="local",
        address="127.0.0.1",
        user=getpass.getuser(),
        port=settings.LOCAL_SSH_PORT,
        key_path=str(settings.LOCAL_SSH_DIR / "id_ed25519"),
        host_key=_local_host_key(),
    )


def _local_host_key() -> str | None:
    # The project's own sshd (infra/local/sshd.sh): its key is known, nothing to trust on use.
    try:
        return (settings.LOCAL_SSH_DIR / "ssh_host_ed25519_key.pub").read_text().strip() or None
    except OSError:
        return None


def local_testbed() -> TestbedLayout:
    host = (local_host(),)
    return TestbedLayout(
        lock_key=0,
        name="local",
        servers=host,
        middlewares=host,
        clients=host,
        middleware_binary=str(LOCAL_MIDDLEWARE),
        workroot=str(settings.VAR_DIR / "work"),
    )


def load_testbed(session: Session, testbed_id: int | None) -> TestbedLayout:
    """The layout for an experiment's testbed (None: the local one)."""
    if testbed_id is None:
        return local_testbed()
    testbed = session.get(Testbed, testbed_id)
    if testbed is None:
        raise LookupError(f"testbed {testbed_id} does not exist")
    by_role: dict[HostRole, list[HostSpec]] = {role: [] for role in HostRole}
    hardware: dict[str, dict[str, str]] = {}
    for h in testbed.hosts:
        known = {"size": h.size, "region": h.region, "zone": h.zone}
        hardware[h.name] = {k: v for k, v in known.items() if v is not None}
        spec = HostSpec(h.name, h.address, h.ssh_user, h.ssh_port, h.key_path, h.host_key)
        by_role[h.role].append(spec)
    return TestbedLayout(
        lock_key=testbed.id,
        name=testbed.name,
        servers=tuple(by_role[HostRole.SERVER]),
        middlewares=tuple(by_role[HostRole.MIDDLEWARE]),
        clients=tuple(by_role[HostRole.CLIENT]),
        # A rehearsal's hosts share this machine's files: the middleware built here.
        middleware_binary=str(LOCAL_MIDDLEWARE) if testbed.kind is TestbedKind.REHEARSAL else None,
        workroot=REMOTE_WORKROOT,
        hardware=hardware,
    )
