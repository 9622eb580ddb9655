"""The smallest effect a two-level (full or fractional) factorial design detects.

An effect here is the difference between the mean response at a factor's high and low level
(Montgomery's effect; Jain's q is half of it). With N = cells x r runs its estimate has
variance 4 sigma^2 / N (Montgomery, Design and Analysis of Experiments, 8th ed., sec. 6.4:
V(effect) = sigma^2 / (n 2^(k-2))). Tested with the F test of the saturated model, whose
error has nu = N - cells degrees of freedom, an effect delta has power
1 - F(f_alpha; 1, nu, lambda), lambda = N delta^2 / (4 sigma^2), F the noncentral F
distribution (the power of Minitab's "Power and Sample Size for 2-Level Factorial Design",
methods and formulas). The smallest detectable effect solves power(delta) = the chosen power.
Without replications (nu = 0) the design has no error estimate of its own: sigma is taken as
known from the pilot and the test is the z test, delta = 2 sigma (z_{1-alpha/2} + z_power) /
sqrt(N).
"""

import math
from dataclasses import dataclass

from scipy import optimize
from scipy import stats as sps

from backend.analysis.errors import require


@dataclass(frozen=True)
class DetectableEffect:
    """The smallest effect (high minus low mean) found with probability `power`."""

    effect: float
    runs: int
    error_dof: int  # 0: z test with sigma known
    sigma: float
    alpha: float
    power: float


def power_of(delta: float, sigma: float, runs: int, cells: int, alpha: float) -> float:
    """The probability the design's test at `alpha` finds an effect `delta`."""
    nu = runs - cells
    if nu == 0:
        shift = delta * math.sqrt(runs) / (2 * sigma)
        z = float(sps.norm.ppf(1 - alpha / 2))
        return float(sps.norm.sf(z - shift) + sps.norm.cdf(-z - shift))
    lam = runs * delta**2 / (4 * sigma**2)
    f_alpha = float(sps.f.ppf(1 - alpha, 1, nu))
    return float(sps.ncf.sf(f_alpha, 1, nu, lam))


def min_detectable_effect(
    sigma: float, runs: int, cells: int, alpha: float = 0.05, power: float = 0.8
) -> DetectableEffect:
    """Solve power_of(delta) = power for delta (see the module docstring for the formula)."""
    require(sigma > 0 and math.isfinite(sigma), "noise_std", "must be a positive number")
    require(0 < alpha < 1, "alpha", "must lie strictly between 0 and 1")
    require(alpha < power < 1, "power", "must lie between alpha and 1")
    require(runs >= cells >= 1, "runs", "a design has at least one run per cell")
    nu = runs - cells
    z_delta = 2 * sigma * (sps.norm.ppf(1 - alpha / 2) + sps.norm.ppf(power)) / math.sqrt(runs)
    if nu == 0:
        return DetectableEffect(float(z_delta), runs, 0, sigma, alpha, power)
    # The t test needs a larger effect than the z test; bracket it from there upward.
    high = float(z_delta)
    require(high > 0 and math.isfinite(high), "noise_std", "too small or too large to solve for")
    while power_of(high, sigma, runs, cells, alpha) < power:
        high *= 2
    delta = optimize.brentq(
        lambda d: power_of(d, sigma, runs, cells, alpha) - power, 0.0, high, xtol=1e-12 * high
    )
    return DetectableEffect(float(delta), runs, nu, sigma, alpha, power)
