"""Namespace hosts behind a network with a fixed one-way delay, for tests of measured round trips.

tc's netem is the usual way to add delay, but kernels built without CONFIG_NET_SCH_NETEM (this
project's CI machine is one) have no qdisc that delays. This does the same in user space:
each namespace (and the test's own side) gets a TUN device, and a thread in the test process
reads every IP packet from them and writes it to the destination's device `delay_s` later. A
packet from a host to another crosses the router once, so a round trip between two hosts is
2 x delay_s plus the kernels' and the router's own time; the test's SSH to a host is delayed
the same way. `caps` shapes each host's TUN device (backend/rehearsal/shaping.py): a cloud-shaped
link behind the delay (the router is one Python thread: test_shaping.py checks a small cap).
Hosts, sshd and teardown are those of netns.NetnsHost.
"""

import ctypes
import fcntl
import heapq
import itertools
import os
import selectors
import socket
import struct
import threading
import time
import uuid
from pathlib import Path

from backend.core.config import settings
from backend.rehearsal.shaping import LinkCap, shape_egress
from worker.tests.drivers.netns import NetnsHost, _sh

SUBNET = "10.231.79"
TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000
CLONE_NEWNET = 0x40000000


def tc_netem_supported() -> bool:
    """Whether this kernel has netem (for the record: the tests do not need it)."""
    try:
        with open("/proc/config.gz", "rb") as f:
            import gzip

            return b"CONFIG_NET_SCH_NETEM=" in gzip.decompress(f.read())
    except OSError:
        return False


def _open_tun(name: str) -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack("16sH", name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


def _open_tun_in(netns: str, name: str) -> int:
    """A TUN device created inside the named namespace (moving one there detaches its file):
    a helper thread enters the namespace (setns is per thread) and opens it."""
    out: list[int | BaseException] = []

    def enter_and_open() -> None:
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            ns_fd = os.open(f"/var/run/netns/{netns}", os.O_RDONLY)
            try:
                if libc.setns(ns_fd, CLONE_NEWNET) != 0:
                    raise OSError(ctypes.get_errno(), f"setns into {netns}")
            finally:
                os.close(ns_fd)
            out.append(_open_tun(name))
        except BaseException as exc:  # handed to the caller
            out.append(exc)

    thread = threading.Thread(target=enter_and_open)
    thread.start()
    thread.join()
    if isinstance(out[0], BaseException):
        raise out[0]
    return out[0]


class DelayedTestbed:
    """`count` namespace hosts on SUBNET.2.., each reached through the delaying router."""

    __test__ = False

    def __init__(
        self,
        count: int,
        state_root: Path,
        delay_s: float,
        caps: list[LinkCap | None] | None = None,
    ) -> None:
        self.tag = uuid.uuid4().hex[:4]
        self.delay_s = delay_s
        self.key_path = str(settings.LOCAL_SSH_DIR / "id_ed25519")
        self.hosts = [
            NetnsHost(
                f"mcd{self.tag}{i}",
                f"{SUBNET}.{i + 2}",
                state_root / f"ns{i}",
                prefixlen=32,
                client_key=self.key_path,
                cap=caps[i] if caps else None,
            )
            for i in range(count)
        ]
        self._fds: dict[bytes, int] = {}  # destination IPv4 address -> its TUN device
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def up(self) -> None:
        root = f"mcd{self.tag}r"
        fd = _open_tun(root)
        self._fds[socket.inet_aton(f"{SUBNET}.1")] = fd
        _sh("ip", "addr", "add", f"{SUBNET}.1/24", "dev", root)
        _sh("ip", "link", "set", root, "up")
        for h in self.hosts:
            dev = f"{h.name}t"
            _sh("ip", "netns", "add", h.name)
            self._fds[socket.inet_aton(h.address)] = _open_tun_in(h.name, dev)
            ns = ("ip", "netns", "exec", h.name)
            _sh(*ns, "ip", "addr", "add", f"{h.address}/32", "dev", dev)
            _sh(*ns, "ip", "link", "set", dev, "up")
            _sh(*ns, "ip", "link", "set", "lo", "up")
            _sh(*ns, "ip", "route", "add", f"{SUBNET}.0/24", "dev", dev)
            if h.cap is not None:  # a cloud-shaped link behind the delay
                shape_egress(h.name, dev, h.cap.mbit_s)
        self._thread = threading.Thread(target=self._route, name="delay-router", daemon=True)
        self._thread.start()
        for h in self.hosts:
            h.start_sshd()

    def _route(self) -> None:
        """Forward each packet to its destination's device `delay_s` after it was read."""
        sel = selectors.DefaultSelector()
        for fd in self._fds.values():
            sel.register(fd, selectors.EVENT_READ)
        due: list[tuple[float, int, int, bytes]] = []
        seq = itertools.count()
        while not self._stop.is_set():
            wait = 0.05 if not due else max(0.0, due[0][0] - time.monotonic())
            for key, _ in sel.select(min(wait, 0.05)):
                packet = os.read(key.fd, 65536)
                out = self._fds.get(packet[16:20]) if packet[:1] and packet[0] >> 4 == 4 else None
                if out is not None:
                    heapq.heappush(due, (time.monotonic() + self.delay_s, next(seq), out, packet))
            now = time.monotonic()
            while due and due[0][0] <= now:
                _, _, out, packet = heapq.heappop(due)
                try:
                    os.write(out, packet)
                except OSError:  # the device went away (teardown)
                    pass
        sel.close()

    def down(self) -> None:
        for h in self.hosts:
            h.down()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()
