"""Cross-checks between measurements that must agree: client vs middleware throughput
(Lancet checks the offered rate was achieved), and the interactive response time law
X = N / (R + Z) (Jain 33.5; the load generators have no think time, Z = 0)."""

from collections.abc import Mapping

from backend.analysis.laws import interactive_throughput
from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds

THINK_TIME_S = 0.0


def throughput_flag(
    client: Mapping[str, float | None], middleware: Mapping[str, float | None], th: Thresholds
) -> Flag | None:
    """Total client throughput against total middleware throughput over the same window."""
    xc, xm = client.get("throughput_per_s"), middleware.get("throughput_per_s")
    if not xc or xm is None:
        return None
    off = (xm - xc) / xc
    if abs(off) <= th.throughput_tolerance:
        return None
    return Flag(
        FlagCode.THROUGHPUT_DISAGREEMENT,
        f"|middleware - client| / client > {th.throughput_tolerance:.0%}",
        f"the middlewares counted {xm:,.0f} ops/s, the clients {xc:,.0f} ops/s ({off:+.1%})",
        {"client": xc, "middleware": xm, "relative_difference": off},
    )


def interactive_flag(
    client: Mapping[str, float | None], clients: int, th: Thresholds
) -> Flag | None:
    """Measured X against N / (R + Z) with the clients' own R."""
    x, r_us = client.get("throughput_per_s"), client.get("response_time_us")
    if not x or not r_us:
        return None
    expected = interactive_throughput(clients, r_us / 1e6, THINK_TIME_S)
    off = (x - expected) / expected
    if abs(off) <= th.interactive_tolerance:
        return None
    return Flag(
        FlagCode.INTERACTIVE_LAW,
        f"|X - N/(R+Z)| / (N/(R+Z)) > {th.interactive_tolerance:.0%}, Z = 0",
        f"measured {x:,.0f} ops/s but N/R = {clients}/{r_us:,.0f} us gives {expected:,.0f} "
        f"ops/s ({off:+.1%})",
        {
            "clients": float(clients),
            "response_time_us": r_us,
            "throughput": x,
            "law_throughput": expected,
            "relative_difference": off,
        },
    )
