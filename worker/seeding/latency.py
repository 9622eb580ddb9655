"""The latency distribution of seeded runs: a real memtier_benchmark run's, scaled.

The shape is the SET latency histogram of a real memtier run against memcached on 127.0.0.1
(worker/tests/fixtures), grouped into log-spaced bins (about 9 % wide), its tail up to ten
times the mean, and expressed relative to its mean; a seeded second with mean response time R
has values R x relative value. Pure, apart from reading the fixture once.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from backend.analysis.percentiles import percentile_rank
from worker.parsers.memtier_json import parse_memtier_json
from worker.seeding.shape import apportion

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
FIXTURE = FIXTURES / "memtier_ratio1-0_c4_t2_d4096_5s.json"
BINS_PER_OCTAVE = 24
TAIL_CAP = 10.0


@dataclass(frozen=True)
class LatencyShape:
    """Values relative to the mean (ascending) and their probabilities."""

    relative: tuple[float, ...]
    probability: tuple[float, ...]

    def quantile(self, q: float) -> float:
        """Relative value at percentile q (the smallest value with q % at or below it)."""
        acc = 0.0
        for v, p in zip(self.relative, self.probability, strict=True):
            acc += p
            if acc * 100 >= q - 1e-9:
                return v
        return self.relative[-1]

    @functools.lru_cache(maxsize=4096)  # noqa: B019  (a few shapes, each kept for the run)
    def counts(self, total: int) -> tuple[int, ...]:
        """`total` requests spread over the values (summing to total exactly)."""
        return tuple(apportion(total, list(self.probability)))


@functools.cache
def real_shape(fixture: Path = FIXTURE) -> LatencyShape:
    """The fixture's SET latencies, grouped into log-spaced bins, relative to their mean."""
    sets = parse_memtier_json(fixture.read_text()).main.types["Sets"]
    hist = sets.histogram
    assert hist is not None
    bins: dict[int, tuple[float, int]] = {}
    for i, c in enumerate(hist.counts):
        if not c:
            continue
        low, high = hist.bucket_range(i)
        value = (low + high) / 2
        key = math.floor(math.log2(max(value, 1.0)) * BINS_PER_OCTAVE)
        acc, n = bins.get(key, (0.0, 0))
        bins[key] = (acc + value * c, n + c)
    points = sorted((acc / n, n) for acc, n in bins.values())
    # The few values past TAIL_CAP x the mean (scheduling hiccups of the loopback run, a fixed
    # few ms that do not grow with the response time) are folded into the last bin below it.
    mean = sum(v * n for v, n in points) / sum(n for _, n in points)
    body = [(v, n) for v, n in points if v <= TAIL_CAP * mean]
    tail = sum(n for v, n in points if v > TAIL_CAP * mean)
    points = [*body[:-1], (body[-1][0], body[-1][1] + tail)]
    total = sum(n for _, n in points)
    mean = sum(v * n for v, n in points) / total
    return LatencyShape(tuple(v / mean for v, _ in points), tuple(n / total for _, n in points))


def value_at_percentile(values: Counter[int], q: float) -> float:
    """The recorded value at percentile q under the one percentile rule's rank
    (percentile_rank): what a histogram of these values must report within one bucket."""
    rank, acc = percentile_rank(q, sum(values.values())), 0
    for v in sorted(values):
        acc += values[v]
        if acc >= rank:
            return float(v)
    raise ValueError("no values")
