"""The 2^(k-p) r analysis of a seeded fractional experiment and the detectable-effect figure,
both against hand computations."""

import math
from typing import Any

import pytest
from scipy import stats as sps

from backend.analysis.errors import AnalysisError
from backend.analysis.factorial_power import min_detectable_effect, power_of
from backend.analysis.fractional import fractional_factorial
from backend.domain import fraction as fr

FACTORS: dict[str, list[Any]] = {"servers": [1, 3], "workers": [8, 32], "sharded": [False, True]}
# Responses by (servers, workers) cell, two repetitions each; C = sharded follows the generator.
CELLS = {(1, 8): [10.0, 12.0], (3, 8): [20.0, 22.0], (1, 32): [30.0, 28.0], (3, 32): [50.0, 54.0]}


def _run(generator: str) -> dict[str, tuple[float, float | None, float | None]]:
    f = fr.build(3, fr.parse_generators([generator], 3))
    configs = fr.coded_points(f, FACTORS)
    ys = [CELLS[(c["servers"], c["workers"])] for c in configs]
    res = fractional_factorial(FACTORS, f, configs, ys, confidence=0.90)
    assert res.sse == pytest.approx(14.0)  # (1+1) + (1+1) + (1+1) + (4+4)
    assert res.error_variance == pytest.approx(14.0 / 4)  # SSE / (2^(k-p) (r - 1))
    assert res.effect_std == pytest.approx(math.sqrt(3.5 / 8))  # s_e / sqrt(2^(k-p) r)
    # SST = 8 (q_A^2 + q_B^2 + q_AB^2) + SSE = 544.5 + 1200.5 + 84.5 + 14
    assert res.sst == pytest.approx(1843.5)
    return {e.name: (e.value, e.ci_low, e.ci_high) for e in res.effects}


def test_seeded_half_fraction_against_hand_computation() -> None:
    # Cell means 11, 21, 29, 52 at (A, B) = (-,-), (+,-), (-,+), (+,+); with C = AB:
    # q0 = 113/4, qA = (-11 + 21 - 29 + 52)/4 = 8.25, qB = (-11 - 21 + 29 + 52)/4 = 12.25,
    # qAB = (11 - 21 - 29 + 52)/4 = 3.25, which estimates C + AB.
    effects = _run("C = AB")
    assert set(effects) == {
        "I",
        "servers + workers:sharded",
        "workers + servers:sharded",
        "sharded + servers:workers",
    }
    assert effects["I"][0] == pytest.approx(28.25)
    assert effects["servers + workers:sharded"][0] == pytest.approx(8.25)
    assert effects["workers + servers:sharded"][0] == pytest.approx(12.25)
    value, low, high = effects["sharded + servers:workers"]
    half = sps.t.ppf(0.95, 4) * math.sqrt(3.5 / 8)  # t[0.95; 4] s_q = 2.132 x 0.661
    assert (value, low, high) == pytest.approx((3.25, 3.25 - half, 3.25 + half))


def test_negative_generator_reports_signed_aliases() -> None:
    # C = -AB: the same cells, but sharded is on where servers and workers differ, so the
    # AB column (3.25) estimates -(C - AB): C's effect is -3.25, its interval mirrored.
    effects = _run("C = -AB")
    assert effects["servers - workers:sharded"][0] == pytest.approx(8.25)
    value, low, high = effects["sharded - servers:workers"]
    half = sps.t.ppf(0.95, 4) * math.sqrt(3.5 / 8)
    assert (value, low, high) == pytest.approx((-3.25, -3.25 - half, -3.25 + half))


def test_missing_runs_of_the_fraction_are_refused() -> None:
    f = fr.build(3, fr.parse_generators(["C = AB"], 3))
    configs = fr.coded_points(f, FACTORS)[:3]
    with pytest.raises(AnalysisError, match="3 of the 4 runs") as err:
        fractional_factorial(FACTORS, f, configs, [[1.0, 2.0]] * 3)
    assert err.value.field == "configurations"


def test_detectable_effect_without_replications_is_the_z_formula() -> None:
    # 2^(7-4), r = 1, sigma = 100 from a pilot, alpha = 0.05, power = 0.8: by hand with
    # z_0.975 = 1.959964 and z_0.8 = 0.841621, delta = 2 x 100 x 2.801585 / sqrt(8) = 198.10.
    d = min_detectable_effect(100.0, runs=8, cells=8, alpha=0.05, power=0.8)
    assert d.error_dof == 0
    assert d.effect == pytest.approx(198.10, abs=0.01)


def test_detectable_effect_with_replications_uses_the_t_test() -> None:
    # 2^(4-1) r = 2: N = 16 runs, 8 cells, nu = 8. The textbook approximation with table
    # values t[0.975; 8] = 2.306, t[0.80; 8] = 0.889 gives 2 x 1 x 3.195 / 4 = 1.5975; the
    # exact noncentral solution is within 0.5 % of it and has power 0.8 by a noncentral t.
    d = min_detectable_effect(1.0, runs=16, cells=8, alpha=0.05, power=0.8)
    assert d.error_dof == 8
    assert d.effect == pytest.approx(1.5975, rel=0.005)
    t = sps.t.ppf(0.975, 8)
    shift = d.effect * math.sqrt(16) / 2
    by_t = sps.nct.sf(t, 8, shift) + sps.nct.cdf(-t, 8, shift)
    assert by_t == pytest.approx(0.8, abs=1e-6)
    assert power_of(d.effect, 1.0, 16, 8, 0.05) == pytest.approx(0.8, abs=1e-9)


def test_detectable_effect_inputs_are_checked() -> None:
    with pytest.raises(AnalysisError) as err:
        min_detectable_effect(1.0, runs=8, cells=8, power=0.01)
    assert err.value.field == "power"


def test_fraction_effects_are_labelled_by_their_first_alias_with_its_levels() -> None:
    # C = AB: the AB column estimates sharded (C) first, so that is the effect's factor.
    f = fr.build(3, fr.parse_generators(["C = AB"], 3))
    configs = fr.coded_points(f, FACTORS)
    ys = [CELLS[(c["servers"], c["workers"])] for c in configs]
    res = fractional_factorial(FACTORS, f, configs, ys, confidence=0.90)
    by_name = {e.name: e for e in res.effects}
    c = by_name["sharded + servers:workers"]
    assert c.factors == ("sharded",)
    assert c.label == "Sharded multi-gets no → yes + servers:workers"
    assert by_name["servers + workers:sharded"].label == (
        "Memcached servers 1 → 3 + workers:sharded"
    )
    # Entered the other way round, servers' levels flip the sign of its effect.
    flipped = {**FACTORS, "servers": [3, 1]}
    configs2 = fr.coded_points(f, flipped)
    ys2 = [CELLS[(c2["servers"], c2["workers"])] for c2 in configs2]
    res2 = fractional_factorial(flipped, f, configs2, ys2, confidence=0.90)
    servers2 = next(e for e in res2.effects if e.factors == ("servers",))
    assert servers2.value == pytest.approx(-by_name["servers + workers:sharded"].value)
    assert servers2.label.startswith("Memcached servers 3 → 1")
