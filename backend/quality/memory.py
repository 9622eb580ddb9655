"""A middleware that reached its memory cap (--max-buffered-bytes) during the run: its clients
were paused, replies fetched twice or clients closed, so what was measured is the bound, not
the system (whole run, from each middleware's summary.json)."""

from collections.abc import Mapping

from backend.domain.middleware_memory import MiddlewareMemory
from backend.domain.quality import Flag, FlagCode


def memory_cap_flag(memory: Mapping[str, MiddlewareMemory]) -> Flag | None:
    """Middlewares whose memory cap paused a client, deferred a reply or closed a client."""
    hit = {source: m for source, m in sorted(memory.items()) if m.hit_cap}
    if not hit:
        return None
    listed = "; ".join(
        f"{source}: {m.memory_pauses:,} pauses, {m.memory_deferred_replies:,} deferred replies, "
        f"{m.memory_closes:,} clients closed, at most {m.buffered_bytes_max:,} B buffered "
        f"(cap {m.max_buffered_bytes:,} B)"
        for source, m in hit.items()
    )
    numbers: dict[str, float] = {}
    for source, m in hit.items():
        numbers[f"{source} buffered_bytes_max"] = float(m.buffered_bytes_max)
        numbers[f"{source} max_buffered_bytes"] = float(m.max_buffered_bytes)
        numbers[f"{source} memory_pauses"] = float(m.memory_pauses)
        numbers[f"{source} memory_deferred_replies"] = float(m.memory_deferred_replies)
        numbers[f"{source} memory_closes"] = float(m.memory_closes)
    return Flag(
        FlagCode.MEMORY_CAP,
        "a middleware's --max-buffered-bytes cap paused a client, deferred a reply or closed "
        "a client",
        f"middleware memory cap reached ({listed})",
        numbers,
    )
