"""Which addresses a testbed host may have: the one policy the API applies at registration and
the key scanner applies again before it connects.

A registered host is an address the API (reading its SSH key) and the worker will connect to,
so registration must not turn the API into a probe of whatever the machine can reach: cloud
metadata services, link-local neighbours, the unspecified or multicast addresses. Those are
refused always; everything else must lie in `settings.HOST_NETWORKS` (loopback and the private
ranges by default). A host name is held to the same rule through every address it resolves to,
at registration and again at each scan (it may resolve elsewhere later).
"""

import ipaddress
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

from backend.core.config import settings

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Names of cloud metadata services, refused without asking DNS (their addresses are
# link-local too, which is refused anyway once resolved).
METADATA_NAMES = frozenset(
    {"metadata.google.internal", "metadata.goog", "metadata", "instance-data"}
)
# Look-ups of registrations' host names share these threads (a look-up cannot be cancelled,
# so a silent resolver holds its thread until the resolver's own timeout; never more threads).
_resolvers = ThreadPoolExecutor(max_workers=16, thread_name_prefix="resolve")


class AddressRefused(ValueError):
    """The address (or an address the name resolves to) is not a permitted host address."""


def _plain(ip: IPAddress) -> IPAddress:
    # ::ffff:169.254.169.254 is 169.254.169.254 to the kernel.
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def check_ip(ip: IPAddress) -> None:
    """AddressRefused saying why, unless `ip` is a permitted host address."""
    ip = _plain(ip)
    if ip.is_link_local:
        raise AddressRefused(f"{ip} is a link-local address (cloud metadata lives there)")
    if ip.is_unspecified:
        raise AddressRefused(f"{ip} is the unspecified address")
    if ip.is_multicast:
        raise AddressRefused(f"{ip} is a multicast address")
    if ip == ipaddress.IPv4Address("255.255.255.255"):
        raise AddressRefused(f"{ip} is the broadcast address")
    if not any(ip in net for net in settings.HOST_NETWORKS if net.version == ip.version):
        raise AddressRefused(
            f"{ip} is outside the networks testbed hosts may be in (MCSCOPE_HOST_NETWORKS: "
            f"{', '.join(str(n) for n in settings.HOST_NETWORKS)})"
        )


def check_literal(address: str) -> None:
    """The checks that need no DNS: an IP address against the policy, a metadata name."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        if address.rstrip(".").lower() in METADATA_NAMES:
            raise AddressRefused(f"{address} is a cloud metadata service") from None
        return
    check_ip(ip)


def resolve(name: str, port: int) -> list[IPAddress]:
    """Every address `name` resolves to (numeric names resolve to themselves)."""
    infos = socket.getaddrinfo(name, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(ipaddress.ip_address(str(info[4][0])) for info in infos))


def allowed_addresses(address: str, port: int) -> list[IPAddress]:
    """The addresses to connect to for `address`, each permitted; AddressRefused when the
    address or any address its name resolves to is not; OSError when it does not resolve."""
    check_literal(address)
    found = resolve(address, port)
    for ip in found:
        try:
            check_ip(ip)
        except AddressRefused as exc:
            raise AddressRefused(f"{address} resolves to {exc}") from None
    return found


def refused_names(names: list[str], timeout_s: float) -> dict[str, str]:
    """{name: why} for host names that resolve to a refused address, looked up in parallel
    and waited for at most `timeout_s` in all. A name that does not resolve (yet), or not in
    time, is not refused here: the scanner checks it again before it connects."""
    if not names:
        return {}
    futures = {name: _resolvers.submit(resolve, name, 22) for name in names}
    deadline = time.monotonic() + timeout_s
    refused: dict[str, str] = {}
    for name, future in futures.items():
        try:
            found = future.result(timeout=max(0.0, deadline - time.monotonic()))
        except FutureTimeout:
            future.cancel()  # still queued: no thread spent on it
            continue
        except (OSError, UnicodeError):
            continue
        for ip in found:
            try:
                check_ip(ip)
            except AddressRefused as exc:
                refused[name] = f"{name} resolves to {exc}"
                break
    return refused
