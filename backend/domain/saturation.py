"""When a resource counts as saturated: a host's CPU busy past this share of its cores, or a
host's link sending past this share of its cap (the run page's words and the Results tab's
machines table say both by this one rule)."""

SATURATED_SHARE = 0.9
BITS_PER_BYTE = 8
MBIT = 1e6  # iperf3's and Azure's Mbit/s: 10^6 bit/s
# A link's figure (iperf3's upload, the reports' and Azure's bandwidths) is TCP goodput: what
# the receiver gets. On the wire a full segment of 1,448 B (MTU 1,500 less IP and TCP headers
# with timestamps) is a 1,514 B Ethernet frame, which is what a tc shaper and the interface's
# byte counters count. One home for the factor: the shaper caps the wire at figure x it, and a
# link's utilization compares its counted bytes with the same.
FULL_SEGMENT_PAYLOAD_B = 1_448
FULL_SEGMENT_FRAME_B = 1_514
WIRE_PER_GOODPUT = FULL_SEGMENT_FRAME_B / FULL_SEGMENT_PAYLOAD_B
# A namespace's own loopback is not its link: traffic on it never leaves the host.
LOOPBACK = "lo"


def link_utilization(tx_bytes_per_s: float, cap_mbit_s: float) -> float:
    """What a host sends (bytes on the wire, as its interface counts them) against its egress
    cap, a goodput figure (a cap is on egress, DOMAIN.md section 9)."""
    return tx_bytes_per_s * BITS_PER_BYTE / (cap_mbit_s * MBIT * WIRE_PER_GOODPUT)


def link_words(host: str, role: str, tx_bytes_per_s: float, cap_mbit_s: float) -> str:
    """'server link of az1 saturated: sends 99.1 of 101 Mbit/s (98 %)', what it sends in the
    cap's terms (goodput)."""
    u = link_utilization(tx_bytes_per_s, cap_mbit_s)
    state = "saturated" if u >= SATURATED_SHARE else "not saturated"
    sent = u * cap_mbit_s
    return (
        f"{role} link of {host} {state}: sends {sent:.4g} of {cap_mbit_s:g} Mbit/s "
        f"({100 * u:.0f} %)"
    )
