"""Stored percentiles of a middleware without per-window histograms (older stats directories):
its sampled response times by the one percentile rule, the sample at rank round(q/100 x n)."""

from backend.domain.metrics import PERCENTILE_COLUMNS
from worker.runs.summarize import sample_percentiles


def test_sampled_percentiles_follow_the_rule_rank() -> None:
    # 150 samples 1..150: p50 rank 75, p90 rank 135, p99 rank round(148.5) = 149.
    got = sample_percentiles([float(v) for v in range(150, 0, -1)])
    assert got == {"p50_us": 75.0, "p90_us": 135.0, "p99_us": 149.0}


def test_rank_rounds_instead_of_ceiling() -> None:
    # 16 samples: p90 is 14.4, rank 14 by the rule; the old nearest rank (ceil) took the 15th.
    got = sample_percentiles([float(v) for v in range(1, 17)])
    assert got["p90_us"] == 14.0


def test_no_samples_is_none() -> None:
    assert sample_percentiles([]) == dict.fromkeys(PERCENTILE_COLUMNS)
