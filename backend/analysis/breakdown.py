"""Response-time breakdown: queue, server, processing (middleware) and network (client - mw).

What the breakdown calls network is client response time minus middleware response time.
Given the measured client -> middleware round trip, it is split into that round trip and the
rest, which on most testbeds is mostly the load generator's own time (named per testbed by
backend.domain.round_trip.rest_label).
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.analysis.errors import require, require_finite, require_non_negative


@dataclass(frozen=True)
class Breakdown:
    """Components of the client response time, all in microseconds, plus their shares."""

    client_response_us: float
    middleware_response_us: float
    queue_us: float
    server_us: float
    processing_us: float  # middleware total - queue - server
    network_us: float  # client R - middleware R (may be < 0 if clocks or samples disagree)
    # The measured client -> middleware round trip and network_us minus it; None unmeasured.
    round_trip_us: float | None = None
    rest_us: float | None = None

    def shares(self) -> dict[str, float]:
        """Fraction of the client response time spent in each component."""
        total = self.client_response_us
        return {
            "queue": self.queue_us / total,
            "server": self.server_us / total,
            "processing": self.processing_us / total,
            "network": self.network_us / total,
        }


def breakdown(
    client_response_us: float,
    middleware_response_us: float,
    queue_us: float,
    server_us: float,
    round_trip_us: float | None = None,
) -> Breakdown:
    """Split the client-side response time into its four parts (DOMAIN.md section 1), and
    the network part into the measured round trip and the rest when it was measured."""
    for value, field in (
        (client_response_us, "client_response_us"),
        (middleware_response_us, "middleware_response_us"),
        (queue_us, "queue_us"),
        (server_us, "server_us"),
    ):
        require_non_negative(value, field)
    if round_trip_us is not None:
        require_non_negative(round_trip_us, "round_trip_us")
    require(client_response_us > 0, "client_response_us", "must be positive")
    processing = middleware_response_us - queue_us - server_us
    require_finite([processing], "middleware_response_us", "total - queue - server overflows")
    network = client_response_us - middleware_response_us
    return Breakdown(
        client_response_us=client_response_us,
        middleware_response_us=middleware_response_us,
        queue_us=queue_us,
        server_us=server_us,
        processing_us=processing,
        network_us=network,
        round_trip_us=round_trip_us,
        rest_us=None if round_trip_us is None else network - round_trip_us,
    )
