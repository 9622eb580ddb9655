"""Warm-up not over at the start of the stable window (hyperfine warns on a slow first run).

The first `warmup_probe_s` seconds of the window against the rest: Mann-Whitney U, and their
median at least min_shift away from the rest's. A run still ramping up (connections opening,
caches filling) or still settling after a burst fails it.
"""

import numpy as np
from scipy import stats

from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds


def warmup_probe_fits(seconds: int, th: Thresholds) -> bool:
    """Whether a window is long enough to compare its start with the rest (twice the probe)."""
    return seconds >= 2 * th.warmup_probe_s


def warmup_flag(values: list[float], th: Thresholds) -> Flag | None:
    """None when the window's start looks like its rest (or the window is too short)."""
    x = np.asarray(values, dtype=np.float64)
    if not warmup_probe_fits(x.size, th):
        return None
    head, rest = x[: th.warmup_probe_s], x[th.warmup_probe_s :]
    m_head, m_rest = float(np.median(head)), float(np.median(rest))
    if m_rest <= 0:
        return None
    change = (m_head - m_rest) / m_rest
    p = float(stats.mannwhitneyu(head, rest, alternative="two-sided").pvalue)
    if p >= th.alpha or abs(change) < th.min_shift:
        return None
    return Flag(
        FlagCode.WARMUP,
        f"first {th.warmup_probe_s} s vs the rest: Mann-Whitney p < {th.alpha:g} and "
        f">= {th.min_shift:.0%} apart",
        f"the window's first {th.warmup_probe_s} s run at {change:+.1%} of the rest "
        f"(median {m_head:,.0f} vs {m_rest:,.0f} ops/s, p = {p:.2g}): warm-up not over",
        {"p_value": p, "relative_change": change, "head": m_head, "rest": m_rest},
    )
