"""The words of a comparison the schemas share with the compare services: a difference's
verdict, the kind of band around a mean, and which metrics compare (backend.compare)."""

from typing import Literal

from backend.domain.metrics import MetricName

Verdict = Literal["significant", "not_distinguishable", "insufficient"]
"""significant: the interval of the difference excludes 0. not_distinguishable: it contains 0.
insufficient: fewer than 2 repetitions on a side, or no spread on either side (no interval)."""

BandKind = Literal["std", "se", "ci"]

CompareMetric = MetricName
"""Every metric of the metric table can be compared (names, units and labels from it)."""

OVERVIEW_METRICS: tuple[CompareMetric, ...] = ("throughput_per_s", "response_time_us")
"""What the configuration table shows when no metrics are asked for."""
