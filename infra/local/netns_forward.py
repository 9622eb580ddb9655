"""Loopback ports of this machine, reachable inside a network namespace: for each PORT, a
listener on 127.0.0.1:PORT inside NAMESPACE whose connections are joined to 127.0.0.1:PORT
here. Usage: python -m infra.local.netns_forward NAMESPACE PORT [PORT...]

Why (frontend/scripts/e2e.sh): the browser tests' Chromium runs in a namespace that has only
its loopback, because Chromium fails every request in flight when an address changes in its
namespace (ERR_NETWORK_CHANGED): the fake Azure's subnet bridges and the test hosts of the load
tests come and go beside it. Measured 2026-11-30: 18 of 12,070 fetches to 127.0.0.1 failed
while a veth with an address was added and removed 15 times; links without addresses, none.

A socket belongs to the namespace its thread was in when it was made, so the listeners are
made inside NAMESPACE (setns(2) on this thread, then back) and every other socket here.
Standard library only (asyncio), as the rest of infra/local: no forwarder package is needed
for a byte pipe per connection.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import os
import socket
import sys

CLONE_NEWNET = 0x40000000
_CHUNK = 1 << 16


def _setns(fd: int) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"setns: {os.strerror(err)}")


def listeners_in(namespace: str, ports: list[int]) -> list[socket.socket]:
    """Listening sockets on 127.0.0.1:port inside `namespace` (a name `ip netns` knows)."""
    here = os.open("/proc/self/ns/net", os.O_RDONLY)
    there = os.open(f"/run/netns/{namespace}", os.O_RDONLY)
    try:
        _setns(there)
        try:
            return [socket.create_server(("127.0.0.1", port)) for port in ports]
        finally:
            _setns(here)
    finally:
        os.close(here)
        os.close(there)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()  # a half-close passes on: the other way may still carry data
    except (ConnectionError, OSError):
        writer.close()


async def _join(port: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        writer.close()  # nothing listens here: the client sees the connection closed
        return
    try:
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
    finally:
        for w in (writer, up_writer):
            w.close()


async def serve(listeners: list[socket.socket]) -> None:
    servers = []
    for sock in listeners:
        port = sock.getsockname()[1]
        handle = functools.partial(_join, port)
        servers.append(await asyncio.start_server(handle, sock=sock))
    print("forwarding", " ".join(str(s.getsockname()[1]) for s in listeners), flush=True)
    await asyncio.gather(*(s.serve_forever() for s in servers))


def main(argv: list[str]) -> int:
    if len(argv) < 2 or not all(a.isdigit() for a in argv[1:]):
        usage = "usage: python -m infra.local.netns_forward NAMESPACE PORT [PORT...]"
        print(usage, file=sys.stderr)
        return 2
    try:
        listeners = listeners_in(argv[0], [int(a) for a in argv[1:]])
    except OSError as e:
        print(f"netns_forward: cannot listen in namespace {argv[0]!r}: {e}", file=sys.stderr)
        return 1
    asyncio.run(serve(listeners))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
