"""Misses where the design expects none: a run whose servers were populated with its whole
key space before the load (`RunPlan.populate`, worker.runs.plan, stored with the run's
quality at ingest) should find every key it reads."""

from collections.abc import Mapping

from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds


def misses_flag(means: Mapping[str, float | None], th: Thresholds) -> Flag | None:
    """Misses per requested key above the tolerance."""
    misses, keys = means.get("misses_per_s"), means.get("keys_per_s")
    if misses is None or not keys:
        return None
    ratio = misses / keys
    if ratio <= th.miss_ratio:
        return None
    return Flag(
        FlagCode.UNEXPECTED_MISSES,
        f"misses / keys > {th.miss_ratio:g} where the key space was populated",
        f"{misses:,.1f} misses/s of {keys:,.0f} keys/s ({ratio:.2%}) although every key was "
        "written before the load",
        {"misses_per_s": misses, "keys_per_s": keys, "miss_ratio": ratio},
    )
