"""SSH host keys pinned per host, replacing Fabric's auto-add policy.

A host whose expected key is known (the local testbed's own sshd) is checked against it. Any
other host is pinned at first contact: its key is recorded in the worker's known_hosts file
(MCSCOPE_SSH_KNOWN_HOSTS) and its fingerprint logged; from then on a different key fails the
run with both fingerprints, instead of the worker logging in to whoever answers.
"""

import base64
import fcntl
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import paramiko

from worker.drivers.errors import DriverError

logger = logging.getLogger(__name__)


class HostKeyMismatchError(DriverError):
    """The host answered with another key than the one pinned: not retried."""


def known_hosts_name(address: str, port: int) -> str:
    return address if port == 22 else f"[{address}]:{port}"


def parse_public_key(line: str) -> paramiko.PKey:
    """A key from an OpenSSH public key line ("ssh-ed25519 AAAA... comment")."""
    kind, data = line.split()[:2]
    return paramiko.PKey.from_type_string(kind, base64.b64decode(data))


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


class _PinOnFirstContact(paramiko.MissingHostKeyPolicy):  # type: ignore[misc]
    def __init__(self, known_hosts: Path) -> None:
        self.known_hosts = known_hosts

    def missing_host_key(
        self, client: paramiko.SSHClient, hostname: str, key: paramiko.PKey
    ) -> None:
        with _locked(self.known_hosts):
            keys = paramiko.HostKeys()
            if self.known_hosts.exists():
                keys.load(str(self.known_hosts))
            # Another worker may have pinned this host meanwhile: then its key decides.
            pinned = keys.lookup(hostname)
            if pinned is not None and key.get_name() in pinned:
                if pinned[key.get_name()] != key:
                    raise paramiko.BadHostKeyException(hostname, key, pinned[key.get_name()])
                return
            keys.add(hostname, key.get_name(), key)
            keys.save(str(self.known_hosts))
        logger.warning(
            "ssh.host_key.pinned %s %s %s",
            hostname,
            key.get_name(),
            key.fingerprint,
            extra={"host": hostname, "fingerprint": key.fingerprint},
        )


def pin_host_keys(
    client: paramiko.SSHClient, name: str, expected: str | None, known_hosts: Path
) -> None:
    """Trust only `expected` (an OpenSSH public key line) for `name`, or, without one, the key
    recorded in `known_hosts`, recording it there at first contact."""
    keys = client.get_host_keys()
    keys.clear()
    if expected is not None:
        key = parse_public_key(expected)
        keys.add(name, key.get_name(), key)
        client.set_missing_host_key_policy(paramiko.RejectPolicy())
        return
    if known_hosts.exists():
        recorded = paramiko.HostKeys(str(known_hosts)).lookup(name)
        for kind, key in (recorded or {}).items():
            keys.add(name, kind, key)
    client.set_missing_host_key_policy(_PinOnFirstContact(known_hosts))


def mismatch_message(label: str, exc: paramiko.BadHostKeyException, known_hosts: Path) -> str:
    return (
        f"{label}: SSH host key changed: pinned {exc.expected_key.fingerprint}, the host "
        f"offered {exc.key.fingerprint}; if the host was reinstalled, remove its line from "
        f"{known_hosts} and run again"
    )
