"""2^k r designs against Jain's Example 18.1 and the chapter's identities."""

from typing import Any

import numpy as np
import pytest

from backend.analysis.errors import AnalysisError
from backend.analysis.factorial import factorial, sign_table
from backend.analysis.factorial_grid import design_from_grid

# Jain Example 18.1 (memory-cache study), rows in standard order (A fastest).
JAIN_Y = [[15, 18, 12], [45, 48, 51], [25, 28, 19], [75, 75, 81]]


def test_factorial_reproduces_jain_example_18_1() -> None:
    r = factorial(("A", "B"), JAIN_Y, confidence=0.90)
    q = {e.name: e for e in r.effects}
    assert [q[n].value for n in ("I", "A", "B", "A:B")] == [41.0, 21.5, 9.5, 5.0]
    assert [q[n].sum_of_squares for n in ("A", "B", "A:B")] == pytest.approx([5547, 1083, 300])
    assert r.sst == pytest.approx(7032)
    assert r.sse == pytest.approx(102)
    assert round(q["A"].variation_percent, 1) == 78.9
    assert round(q["B"].variation_percent, 1) == 15.4
    assert round(q["A:B"].variation_percent, 1) == 4.3
    assert r.error_variance == pytest.approx(12.75)
    assert round(r.effect_std or 0.0, 2) == 1.03
    assert (round(q["A"].ci_low or 0, 2), round(q["A"].ci_high or 0, 2)) == (19.58, 23.42)
    assert all(e.significant for e in r.effects)


def test_sign_table_is_orthogonal() -> None:
    table, _ = sign_table(4)
    np.testing.assert_array_equal(table.T @ table, 16 * np.eye(16, dtype=np.int64))


def test_multiplicative_model_fits_log10() -> None:
    y = np.array([[2.0, 2.2], [20.0, 19.0], [4.0, 4.1], [40.0, 41.0]])
    r = factorial(("A", "B"), y, confidence=0.95, multiplicative=True)
    assert r.multiplicative
    qa = next(e for e in r.effects if e.name == "A").value
    assert 10 ** (2 * qa) == pytest.approx(10.0, rel=0.05)  # A multiplies y by ~10


def test_unreplicated_design_uses_lenth() -> None:
    rng = np.random.default_rng(0)
    y = 100 + rng.normal(0, 1, (16, 1))
    table, _ = sign_table(4)
    y[:, 0] += 30 * table[:, 1]  # only A matters
    r = factorial(("A", "B", "C", "D"), y, confidence=None)
    assert r.lenth is not None and r.error_variance is None
    flags = {e.name: e.significant for e in r.effects if e.name != "I"}
    assert flags["A"] is True
    # Noise effects may pass the individual 5% margin by chance; none passes the simultaneous one.
    big = [e.name for e in r.effects[1:] if abs(e.value) > r.lenth.simultaneous_margin]
    assert big == ["A"]
    assert r.lenth.half_normal_names[-1] == "A"
    assert np.all(np.diff(r.lenth.half_normal_quantiles) > 0)


def test_confidence_intervals_refused_without_replication() -> None:
    with pytest.raises(AnalysisError) as err:
        factorial(("A", "B"), [[1.0], [2.0], [3.0], [4.0]], confidence=0.9)
    assert err.value.field == "replications"


def test_ragged_or_overflowing_responses_name_y() -> None:
    with pytest.raises(AnalysisError) as err:
        factorial(("A", "B"), [[1.0, 2.0], [3.0], [4.0, 5.0], [6.0, 7.0]])
    assert err.value.field == "y" and "same number r" in err.value.reason
    with pytest.raises(AnalysisError) as err:
        factorial(("A", "B"), [[1e308, -1e308], [1.0, 2.0], [1.0, 2.0], [3.0, 4.0]])
    assert err.value.field == "y" and "not a finite number" in err.value.reason
    with pytest.raises(AnalysisError) as err:
        factorial(("A", "B"), [[1.0, 2.0], [1.0, 3.0], [1.0, 2.0], [3.0, 4.0]], 1 - 2**-53)
    assert err.value.field == "confidence"


def test_main_effect_and_interaction_plot_data() -> None:
    r = factorial(("A", "B"), JAIN_Y, confidence=None)
    assert r.main_effects["A"] == pytest.approx(((15 + 24) / 2, (48 + 77) / 2))
    assert r.interactions["A:B"] == pytest.approx((15, 48, 24, 77))
    assert r.residuals.sum() == pytest.approx(0.0)
    assert len(r.qq_normal_quantiles) == 12


def test_design_from_grid_orders_cells_and_rejects_partial_grids() -> None:
    configs = [{"servers": s, "workers": w, "value": 4096} for w in (32, 8) for s in (3, 1)]
    ys = [[float(c["servers"] * 10 + c["workers"])] * 2 for c in configs]
    d = design_from_grid(configs, ys)
    assert d.factors == ("servers", "workers")
    assert d.levels == {"servers": (1, 3), "workers": (8, 32)}
    np.testing.assert_allclose(d.y[:, 0], [18, 38, 42, 62])
    with pytest.raises(AnalysisError) as err:
        design_from_grid(configs[:3], ys[:3])
    assert err.value.field == "configurations"
    with pytest.raises(AnalysisError) as err:
        design_from_grid(configs, ys, factors=("servers",))
    assert err.value.field == "factors"
    three = [{"w": w} for w in (1, 2, 3)]
    with pytest.raises(AnalysisError) as err:
        design_from_grid(three, [[1.0]] * 3, factors=("w",))
    assert "exactly 2" in err.value.reason


def test_design_from_grid_follows_the_entered_order_and_effects_keep_their_meaning() -> None:
    """The same measurements entered in both orders: each effect is the change from the
    factor's first level to its second, so reversing a factor's levels flips its sign and
    its name says which way it was taken; reversing the factors swaps A and B."""

    def y(c: dict[str, Any]) -> float:
        # replication "one" is faster; 3 servers are slower (the testbed, in words).
        return float(
            24_000.0 - 1_300.0 * (c["replication"] == "all") - 2_000.0 * (c["servers"] == 3)
        )

    configs: list[dict[str, Any]] = [
        {"servers": s, "replication": r} for s in (1, 3) for r in ("one", "all")
    ]
    ys = [[y(c), y(c) + 10.0] for c in configs]
    as_given: dict[str, list[Any]] = {"servers": [1, 3], "replication": ["one", "all"]}
    reversed_: dict[str, list[Any]] = {"replication": ["all", "one"], "servers": [3, 1]}
    d1 = design_from_grid(configs, ys, order=as_given)
    d2 = design_from_grid(configs, ys, order=reversed_)
    assert d1.factors == ("servers", "replication") and d2.factors == ("replication", "servers")
    assert d1.levels == {"servers": (1, 3), "replication": ("one", "all")}
    assert d2.levels == {"replication": ("all", "one"), "servers": (3, 1)}
    r1 = factorial(d1.factors, d1.y, levels=d1.levels)
    r2 = factorial(d2.factors, d2.y, levels=d2.levels)
    e1 = {e.factors: e for e in r1.effects}
    e2 = {e.factors: e for e in r2.effects}
    # q is half the change from the first level to the second.
    assert e1[("servers",)].value == pytest.approx(-1_000.0)
    assert e2[("servers",)].value == pytest.approx(1_000.0)
    assert e1[("replication",)].value == pytest.approx(-650.0)
    assert e2[("replication",)].value == pytest.approx(650.0)
    assert e1[("servers",)].label == "Memcached servers 1 → 3"
    assert e2[("servers",)].label == "Memcached servers 3 → 1"
    assert e2[("replication",)].label == "Replication (servers) all → one"
    assert r1.effects[1].factors == ("servers",)  # A is the first factor entered
    assert r2.effects[1].factors == ("replication",)
    assert r1.main_effects["replication"] == pytest.approx((23_005.0, 21_705.0))  # one, all
    assert e1[("servers", "replication")].label == (
        "Memcached servers 1 → 3 × Replication (servers) one → all"
    )
