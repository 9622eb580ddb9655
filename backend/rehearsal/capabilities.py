"""Can this machine build namespace hosts? The one check the API answers a rehearsal request
with (a 422 giving the reason) and the worker repeats before it builds.

What it needs: root (namespaces, veth links and qdiscs are root's), iproute2's `ip`, `tc`
with the tbf qdisc (the links are shaped like the plan's VM sizes), and OpenSSH's sshd (each
host is reached over SSH like any remote machine). Each is probed for real: a throw-away
namespace with a veth pair, a tbf qdisc on it, then both removed."""

import os
import shutil
import subprocess
import uuid

from backend.rehearsal.netns import COMMAND_TIMEOUT_S, run_ip

# The probe's tbf: any valid rate works, the qdisc is removed at once.
PROBE_TBF = ("rate", "1mbit", "burst", "32kbit", "latency", "50ms")


def _uid() -> int:
    return os.geteuid()


def _which(program: str) -> str | None:
    found = shutil.which(program) or shutil.which(program, path="/usr/sbin:/sbin")
    return found


def _failed(step: str, exc: Exception) -> str:
    detail = (
        exc.stderr.decode(errors="replace").strip()
        if isinstance(exc, subprocess.CalledProcessError) and exc.stderr
        else str(exc)
    )
    return f"{step} failed on this machine: {detail or exc}"


def _probe(shaping: bool) -> str | None:
    """Make a namespace, a veth pair and (with `shaping`) a tbf qdisc, then remove them."""
    tag = uuid.uuid4().hex[:6]
    ns, outer, inner = f"mcprobe{tag}", f"mcp{tag}o", f"mcp{tag}i"
    try:
        try:
            run_ip("ip", "netns", "add", ns)
        except (subprocess.CalledProcessError, OSError) as exc:
            return _failed("creating a network namespace (`ip netns add`)", exc)
        try:
            run_ip("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        except (subprocess.CalledProcessError, OSError) as exc:
            return _failed("creating a veth link (`ip link add type veth`)", exc)
        if shaping:
            try:
                run_ip("tc", "qdisc", "add", "dev", outer, "root", "tbf", *PROBE_TBF)
            except (subprocess.CalledProcessError, OSError) as exc:
                return _failed("shaping a link with tbf (`tc qdisc add ... tbf`)", exc)
        return None
    finally:
        for argv in (["ip", "link", "del", outer], ["ip", "netns", "del", ns]):
            subprocess.run(argv, capture_output=True, timeout=COMMAND_TIMEOUT_S)


def missing_capability(*, shaping: bool = True) -> str | None:
    """None when namespace hosts (shaped with tbf when `shaping`) can be built here, else
    the first reason why not, in words for the user."""
    if _uid() != 0:
        return (
            f"needs root: network namespaces, veth links and tc qdiscs are root's, and mcscope "
            f"runs as uid {_uid()}"
        )
    if _which("ip") is None:
        return "needs iproute2's `ip` (Debian package iproute2), which is not installed"
    if shaping and _which("tc") is None:
        return "needs `tc` (Debian package iproute2) to shape the links, which is not installed"
    if _which("sshd") is None:
        return "needs OpenSSH's sshd (Debian package openssh-server), which is not installed"
    return _probe(shaping)
