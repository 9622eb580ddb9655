"""Grid expansion and whole-design checks."""

import pytest

from backend.domain.design import DesignErrors, check_design
from backend.domain.grid import expand, grid_size, preview
from backend.domain.templates import SEEDS, TemplateSeed

MEMORY_MB = 16_384  # memcached memory a server may be given (a setting in the app)


def test_expand_is_row_major_product() -> None:
    points = expand({"servers": [1, 3], "workers": [8, 32]}, {}, memory_limit_mb=MEMORY_MB)
    assert points == [
        {"servers": 1, "workers": 8},
        {"servers": 1, "workers": 32},
        {"servers": 3, "workers": 8},
        {"servers": 3, "workers": 32},
    ]


def test_no_factors_is_one_point() -> None:
    assert expand({}, {"servers": 2}, memory_limit_mb=MEMORY_MB) == [{}]
    assert grid_size({}) == 1


def test_check_design_names_the_field() -> None:
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"servers": [1, 0]},
            {},
            1,
            max_configurations=10,
            max_runs=10,
            memory_limit_mb=MEMORY_MB,
        )
    assert e.value.errors[0].loc == ("factors", "servers")
    with pytest.raises(DesignErrors) as e:
        check_design(
            {}, {"workers": -1}, 1, max_configurations=10, max_runs=10, memory_limit_mb=MEMORY_MB
        )
    assert e.value.errors[0].loc == ("fixed", "workers")
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"servers": []}, {}, 1, max_configurations=10, max_runs=10, memory_limit_mb=MEMORY_MB
        )
    assert "non-empty" in e.value.errors[0].reason
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"workers": [8, 8]},
            {},
            1,
            max_configurations=10,
            max_runs=10,
            memory_limit_mb=MEMORY_MB,
        )
    assert "twice" in e.value.errors[0].reason


def test_check_design_limits() -> None:
    factors = {"workers": list(range(1, 11)), "servers": list(range(1, 11))}
    with pytest.raises(DesignErrors) as e:
        check_design(
            factors, {}, 1, max_configurations=99, max_runs=10**6, memory_limit_mb=MEMORY_MB
        )
    first = e.value.errors[0]
    assert first.loc == ("factors",) and "100 configurations" in first.reason
    with pytest.raises(DesignErrors) as e:
        check_design(
            factors, {}, 3, max_configurations=1000, max_runs=299, memory_limit_mb=MEMORY_MB
        )
    assert e.value.errors[0].loc == ("repetitions",)


def test_cross_rule_blames_the_factor() -> None:
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"replication": [1, 3]},
            {"servers": 2},
            1,
            max_configurations=10,
            max_runs=10,
            memory_limit_mb=MEMORY_MB,
        )
    assert e.value.errors[0].loc == ("factors", "replication")


def test_both_factor_and_fixed() -> None:
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"servers": [1, 2]},
            {"servers": 1},
            1,
            max_configurations=10,
            max_runs=10,
            memory_limit_mb=MEMORY_MB,
        )
    assert e.value.errors[0].loc == ("fixed",)


@pytest.mark.parametrize("seed", list(SEEDS.values()), ids=[t.value for t in SEEDS])
def test_every_template_seed_is_valid(seed: TemplateSeed) -> None:
    check_design(
        seed.factors,
        seed.fixed,
        seed.repetitions,
        max_configurations=10_000,
        max_runs=100_000,
        memory_limit_mb=MEMORY_MB,
    )


def test_preview_counts() -> None:
    p = preview(configurations=4, repetitions=3, run_time_s=60, overhead_s=5)
    assert (p.configurations, p.runs, p.estimated_seconds) == (4, 12, 12 * 65)


def test_check_design_names_every_bad_parameter() -> None:
    with pytest.raises(DesignErrors) as e:
        check_design(
            {"servers": [1, 0], "workers": [8], "colour": [1]},
            {"value_size": -1, "middlewares": 1, "servers": 2},
            1,
            max_configurations=10,
            max_runs=10,
            memory_limit_mb=MEMORY_MB,
        )
    assert [err.loc for err in e.value.errors] == [
        ("factors", "servers"),
        ("factors", "colour"),
        ("fixed", "value_size"),
        ("fixed",),
    ]
