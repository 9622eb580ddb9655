"""The latency-SLO search, pure: confidence intervals of a latency statistic read off a merged
histogram, a probe's verdict against the objective, and the next probe from the probes so far.

The search runs on the offered load per connection (memtier's --rate-limiting, an integer
number of requests per second), so its state is nothing but the probes measured: `next_step`
is a function of them, and a worker that dies between two probes loses nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

import numpy as np
from scipy.stats import binom, norm

from backend.analysis.errors import require
from backend.analysis.percentiles import Histogram, percentile_rank

Statistic = Literal["mean", "percentile"]


class Verdict(StrEnum):
    MEETS = "meets"  # the whole confidence interval is at most the target
    MISSES = "misses"  # the whole interval is above it, or the load was not carried
    UNSURE = "unsure"  # the interval straddles the target: repeat the probe


@dataclass(frozen=True)
class Objective:
    """`statistic` (the mean, or the `percentile`-th percentile) at most `target_us`, shown to
    hold at `confidence`; a probe also misses when clients carry less than `min_delivered` of
    the offered load (past saturation the rate limit no longer sets the load)."""

    statistic: Statistic
    percentile: float
    target_us: float
    confidence: float
    min_delivered: float

    @property
    def label(self) -> str:
        what = "mean" if self.statistic == "mean" else f"p{self.percentile:g}"
        return f"{what} ≤ {self.target_us / 1000:g} ms"


@dataclass(frozen=True)
class Estimate:
    """A statistic with its confidence interval, in microseconds, over n samples."""

    value_us: float
    low_us: float
    high_us: float
    n: int


def order_statistic_ranks(n: int, q: float, confidence: float) -> tuple[int, int]:
    """1-based ranks (l, u) with P(x(l) <= xi_q <= x(u)) >= confidence among n samples, for
    any continuous distribution: the number of samples below the q-quantile xi_q is
    Binomial(n, q/100), so P = B(u-1) - B(l-1) with B its CDF. l and u are the binomial's
    alpha/2 and 1 - alpha/2 quantiles (+1 for u), clipped to 1..n (too few samples: the
    interval reaches the smallest or largest sample)."""
    require(n > 0, "samples", "no samples")
    require(0.0 < q < 100.0, "percentile", "must lie strictly between 0 and 100")
    require(0.0 < confidence < 1.0, "confidence", "must lie strictly between 0 and 1")
    alpha = 1.0 - confidence
    p = q / 100.0
    low = int(binom.ppf(alpha / 2.0, n, p))
    high = int(binom.ppf(1.0 - alpha / 2.0, n, p)) + 1
    return max(1, low), min(n, high)


def _bucket_of_rank(cum: np.ndarray, rank: float, total: float) -> int:
    return int(np.searchsorted(cum, rank - 1e-9 * total, side="left"))


def percentile_estimate(hist: Histogram, q: float, confidence: float) -> Estimate:
    """The q-th percentile of a (merged) histogram by mcscope's one rule (the upper edge of the
    bucket holding rank round(q/100 n)), with its order-statistic interval: from the lower edge
    of the bucket holding rank l to the upper edge of the bucket holding rank u, so bucketing
    only widens it. A rank in the overflow bucket gives an unbounded upper end (inf)."""
    total = hist.total
    n = int(round(total))
    require(n > 0, "counts", "the histogram is empty")
    low_rank, high_rank = order_statistic_ranks(n, q, confidence)
    cum = np.cumsum(hist.counts)
    lowers = np.concatenate(([0.0], hist.upper_bounds_us[:-1]))

    def upper_at(rank: float) -> float:
        i = _bucket_of_rank(cum, rank, total)
        return math.inf if i >= cum.size else float(hist.upper_bounds_us[i])

    i_low = _bucket_of_rank(cum, low_rank, total)
    low = float(hist.upper_bounds_us[-1]) if i_low >= cum.size else float(lowers[i_low])
    return Estimate(upper_at(percentile_rank(q, total)), low, upper_at(high_rank), n)


def mean_estimate(hist: Histogram, confidence: float) -> Estimate:
    """The mean of a histogram (bucket midpoints; overflow at the last edge, so a lower bound)
    with a normal interval z s / sqrt(n): n is in the thousands for any probe."""
    n = int(round(hist.total))
    require(n > 0, "counts", "the histogram is empty")
    lowers = np.concatenate(([0.0], hist.upper_bounds_us[:-1]))
    mids = np.concatenate(((lowers + hist.upper_bounds_us) / 2.0, [hist.upper_bounds_us[-1]]))
    counts = np.concatenate((hist.counts, [hist.overflow]))
    mean = float(np.dot(mids, counts) / counts.sum())
    var = float(np.dot((mids - mean) ** 2, counts) / max(1.0, counts.sum() - 1.0))
    half = float(norm.ppf(0.5 + confidence / 2.0)) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half, n)


def estimate(hist: Histogram, objective: Objective) -> Estimate:
    if objective.statistic == "mean":
        return mean_estimate(hist, objective.confidence)
    return percentile_estimate(hist, objective.percentile, objective.confidence)


def verdict(est: Estimate, delivered: float, objective: Objective) -> Verdict:
    """Meets only when the interval's upper end is within the target and the load was carried;
    misses when even its lower end is above, or the load was not carried."""
    if delivered < objective.min_delivered or est.low_us > objective.target_us:
        return Verdict.MISSES
    if est.high_us <= objective.target_us:
        return Verdict.MEETS
    return Verdict.UNSURE


# ---------------------------------------------------------------------------- the search


@dataclass(frozen=True)
class SearchLimits:
    """start_rate, max_rate: offered requests/s per connection of the first probe and the
    highest probed; resolution_pct: stop when the bracket is at most this wide relative to its
    low end (and never below 1 request/s, memtier's step); max_repeats: runs of one rate while
    its interval straddles the target (then it counts as a miss: not shown to hold);
    confirm_repeats: runs the answer must have; max_probes: runs in all."""

    start_rate: int
    max_rate: int
    resolution_pct: float
    max_repeats: int
    confirm_repeats: int
    max_probes: int


@dataclass(frozen=True)
class Point:
    """What the probes of one rate found: their pooled verdict and how many ran, with the
    statistic's interval (None: no latency stored) and whether the load was carried."""

    rate: int
    verdict: Verdict
    repetitions: int
    estimate: Estimate | None = None
    carried: bool = True


@dataclass(frozen=True)
class Step:
    """The search's next move: probe `rate` (its repetition `repetition`), or stop with
    `answer` (the highest rate shown to meet the objective, None: not even the lowest)."""

    done: bool
    rate: int | None = None
    repetition: int | None = None
    answer: int | None = None
    reason: str = ""


def _counts_as_miss(p: Point, limits: SearchLimits) -> bool:
    return p.verdict is Verdict.MISSES or (
        p.verdict is Verdict.UNSURE and p.repetitions >= limits.max_repeats
    )


def bracket(points: list[Point], limits: SearchLimits) -> tuple[int | None, int | None]:
    """(highest rate that meets, lowest rate above it that misses). Rates below the highest
    hit that missed do not move the bracket: latency that falls as the load rises is
    reported (`inversion`), and the answer stays the highest rate shown to meet."""
    meets = [p.rate for p in points if p.verdict is Verdict.MEETS]
    lo = max(meets) if meets else None
    misses = [p.rate for p in points if _counts_as_miss(p, limits) and (lo is None or p.rate > lo)]
    return lo, (min(misses) if misses else None)


def converged(lo: int, hi: int, resolution_pct: float) -> bool:
    return hi - lo <= _tolerance(lo, resolution_pct)


def _tolerance(lo: int, resolution_pct: float) -> int:
    return max(1, math.floor(lo * resolution_pct / 100.0))


def next_step(points: list[Point], limits: SearchLimits, probes_run: int) -> Step:
    """The next move, or a stop past max_probes runs with the best rate shown so far."""
    step = _next(points, limits)
    if step.done or probes_run < limits.max_probes:
        return step
    lo, _ = bracket(points, limits)
    return Step(done=True, answer=lo, reason=f"stopped after {limits.max_probes} probes")


def _next(points: list[Point], limits: SearchLimits) -> Step:
    """Bracketing up (doubling from start_rate until a miss), then bisection between the
    highest hit and the miss above it to the resolution; a rate whose interval straddles the
    target is run again (pooling its samples narrows the interval) before the search moves
    on, and the answer is confirmed by confirm_repeats runs. While nothing has met, the
    search looks up (`_look_up`) before it halves down. Deterministic in `points`."""
    by_rate = {p.rate: p for p in points}
    for p in sorted(points, key=lambda p: p.rate):
        if p.verdict is Verdict.UNSURE and p.repetitions < limits.max_repeats:
            return _probe(p.rate, p.repetitions, "unsure: repeated")
    if not points:
        return _probe(limits.start_rate, 0, "first probe")
    lo, hi = bracket(points, limits)
    if lo is None:
        top = max(by_rate)
        if _look_up(points, limits):
            return _probe(min(limits.max_rate, 2 * top), 0, "missed: checking a higher rate")
        low = min(by_rate)
        if low <= 1:
            return Step(done=True, answer=None, reason="misses even at 1 request/s per connection")
        return _probe(max(1, low // 2), 0, "bracketing down")
    if hi is None:
        if lo >= limits.max_rate:
            return _confirm_or_stop(by_rate[lo], limits, "meets at the highest rate")
        return _probe(min(limits.max_rate, 2 * lo), 0, "bracketing up")
    if converged(lo, hi, limits.resolution_pct):
        return _confirm_or_stop(by_rate[lo], limits, "converged")
    return _probe((lo + hi) // 2, 0, "bisection")


def _look_up(points: list[Point], limits: SearchLimits) -> bool:
    """Nothing has met yet: probe above the highest rate first when it was the start rate
    (one probe: does latency fall as the load rises?) or when its latency fell below the
    rate under it beyond noise; never past max_rate or above a rate whose load was not
    carried (saturated: a higher rate cannot be carried either)."""
    ordered = sorted(points, key=lambda p: p.rate)
    top = ordered[-1]
    if top.rate >= limits.max_rate or not top.carried:
        return False
    if top.rate == limits.start_rate:
        return True
    return len(ordered) > 1 and below(top.estimate, ordered[-2].estimate)


def below(a: Estimate | None, b: Estimate | None) -> bool:
    """a's whole interval lies below b's: lower beyond noise at the intervals' confidence."""
    return a is not None and b is not None and a.high_us < b.low_us


@dataclass(frozen=True)
class Inversion:
    """Latency not monotonic in offered load: at `higher` (a rate above `lower`) the
    statistic's whole interval lies below the one at `lower`."""

    lower: Point
    higher: Point


def inversion(points: list[Point]) -> Inversion | None:
    """The strongest pair of rates whose latency falls as the rate rises beyond noise (the
    largest ratio of the lower rate's interval low end to the higher one's high end), or
    None when the latency never falls beyond noise."""
    measured = sorted((p for p in points if p.estimate is not None), key=lambda p: p.rate)
    best: tuple[float, Inversion] | None = None
    for i, lo in enumerate(measured):
        for hi in measured[i + 1 :]:
            if below(hi.estimate, lo.estimate):
                assert lo.estimate is not None and hi.estimate is not None
                ratio = lo.estimate.low_us / max(hi.estimate.high_us, 1e-9)
                if best is None or ratio > best[0]:
                    best = (ratio, Inversion(lo, hi))
    return None if best is None else best[1]


def _probe(rate: int, repetition: int, why: str) -> Step:
    return Step(done=False, rate=rate, repetition=repetition, reason=why)


def _confirm_or_stop(p: Point, limits: SearchLimits, why: str) -> Step:
    if p.repetitions < limits.confirm_repeats:
        return _probe(p.rate, p.repetitions, "confirming the answer")
    return Step(done=True, answer=p.rate, reason=why)


# ---------------------------------------------------------------------- the search's bound


@dataclass(frozen=True)
class ProbeBound:
    """At most `rates` distinct rates and `runs` runs (max_probes caps both)."""

    rates: int
    runs: int


def _doublings(start: int, top: int) -> list[int]:
    out, r = [], start
    while r < top:
        r = min(top, 2 * r)
        out.append(r)
    return out


def _halvings(start: int) -> list[int]:
    out, r = [], start
    while r > 1:
        r = max(1, r // 2)
        out.append(r)
    return out


def _bisections(lo: int, hi: int, resolution_pct: float) -> int:
    """Midpoints before [lo, hi] converges, whatever the verdicts: the bracket at least
    halves (rounded up) each time and a hit only widens the tolerance."""
    n, width, tol = 0, hi - lo, _tolerance(lo, resolution_pct)
    while width > tol:
        width = (width + 1) // 2
        n += 1
    return n


def probe_bound(limits: SearchLimits) -> ProbeBound:
    """The most the search can run: the start rate, every doubling up to max_rate and every
    halving down to 1 (both are walked only when nothing meets above), the longest bisection
    of any bracket they can form, each rate run up to max(max_repeats, confirm_repeats)
    times; never more than max_probes runs."""
    up = _doublings(limits.start_rate, limits.max_rate)
    down = _halvings(limits.start_rate)
    ladder = sorted({*down, limits.start_rate, *up})
    widest = max(
        (
            _bisections(a, b, limits.resolution_pct)
            for a, b in zip(ladder, ladder[1:], strict=False)
        ),
        default=0,
    )
    rates = 1 + len(up) + len(down) + widest
    runs = rates * max(limits.max_repeats, limits.confirm_repeats)
    return ProbeBound(min(rates, limits.max_probes), min(runs, limits.max_probes))
