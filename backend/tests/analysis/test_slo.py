"""The latency-SLO search's statistics and bisection, on seeded data and hand computations."""

from collections.abc import Callable
from math import comb

import numpy as np
import pytest

from backend.analysis.percentiles import (
    Histogram,
    make_histogram,
    merge,
    percentile_rank,
    percentiles_from_histogram,
)
from backend.analysis.slo import (
    Estimate,
    Objective,
    Point,
    SearchLimits,
    Verdict,
    bracket,
    converged,
    inversion,
    mean_estimate,
    next_step,
    order_statistic_ranks,
    percentile_estimate,
    probe_bound,
    verdict,
)

# memtier-like buckets: 1 us wide to 1 ms, then 3 % wide (log-linear) up to 100 ms.
EDGES = np.unique(
    np.concatenate((np.arange(1.0, 1001.0), np.ceil(1000.0 * 1.03 ** np.arange(1, 160))))
)


def _hist(samples: np.ndarray) -> Histogram:
    idx = np.searchsorted(EDGES, samples, side="left")
    counts = np.bincount(idx, minlength=EDGES.size + 1)
    return make_histogram(EDGES, counts[: EDGES.size], float(counts[EDGES.size]))


def _binom_cdf(k: int, n: int, p: float) -> float:
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))


def test_order_statistic_ranks_match_the_hand_computation() -> None:
    # The classic table value: the median of 100 samples at 95 % lies between x(40) and x(61).
    assert order_statistic_ranks(100, 50, 0.95) == (40, 61)
    # Coverage by hand: P(x(l) <= xi <= x(u)) = B(u-1) - B(l-1), B = Binomial(100, 0.5) CDF.
    cover = _binom_cdf(60, 100, 0.5) - _binom_cdf(39, 100, 0.5)
    assert cover == pytest.approx(0.9648, abs=1e-4)
    # p99 of 1000 samples at 95 %: ranks from the binomial(1000, 0.99) quantiles, by hand.
    low, high = order_statistic_ranks(1000, 99, 0.95)
    assert _binom_cdf(low - 1, 1000, 0.99) < 0.025 <= _binom_cdf(low, 1000, 0.99)
    assert _binom_cdf(high - 2, 1000, 0.99) < 0.975 <= _binom_cdf(high - 1, 1000, 0.99)
    assert (low, high) == (983, 997)
    # Too few samples for the tail: the interval reaches the largest sample.
    assert order_statistic_ranks(20, 99, 0.95)[1] == 20


def test_percentile_interval_reads_the_ranks_off_the_histogram() -> None:
    rng = np.random.default_rng(7)
    samples = rng.integers(100, 900, size=1000).astype(float)  # integers: one per 1 us bucket
    est = percentile_estimate(_hist(samples), 99, 0.95)
    ordered = np.sort(samples)
    assert est.n == 1000
    assert est.value_us == ordered[int(percentile_rank(99, 1000)) - 1]
    # Each bucket (k-1, k] holds the integer k: the interval is x(983)'s lower edge to x(997).
    assert est.low_us == ordered[983 - 1] - 1
    assert est.high_us == ordered[997 - 1]


def test_merged_percentile_equals_the_percentile_of_the_pooled_samples() -> None:
    rng = np.random.default_rng(29)
    # Three client instances with different latency distributions and request counts.
    parts = [
        rng.lognormal(np.log(300), 0.4, 4000),
        rng.lognormal(np.log(900), 0.6, 1500),
        rng.gamma(2.0, 250.0, 6000),
    ]
    merged = merge([_hist(p) for p in parts])
    pooled = _hist(np.concatenate(parts))
    qs = (50.0, 90.0, 99.0, 99.9)
    got = [p.value_us for p in percentiles_from_histogram(merged, qs)]
    assert got == [p.value_us for p in percentiles_from_histogram(pooled, qs)]
    # The pooled samples' own percentile lies in the bucket whose upper edge is reported.
    ordered = np.sort(np.concatenate(parts))
    for q, value in zip(qs, got, strict=True):
        x = ordered[int(percentile_rank(q, ordered.size)) - 1]
        i = int(np.searchsorted(EDGES, x, side="left"))
        assert value == EDGES[i]
    # Averaging the instances' p99 (what the search must never do) gives another number.
    mean_p99 = np.mean([percentiles_from_histogram(_hist(p), (99.0,))[0].value_us for p in parts])
    assert mean_p99 != got[2] and abs(mean_p99 - got[2]) > 50
    # The interval of the merged histogram is the pooled one's too.
    assert percentile_estimate(merged, 99, 0.95) == percentile_estimate(pooled, 99, 0.95)


def test_mean_interval_by_hand() -> None:
    # 50 samples in (0, 100] and 50 in (100, 200]: midpoints 50 and 150.
    h = make_histogram([100.0, 200.0], [50, 50])
    est = mean_estimate(h, 0.95)
    sd = np.sqrt((50 * 50**2 + 50 * 50**2) / 99)
    assert est.value_us == 100.0
    assert est.high_us - est.value_us == pytest.approx(1.959964 * sd / 10, rel=1e-5)


def _objective(target: float = 2000.0) -> Objective:
    return Objective("percentile", 99.0, target, 0.95, 0.95)


def test_verdict_needs_the_whole_interval() -> None:
    rng = np.random.default_rng(3)
    est = percentile_estimate(_hist(rng.integers(100, 1000, 5000).astype(float)), 99, 0.95)
    assert verdict(est, 1.0, _objective(est.high_us)) is Verdict.MEETS
    assert verdict(est, 1.0, _objective(est.low_us - 1)) is Verdict.MISSES
    assert verdict(est, 1.0, _objective(est.value_us)) is Verdict.UNSURE
    # Load not carried: a miss whatever the latency.
    assert verdict(est, 0.5, _objective(1e9)) is Verdict.MISSES


LIMITS = SearchLimits(
    start_rate=100,
    max_rate=100_000,
    resolution_pct=2.0,
    max_repeats=3,
    confirm_repeats=2,
    max_probes=40,
)


def _search(true_limit: int, band: float, seed: int) -> tuple[int | None, list[tuple[int, int]]]:
    """Run the search against a seeded monotone response: below true_limit it meets, above it
    misses; within `band` (relative) of it a probe is unsure with probability 1/2."""
    rng = np.random.default_rng(seed)
    runs: dict[int, list[Verdict]] = {}
    probes: list[tuple[int, int]] = []
    for _ in range(100):
        points = [Point(r, _pool(v), len(v)) for r, v in runs.items()]
        step = next_step(points, LIMITS, len(probes))
        if step.done:
            return step.answer, probes
        assert step.rate is not None and step.repetition == len(runs.get(step.rate, []))
        probes.append((step.rate, step.repetition))
        near = abs(step.rate - true_limit) <= band * true_limit
        if near and rng.random() < 0.5:
            v = Verdict.UNSURE
        else:
            v = Verdict.MEETS if step.rate <= true_limit else Verdict.MISSES
        runs.setdefault(step.rate, []).append(v)
    raise AssertionError("the search did not stop")


def _pool(vs: list[Verdict]) -> Verdict:
    # Pooling samples resolves an unsure probe once a definite one is among its runs.
    definite = [v for v in vs if v is not Verdict.UNSURE]
    return definite[-1] if definite else Verdict.UNSURE


@pytest.mark.parametrize("true_limit", [1, 77, 100, 1234, 5000, 99_999])
def test_bisection_converges_to_the_resolution(true_limit: int) -> None:
    answer, probes = _search(true_limit, 0.0, seed=true_limit)
    assert answer is not None and answer <= true_limit
    assert converged(answer, true_limit + 1, LIMITS.resolution_pct)
    assert len({r for r, _ in probes}) < 30  # fewer rates than a 30-point grid
    # The answer was confirmed: run twice.
    assert sum(1 for r, _ in probes if r == answer) >= LIMITS.confirm_repeats


def test_unsure_points_near_the_boundary_are_repeated() -> None:
    answer, probes = _search(3000, 0.05, seed=11)
    assert answer is not None and answer <= 3000
    repeated = {r for r, rep in probes if rep > 0}
    assert repeated and all(abs(r - 3000) <= 0.05 * 3000 or r == answer for r in repeated)


def test_a_rate_missing_at_one_per_second_ends_without_answer() -> None:
    points = [Point(1, Verdict.MISSES, 1)]
    step = next_step(points, LIMITS, 1)
    assert step.done and step.answer is None


def test_bracket_is_the_highest_hit_and_the_lowest_miss_above_it() -> None:
    points = [
        Point(100, Verdict.MISSES, 1),  # below a hit: reported as an inversion, not a bound
        Point(200, Verdict.MEETS, 1),
        Point(800, Verdict.MISSES, 1),
        Point(400, Verdict.MEETS, 1),
        Point(600, Verdict.UNSURE, 3),  # unsure at max repeats: counts as a miss
    ]
    assert bracket(points, LIMITS) == (400, 600)
    assert bracket([Point(100, Verdict.MISSES, 1)], LIMITS) == (None, 100)


def test_the_probe_budget_stops_with_the_best_rate_so_far() -> None:
    limits = SearchLimits(100, 100_000, 1.0, 3, 2, max_probes=3)
    points = [Point(100, Verdict.MEETS, 1), Point(200, Verdict.MEETS, 1)]
    step = next_step(points, limits, 3)
    assert step.done and step.answer == 200 and "3 probes" in step.reason


# ------------------------------------------- bracketing, bisection and falling latency
TARGET = 2000.0
Response = Callable[[int], tuple[float, bool]]  # rate -> (p99 in us, load carried)


def _estimate(p99: float) -> Estimate:
    # A +-10 % interval: two rates differ beyond noise when their p99 differ by > ~22 %.
    return Estimate(p99, 0.9 * p99, 1.1 * p99, 10_000)


def _simulate(
    response: Response, limits: SearchLimits
) -> tuple[int | None, list[int], list[Point]]:
    """Run the search against a deterministic response; (answer, rates in probe order, points)."""
    objective = _objective(TARGET)
    runs: dict[int, int] = {}
    order: list[int] = []
    for _ in range(1000):
        points = []
        for rate, n in runs.items():
            p99, carried = response(rate)
            est = _estimate(p99)
            v = verdict(est, 1.0 if carried else 0.5, objective)
            points.append(Point(rate, v, n, est, carried))
        step = next_step(points, limits, len(order))
        if step.done:
            return step.answer, order, points
        assert step.rate is not None and step.repetition == runs.get(step.rate, 0)
        runs[step.rate] = runs.get(step.rate, 0) + 1
        order.append(step.rate)
    raise AssertionError("the search did not stop")


def _highest_meeting(response: Response, top: int) -> int:
    """The true answer: the highest rate whose whole interval is within the target."""
    return max(r for r in range(1, top) if 1.1 * response(r)[0] <= TARGET and response(r)[1])


def _monotone(limit: int) -> Response:
    """p99 rises with the rate and crosses the target just above `limit`; saturated at 4x."""
    return lambda r: (TARGET * 0.5 * (1 + r / limit) ** 2 / 2.0, r < 4 * limit)


def test_search_brackets_up_from_the_start_then_bisects_down() -> None:
    answer, order, _ = _simulate(_monotone(5000), LIMITS)
    ladder = [100, 200, 400, 800, 1600, 3200, 6400]
    assert order[: len(ladder)] == ladder  # doubling up until the first miss (6400)
    # Then only bisection inside [3200, 6400], converging to the last hit.
    assert all(3200 < r < 6400 for r in order[len(ladder) :] if r != answer)
    best = _highest_meeting(_monotone(5000), 6400)
    assert answer is not None and answer <= best
    assert converged(answer, best + 1, LIMITS.resolution_pct)
    assert order.count(answer) == LIMITS.confirm_repeats


def test_a_start_above_the_limit_checks_one_rate_up_then_halves_down() -> None:
    answer, order, points = _simulate(_monotone(30), LIMITS)
    # 100 misses, 200 (the one check up) misses higher still, then down: 50, 25 (meets).
    assert order[:4] == [100, 200, 50, 25]
    best = _highest_meeting(_monotone(30), 100)
    assert answer is not None and answer <= best
    assert converged(answer, best + 1, LIMITS.resolution_pct)
    assert inversion(points) is None  # latency only rose with the rate


def test_a_saturated_start_does_not_look_up() -> None:
    _, order, _ = _simulate(_monotone(10), LIMITS)  # saturated from 40 on
    assert order[:2] == [100, 50]


def _falling_then_rising(r: int) -> tuple[float, bool]:
    """Bursts after idle gaps: p99 high at low rates, falling until 400, rising past 5000."""
    if r < 400:
        return 40_000.0 * (50 / r) ** 0.8 if r > 50 else 40_000.0, True
    return 1000.0 + (max(0, r - 5000) * 0.5), True


def test_falling_latency_is_followed_up_and_reported_with_its_evidence() -> None:
    answer, order, points = _simulate(_falling_then_rising, LIMITS)
    # 100 misses; 200 misses too but lower beyond noise, so the search keeps looking up and
    # finds the objective met at 400, brackets up to the miss at 12800 and bisects.
    assert order[:4] == [100, 200, 400, 800]
    assert 6400 in order and 12800 in order and 50 not in order
    best = _highest_meeting(_falling_then_rising, 12800)
    assert answer is not None and 6400 <= answer <= best
    assert converged(answer, best + 1, LIMITS.resolution_pct)
    found = inversion(points)
    assert found is not None
    assert found.lower.rate == 100 and found.lower.verdict is Verdict.MISSES
    assert found.higher.verdict is Verdict.MEETS and found.higher.rate > found.lower.rate
    assert found.higher.estimate is not None and found.lower.estimate is not None
    assert found.higher.estimate.high_us < found.lower.estimate.low_us


def test_latency_falling_only_within_noise_is_not_reported() -> None:
    points = [
        Point(100, Verdict.MISSES, 1, Estimate(2500, 2300, 2800, 1000)),
        Point(200, Verdict.UNSURE, 1, Estimate(2400, 1900, 2600, 1000)),  # overlaps 100's
        Point(400, Verdict.MISSES, 1, Estimate(3000, 2900, 3100, 1000)),
    ]
    assert inversion(points) is None
    falling = [*points, Point(800, Verdict.MEETS, 1, Estimate(1000, 900, 1100, 1000))]
    found = inversion(falling)
    assert found is not None and (found.lower.rate, found.higher.rate) == (400, 800)


def test_misses_everywhere_ends_without_answer_after_looking_up_once() -> None:
    answer, order, _ = _simulate(lambda r: (50_000.0, True), LIMITS)
    assert answer is None and order == [100, 200, 50, 25, 12, 6, 3, 1]


@pytest.mark.parametrize(
    "response",
    [_monotone(1), _monotone(77), _monotone(5000), _monotone(99_999), _falling_then_rising],
)
@pytest.mark.parametrize(
    "limits",
    [
        LIMITS,
        SearchLimits(1, 1000, 0.1, 1, 1, 200),
        SearchLimits(3000, 3000, 50.0, 2, 3, 200),
        SearchLimits(64, 100_000, 5.0, 3, 2, 200),
    ],
)
def test_the_preview_bound_holds(response: Response, limits: SearchLimits) -> None:
    _, order, _ = _simulate(response, limits)
    bound = probe_bound(limits)
    assert len(set(order)) <= bound.rates and len(order) <= bound.runs


def test_the_bound_is_capped_by_the_probe_budget() -> None:
    capped = probe_bound(SearchLimits(100, 100_000, 1.0, 3, 2, max_probes=12))
    assert capped.runs == 12 and capped.rates == 12
    # Start 100, 10 doublings to 100000, 6 halvings to 1, and 7 bisections of the widest
    # bracket ([1, 2] needs none; [51200, 100000] needs 7 at 1 %): 24 rates, 3 runs each.
    assert probe_bound(SearchLimits(100, 100_000, 1.0, 3, 2, max_probes=200)) == type(capped)(
        24, 72
    )
