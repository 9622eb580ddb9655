"""Moved to backend/rehearsal/shaping.py (the product shapes a rehearsal's hosts, and the
product imports nothing from infra); this name stays for the tests and scripts that use it."""

from backend.rehearsal.shaping import (
    LATENCY_MS,
    MBIT,
    LinkCap,
    ShapingError,
    burst_bytes,
    egress_cap_mbit_s,
    shape_egress,
    tbf_args,
    unshape,
    wire_bit_s,
)

__all__ = [
    "LATENCY_MS",
    "MBIT",
    "LinkCap",
    "ShapingError",
    "burst_bytes",
    "egress_cap_mbit_s",
    "shape_egress",
    "tbf_args",
    "unshape",
    "wire_bit_s",
]
