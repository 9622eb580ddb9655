"""How the load generator holds a request rate, which is what a latency-SLO search's offered
load means. memtier_benchmark (the one registered tool that `rate_limits`) with
--rate-limiting=r, read in its source (2.3.0, memtier_benchmark.cpp and shard_connection.cpp):

- each connection has a periodic timer; every tick it allows k = ceil(r / 50) requests, the
  tick lasting 1 / floor(r / k) s (integer arithmetic): one request every 1/r s up to 50/s,
  above that k requests every ~20 ms;
- the worker sets no --pipeline, so memtier's default of 1 holds: a connection sends its
  next allowed request when the reply to the previous one arrives;
- the allowance is reset, not added, at each tick: a request not sent within its tick is
  never sent (past saturation the offered load is not carried), and latency counts from the
  actual send;
- a connection's timer starts when it connects, and one process connects all its
  connections at once, so their ticks coincide: every tick the connections of one process
  send together, then fall silent until the next tick.
"""

import math
from dataclasses import dataclass

TICKS_PER_S = 50  # memtier's finest timer resolution for the rate limit: a tick >= 20 ms


@dataclass(frozen=True)
class SendingPattern:
    """What the load generator does at `rate` requests/s per connection."""

    rate: int
    per_tick: int  # requests each connection may send per tick
    tick_ms: float  # tick length
    burst: int  # requests one process sends at each tick (connections x per_tick)

    @property
    def description(self) -> str:
        each = "1 request" if self.per_tick == 1 else f"{self.per_tick} requests back to back"
        return (
            f"At {self.rate} requests/s per connection memtier sends {each} per connection "
            f"every {self.tick_ms:g} ms (a timer, not random arrivals). The timers of one "
            f"memtier process start together when its connections open, so its "
            f"connections send at the same instants: a burst of up to {self.burst} requests, "
            f"then silence until the next tick. A request not sent within its tick is "
            f"dropped, not queued, and latency counts from the actual send."
        )


ADVICE = (
    "Low rates therefore measure bursts after idle gaps, not a steady light load: latency "
    "there can be higher than at a higher rate. To measure a light load steadily, give the "
    "same offered load to more connections at a lower rate per connection spread over more "
    "client machines or instances (each memtier process starts its timers at its own "
    "moment), or measure closed loop (rate_limit 0: one request in flight per connection, "
    "no idle gaps)."
)


def sending_pattern(rate: int, connections_per_process: int) -> SendingPattern:
    """memtier's schedule at `rate` requests/s per connection (rate >= 1)."""
    per_tick = math.ceil(rate / TICKS_PER_S)
    ticks_per_s = rate // per_tick
    return SendingPattern(
        rate=rate,
        per_tick=per_tick,
        tick_ms=(1_000_000 // ticks_per_s) / 1000.0,  # memtier's integer microseconds
        burst=connections_per_process * per_tick,
    )
