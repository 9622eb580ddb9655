"""Outlier repetitions of a configuration: a robust rule on the repetitions' window means.

Modified z-score (Iglewicz and Hoaglin): z = 0.6745 (x - median) / MAD, flagged above
outlier_z (their 3.5) and only when the repetition is also at least min_shift away from the
median: with 3-5 repetitions the MAD is itself noisy, and the floor keeps tight repetitions
(MAD near 0) from flagging a harmless 1 % difference. Needs 3 repetitions: of two, neither
can be called the outlier.
"""

from collections.abc import Sequence

import numpy as np

from backend.domain.quality import Flag, FlagCode
from backend.quality.model import Thresholds

MIN_REPETITIONS = 3
# Modified z-score constant: the MAD of a normal sample is 0.6745 sigma.
MAD_TO_SIGMA = 0.6745
METRIC_LABELS = {
    "throughput_per_s": ("throughput", "ops/s"),
    "response_time_us": ("response time", "us"),
}


def outlier_flags(
    metric: str, repetitions: Sequence[tuple[int, float]], th: Thresholds
) -> list[Flag]:
    """Flags of the repetitions (run id, value) of one configuration that are outliers."""
    if len(repetitions) < MIN_REPETITIONS:
        return []
    x = np.asarray([v for _, v in repetitions], dtype=np.float64)
    median = float(np.median(x))
    mad = float(np.median(np.abs(x - median)))
    if median == 0:
        return []
    label, unit = METRIC_LABELS.get(metric, (metric, ""))
    out = []
    for (run_id, value), dev in zip(repetitions, x - median, strict=True):
        z = float("inf") if mad == 0 else MAD_TO_SIGMA * float(dev) / mad
        rel = float(dev) / median
        if abs(z) <= th.outlier_z or abs(rel) < th.min_shift:
            continue
        out.append(
            Flag(
                FlagCode.OUTLIER_REPETITION,
                f"modified z-score (median, MAD) > {th.outlier_z:g} and >= {th.min_shift:.0%} "
                "from the median",
                f"{label} {value:,.0f} {unit} is {rel:+.1%} from the median {median:,.0f} of "
                f"{len(x)} repetitions (modified z = {z:.1f})",
                {
                    "value": float(value),
                    "median": median,
                    "mad": mad,
                    "modified_z": z if np.isfinite(z) else 1e9,
                    "relative_difference": rel,
                },
                run_id=run_id,
            )
        )
    return out
