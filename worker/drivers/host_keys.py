"""SSH host keys: the worker accepts only the key pinned for a host, never whoever answers.

A registered host's key is pinned when the host is registered (or re-pinned by the user on the
Testbeds page, backend.core.host_keys); the local testbed's key is its own sshd's. A host
without a pinned key is not connected to; a host offering another key fails the run with both
fingerprints before any login (paramiko checks the host key before authenticating).
"""

import paramiko

from backend.core.host_keys import parse_public_key
from worker.drivers.errors import DriverError


class HostKeyMismatchError(DriverError):
    """The host answered with another key than the one pinned: not retried."""


class HostKeyMissingError(DriverError):
    """No key pinned for the host: not connected to, not retried."""


def pin_host_keys(client: paramiko.SSHClient, name: str, label: str, expected: str | None) -> None:
    """Trust only `expected` (an OpenSSH public key line) for `name` (as known_hosts names it);
    refuse any other key."""
    if expected is None:
        raise HostKeyMissingError(
            f"{label}: no SSH host key pinned for this host, so the worker does not connect; "
            "pin it on the Testbeds page (Pin key) and run again"
        )
    keys = client.get_host_keys()
    keys.clear()
    key = parse_public_key(expected)
    keys.add(name, key.get_name(), key)
    client.set_missing_host_key_policy(paramiko.RejectPolicy())


def mismatch_message(label: str, exc: paramiko.BadHostKeyException) -> str:
    return (
        f"{label}: SSH host key changed: pinned {exc.expected_key.get_name()} "
        f"{exc.expected_key.fingerprint}, the host offered {exc.key.get_name()} "
        f"{exc.key.fingerprint}; not logged in. If the host was rebuilt, compare the offered "
        "key with the host's own and re-pin it on the Testbeds page"
    )
