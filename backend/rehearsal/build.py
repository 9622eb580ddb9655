"""Build a rehearsal's hosts on this machine, and tear down exactly what was built.

Every name is recorded (through `record`, which commits it on the rehearsal's row) before the
thing is made, so whatever dies half-way (the worker, the machine) a teardown knows what to
remove: a bridge, then per host a namespace with its veth pair and sshd, and the hosts' state
directory. A teardown is idempotent and removes in reverse order; the processes inside a
namespace (its sshd, the SSH sessions and the role's tools the worker started through it) are
stopped by PID before the namespace goes."""

import getpass
import logging
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from backend.core.config import settings
from backend.rehearsal.netns import (
    COMMAND_TIMEOUT_S,
    Bridge,
    NetnsHost,
    free_network,
    kill_namespace_processes,
    links,
    namespaces,
)
from backend.rehearsal.shaping import LinkCap
from backend.rehearsal.topology import RehearsalHost

logger = logging.getLogger(__name__)

# Kinds of the names `made` records ("namespace mcr1a2b0").
BRIDGE, NAMESPACE, STATE = "bridge", "namespace", "state"


@dataclass(frozen=True)
class BuiltHost:
    """A host as registered: where the worker reaches it and the key it pins."""

    planned: RehearsalHost
    namespace: str
    address: str
    ssh_user: str
    key_path: str
    host_key: str


def host_namespace(tag: str, index: int) -> str:
    """The namespace (and veth prefix) of the index-th host: "mcr" + tag + index."""
    return f"mcr{tag}{index}"


def bridge_name(tag: str) -> str:
    return f"mcrbr{tag}"


def state_root(tag: str) -> Path:
    return settings.VAR_DIR / "rehearsals" / tag


def client_key_path() -> str:
    """The key the worker logs in with: the local testbed's (infra/local/sshd.sh makes it)."""
    return str(settings.LOCAL_SSH_DIR / "id_ed25519")


def _public_key(host: NetnsHost) -> str:
    # "ssh-ed25519 AAAA... comment": the pinned form is type and key.
    text = host.host_key_file.with_suffix(".pub").read_text().split()
    return " ".join(text[:2])


def build(
    tag: str,
    hosts: list[RehearsalHost],
    record: Callable[[str], None],
) -> tuple[str, list[BuiltHost]]:
    """Make the bridge and one namespace host per planned host, its egress capped at the
    planned bandwidth; (network, hosts). On any failure the caller tears down what `record`
    was told."""
    net = free_network(settings.REHEARSAL_NETWORK)
    if len(hosts) > net.num_addresses - 3:
        raise ValueError(f"{len(hosts)} hosts do not fit in {net}")
    # Each host's sshd admits the local testbed's client key, made by sshd.sh when missing
    # (in its folder, which `make up`'s local sshd otherwise creates).
    Path(client_key_path()).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    root = state_root(tag)
    record(f"{STATE} {root}")
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o700)
    bridge = Bridge(bridge_name(tag), f"{net[1]}/{net.prefixlen}")
    record(f"{BRIDGE} {bridge.name}")
    bridge.up()
    built = []
    for i, planned in enumerate(hosts):
        name = host_namespace(tag, i)
        host = NetnsHost(
            name,
            str(net[i + 2]),
            root / name,
            client_key=client_key_path(),
            cap=LinkCap(planned.mbit_s, planned.basis),
        )
        record(f"{NAMESPACE} {name}")
        host.up(bridge)
        built.append(
            BuiltHost(
                planned, name, host.address, getpass.getuser(), client_key_path(), _public_key(host)
            )
        )
        logger.info("rehearsal.host_built", extra={"host": planned.name, "namespace": name})
    return str(net), built


def _remove_namespace(name: str) -> None:
    # Every process inside (sshd, its sessions, the role's tools) by PID, then the namespace
    # and the veth end on the bridge (its peer goes with it).
    kill_namespace_processes(name)
    for argv in (["ip", "netns", "del", name], ["ip", "link", "del", f"{name}o"]):
        subprocess.run(argv, capture_output=True, timeout=COMMAND_TIMEOUT_S)


def teardown(made: list[str]) -> list[str]:
    """Remove everything recorded, newest first; what is still there afterwards (nothing,
    unless a removal failed), in the same form."""
    for item in reversed(made):
        kind, _, name = item.partition(" ")
        if kind == NAMESPACE:
            _remove_namespace(name)
        elif kind == BRIDGE:
            subprocess.run(
                ["ip", "link", "del", name], capture_output=True, timeout=COMMAND_TIMEOUT_S
            )
        elif kind == STATE:
            shutil.rmtree(name, ignore_errors=True)
    return still_there(made)


def still_there(made: list[str]) -> list[str]:
    """The recorded things that exist on this machine now."""
    ns, ifaces = namespaces(), links()
    left = []
    for item in made:
        kind, _, name = item.partition(" ")
        exists = (
            (kind == NAMESPACE and (name in ns or f"{name}o" in ifaces))
            or (kind == BRIDGE and name in ifaces)
            or (kind == STATE and Path(name).exists())
        )
        if exists:
            left.append(item)
    return left
