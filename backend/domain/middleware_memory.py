"""What a middleware reports about its memory bound (summary.json "memory", written by
middleware-cpp/src/stats_writer.cpp from its counter table in memory_budget.hpp): the parser
reads these fields by name and the memory-cap quality rule reads them."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MiddlewareMemory:
    """The --max-buffered-bytes cap a middleware ran with and its memory counters (whole run)."""

    max_buffered_bytes: int
    memory_pauses: int  # a client over its share of the reached cap was not read
    memory_deferred_replies: int  # a get's reply did not fit the cap: fetched again later
    memory_closes: int  # a client whose gets waited for room too long was closed
    body_timeout_closes: int  # a set's value came too slowly (not the cap)
    buffered_bytes_max: int  # most bytes buffered at once

    @property
    def hit_cap(self) -> bool:
        """Whether the cap changed what the middleware did: it paused a client, deferred a
        reply or closed a client for memory (each happens only once the cap is reached)."""
        return self.memory_pauses + self.memory_deferred_replies + self.memory_closes > 0
