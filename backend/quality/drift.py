"""Trend and step inside the stable window, tested on the per-second throughput.

Trend: Mann-Kendall (Kendall's tau of the values against time, scipy) with the Theil-Sen
slope giving the change over the window. Step: the best single change point of a penalised
L1 fit (ruptures, dynamic programming; asv fits L1 too), then Mann-Whitney U of the
seconds before against the seconds after (asv's test). A flag needs both p < alpha and a
change of at least min_shift of the median: significance alone flags tiny drifts of long runs.
"""

import numpy as np
from scipy import stats

from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds

# Fewer seconds than this cannot reach p < 0.002 with these rank tests.
MIN_SECONDS = 10
# Each side of a step has at least this many seconds.
MIN_SEGMENT_S = 3


def trend_flag(values: list[float], th: Thresholds) -> Flag | None:
    """Mann-Kendall trend over the window (None: no trend worth a flag)."""
    x = np.asarray(values, dtype=np.float64)
    median = float(np.median(x))
    if x.size < MIN_SECONDS or median <= 0:
        return None
    t = np.arange(x.size, dtype=np.float64)
    tau, p = stats.kendalltau(t, x)
    if not np.isfinite(p) or p >= th.alpha:
        return None
    slope = float(stats.theilslopes(x, t).slope)
    change = slope * (x.size - 1) / median
    if abs(change) < th.min_shift:
        return None
    return Flag(
        FlagCode.TREND,
        f"Mann-Kendall p < {th.alpha:g} and Theil-Sen change >= {th.min_shift:.0%} of the median",
        f"throughput {'rises' if change > 0 else 'falls'} {abs(change):.1%} across the window "
        f"(Mann-Kendall tau = {tau:.2f}, p = {p:.2g})",
        {"tau": float(tau), "p_value": float(p), "relative_change": change, "slope_per_s": slope},
    )


def step_flag(values: list[float], th: Thresholds) -> Flag | None:
    """The best single step of the window, if significant and large enough."""
    x = np.asarray(values, dtype=np.float64)
    if x.size < MIN_SECONDS or float(np.median(x)) <= 0:
        return None
    # Imported here: ruptures (with the scipy.signal it loads) takes about 1.2 s of CPU to
    # import, which every API start paid for a check only the worker runs after a run.
    import ruptures as rpt

    algo = rpt.Dynp(model="l1", min_size=MIN_SEGMENT_S, jump=1).fit(x.reshape(-1, 1))
    at = int(algo.predict(n_bkps=1)[0])
    before, after = x[:at], x[at:]
    p = float(stats.mannwhitneyu(before, after, alternative="two-sided").pvalue)
    m0, m1 = float(np.median(before)), float(np.median(after))
    change = (m1 - m0) / m0 if m0 > 0 else float("inf")
    if p >= th.alpha or abs(change) < th.min_shift:
        return None
    return Flag(
        FlagCode.STEP,
        f"L1 change point, Mann-Whitney p < {th.alpha:g} and a step >= {th.min_shift:.0%}",
        f"throughput steps {change:+.1%} at second {at} of the window "
        f"(median {m0:,.0f} -> {m1:,.0f} ops/s, Mann-Whitney p = {p:.2g})",
        {"at_s": float(at), "p_value": p, "relative_change": change, "before": m0, "after": m1},
    )
