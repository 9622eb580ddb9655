"""SSH host keys of testbed hosts, pinned at registration.

The API reads a host's key when the host is registered (one SSH key exchange, no login) or
takes the key the user gives; the user sees its fingerprint on the Testbeds page and re-pins
it there after a host is rebuilt. The worker then accepts that key only (worker.drivers.host_keys).
"""

import base64
import binascii
import logging
import socket
import time

import paramiko

from backend.core.addresses import AddressRefused, allowed_addresses
from backend.core.config import settings

logger = logging.getLogger(__name__)

# Key types an OpenSSH host offers; anything else in a "given" key is a typo or no host key.
KEY_TYPES = (
    "ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "ssh-rsa",
)
# A 16384-bit RSA public key line is about 2.8 KB.
MAX_KEY_LINE = 4096


class HostKeyScanError(Exception):
    """The host's key could not be read (unreachable, not SSH, timed out, address refused)."""


def parse_public_key(line: str) -> paramiko.PKey:
    """A key from an OpenSSH public key line ("ssh-ed25519 AAAA... comment"); ValueError
    saying what is wrong otherwise."""
    parts = line.split()
    if len(line) > MAX_KEY_LINE or len(parts) < 2:
        raise ValueError("must be an OpenSSH public key line: '<type> <base64> [comment]'")
    kind, data = parts[:2]
    if kind not in KEY_TYPES:
        raise ValueError(f"key type {kind!r} is not one of {', '.join(KEY_TYPES)}")
    try:
        return paramiko.PKey.from_type_string(kind, base64.b64decode(data, validate=True))
    except (binascii.Error, paramiko.SSHException, ValueError, TypeError) as exc:
        raise ValueError(f"is not a valid {kind} public key: {exc}") from exc


def key_line(key: paramiko.PKey) -> str:
    """The stored form: "<type> <base64>" (no comment)."""
    return f"{key.get_name()} {key.get_base64()}"


def fingerprint(line: str) -> str:
    """ "ssh-ed25519 SHA256:..." as `ssh-keygen -lf` prints it for the host's key file."""
    key = parse_public_key(line)
    return f"{key.get_name()} {key.fingerprint}"


def known_hosts_name(address: str, port: int) -> str:
    return address if port == 22 else f"[{address}]:{port}"


def scan_host_key(address: str, port: int, timeout_s: float | None = None) -> str:
    """The host key the host's SSH server offers, from a key exchange alone (no login), as a
    stored key line. The key type is negotiated with paramiko's preference, the same the
    worker's connections use, so the worker is offered this very key.

    The address is checked against the host address policy first (a name: each address it
    resolves to now), and only a permitted address is connected to. The whole read takes at
    most `timeout_s`. Every failure to read a key is one message, after the whole timeout,
    whatever the port did (refused, silent, not SSH): the caller must not learn what listens
    there."""
    timeout = settings.SSH_KEYSCAN_TIMEOUT_S if timeout_s is None else timeout_s
    deadline = time.monotonic() + timeout
    where = f"{address}:{port}"
    unreadable = HostKeyScanError(f"no SSH host key could be read from {where}")
    try:
        targets = allowed_addresses(address, port)
    except AddressRefused as exc:
        raise HostKeyScanError(f"not scanned: {exc}") from exc
    except (OSError, UnicodeError) as exc:
        logger.info("host key scan of %s: %s", where, exc)
        targets = []
    for ip in targets:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            return _key_exchange(str(ip), port, left)
        except (paramiko.SSHException, OSError, EOFError) as exc:
            # The cause stays in the server's log, for the operator.
            logger.info("host key scan of %s (%s): %r", where, ip, exc)
    # A failure is told no sooner than the timeout: a refused port would otherwise answer
    # at once and a silent one after the timeout, which tells them apart as well as a message.
    time.sleep(max(0.0, deadline - time.monotonic()))
    raise unreadable


def _key_exchange(ip: str, port: int, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    sock = socket.create_connection((ip, port), timeout=timeout)
    transport = paramiko.Transport(sock)
    left = max(0.01, deadline - time.monotonic())
    transport.banner_timeout = left
    transport.handshake_timeout = left
    try:
        transport.start_client(timeout=left)
        return key_line(transport.get_remote_server_key())
    finally:
        transport.close()
        sock.close()
