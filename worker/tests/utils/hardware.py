"""What the tests expect a run to record as a host's CPU model, read here without the shell."""

from pathlib import Path


def local_cpu_model() -> str | None:
    """This machine's /proc/cpuinfo "model name" (network-namespace hosts share the kernel)."""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name":
            return value.strip() or None
    return None
