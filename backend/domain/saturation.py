"""When a resource counts as saturated: a host's CPU busy past this share of its cores, or a
host's link sending past this share of its cap (the run page's words and the Results tab's
machines table say both by this one rule)."""

SATURATED_SHARE = 0.9
BITS_PER_BYTE = 8
MBIT = 1e6  # iperf3's and Azure's Mbit/s: 10^6 bit/s
# A namespace's own loopback is not its link: traffic on it never leaves the host.
LOOPBACK = "lo"


def link_utilization(tx_bytes_per_s: float, cap_mbit_s: float) -> float:
    """What a host sends against its egress cap (a cap is on egress, DOMAIN.md section 9)."""
    return tx_bytes_per_s * BITS_PER_BYTE / (cap_mbit_s * MBIT)


def link_words(host: str, role: str, tx_bytes_per_s: float, cap_mbit_s: float) -> str:
    """'server link of az1 saturated: sends 99.1 of 101 Mbit/s (98 %)'."""
    u = link_utilization(tx_bytes_per_s, cap_mbit_s)
    state = "saturated" if u >= SATURATED_SHARE else "not saturated"
    sent = tx_bytes_per_s * BITS_PER_BYTE / MBIT
    return (
        f"{role} link of {host} {state}: sends {sent:.4g} of {cap_mbit_s:g} Mbit/s "
        f"({100 * u:.0f} %)"
    )
