"""The one definition of how a measurement fits a model (backend/analysis/model_fit.py)."""

import pytest

from backend.analysis.model_fit import BOUND_TOLERANCE, MODEL_TOLERANCE, fit, flagged


def test_within_the_tolerances_it_fits() -> None:
    f = fit("throughput", 10_000.0, 10_000.0 * (1 + MODEL_TOLERANCE * 0.9), 10_100.0)
    assert f.verdict == "fits" and f.message is None and f.label == "fits"
    # Past an upper bound by less than its tolerance: noise, not a flag.
    f = fit("throughput", 10_000.0 * (1 + BOUND_TOLERANCE * 0.5), 10_000.0, 10_000.0)
    assert f.verdict == "fits"
    assert f.beyond_bound_percent == pytest.approx(100 * BOUND_TOLERANCE * 0.5)


def test_above_an_upper_bound_is_the_stronger_verdict() -> None:
    f = fit("throughput", 21_310.0, 14_622.0, 14_622.0, "upper", "N = 1")
    assert f.verdict == "beyond_bound" and f.label == "46 % above the bound"
    assert f.error_percent == pytest.approx(-31.4, abs=0.05)
    assert f.beyond_bound_percent == pytest.approx(45.7, abs=0.05)
    assert f.message is not None
    assert f.message.startswith("N = 1: measured throughput 21,310 ops/s lies 45.7 % above")
    assert "31.4 % from the model's 14,622 ops/s" in f.message  # both reasons are said


def test_below_a_lower_bound_and_off_the_model() -> None:
    # A response time shorter than the model's lower bound (the demands summed once).
    f = fit("response time", 50e-6, 120e-6, 100e-6, "lower", "N = 2")
    assert f.verdict == "beyond_bound" and f.unit == "s"
    assert f.message is not None and "50.0 µs lies 50.0 % below the model's bound" in f.message
    # Above a lower bound is inside it; far from the model's value is off the model.
    f = fit("response time", 300e-6, 120e-6, 100e-6, "lower")
    assert f.verdict == "off_model" and f.beyond_bound_percent == pytest.approx(-200.0)
    assert f.label == "60 % off the model"
    assert f.error_percent == pytest.approx(-60.0)


def test_no_model_value_checks_the_bound_only() -> None:
    f = fit("throughput", 5_000.0, None, 4_000.0)
    assert f.verdict == "beyond_bound" and f.error_percent is None
    assert fit("queue length", 2.0, None).verdict == "fits"
    assert flagged([f, None, fit("queue length", 2.0, 2.1)]) == [f]
