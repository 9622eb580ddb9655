"""2^k r factorial designs (Jain ch. 18): effects, allocation of variation, CIs, diagnostics.

Rows are in standard order: factor j is at +1 in row i when bit j of i is set (the first
factor alternates fastest). Effects are Jain's q = (1/2^k) sum(sign x mean y).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import stats as sps

from backend.analysis.errors import AnalysisError, require, require_finite
from backend.domain.labels import effect_label

FloatArray = npt.NDArray[np.float64]
MIN_FACTORS, MAX_FACTORS = 2, 6


def is_two_level(factors: Mapping[str, Sequence[Any]]) -> bool:
    """A 2^k design: every factor at exactly two levels, k within the analysis' range."""
    return MIN_FACTORS <= len(factors) <= MAX_FACTORS and all(
        len(levels) == 2 for levels in factors.values()
    )


@dataclass(frozen=True)
class Effect:
    """One column of the sign table: its effect, variation and (r >= 2) interval."""

    name: str  # "I" for the mean, "A", "A:B", ...
    factors: tuple[str, ...]
    label: str  # in words with each factor's levels, -1 -> +1 (backend.domain.labels)
    value: float
    sum_of_squares: float  # 0 for "I"
    variation_percent: float  # share of SST; 0 for "I"
    ci_low: float | None
    ci_high: float | None
    significant: bool | None  # CI excludes 0 (r >= 2) or |q| > Lenth's ME (r = 1)


@dataclass(frozen=True)
class LenthAnalysis:
    """Lenth's pseudo standard error for unreplicated designs and half-normal plot data."""

    pse: float
    margin_of_error: float
    simultaneous_margin: float
    half_normal_names: tuple[str, ...]  # effects sorted by |q|
    half_normal_abs_effects: FloatArray
    half_normal_quantiles: FloatArray


@dataclass(frozen=True)
class FactorialResult:
    """Everything Jain's chapter 18 asks of a 2^k r analysis, for one model (y or log10 y)."""

    factors: tuple[str, ...]
    replications: int
    multiplicative: bool  # True: the model is fitted to log10(y)
    sign_table: npt.NDArray[np.int64]  # (2^k, 2^k): columns I, A, B, A:B, C, ...
    effects: tuple[Effect, ...]
    sst: float
    sse: float
    error_percent: float
    error_variance: float | None  # s_e^2 = SSE / (2^k (r - 1))
    effect_std: float | None  # s_q = s_e / sqrt(2^k r)
    confidence: float | None
    t_critical: float | None  # the t value of the intervals: exact quantile, or as given
    t_given: bool  # True when the caller gave t (e.g. a table value), not the exact quantile
    cell_means: FloatArray  # (2^k,), on the model's scale
    predicted: FloatArray  # (2^k, r)
    residuals: FloatArray  # (2^k, r)
    qq_residuals: FloatArray  # sorted residuals
    qq_normal_quantiles: FloatArray
    lenth: LenthAnalysis | None  # always computed; used for significance only when r = 1
    main_effects: dict[str, tuple[float, float]]  # factor -> (mean at -1, mean at +1)
    interactions: dict[str, tuple[float, float, float, float]]  # "A:B" -> (--, +-, -+, ++)


def sign_table(k: int) -> tuple[npt.NDArray[np.int64], list[tuple[int, ...]]]:
    """The +/-1 table (columns I, A, B, A:B, C, ...) and the factor indices per column."""
    rows = np.arange(2**k)
    base = np.array([np.where((rows >> j) & 1, 1, -1) for j in range(k)])  # (k, 2^k)
    subsets = [tuple(j for j in range(k) if (col >> j) & 1) for col in range(2**k)]
    table = np.array(
        [np.prod(base[list(s)], axis=0) if s else np.ones(2**k, dtype=np.int64) for s in subsets]
    ).T
    return table.astype(np.int64), subsets


def _names(factors: tuple[str, ...], subsets: list[tuple[int, ...]]) -> list[str]:
    return ["I" if not s else ":".join(factors[j] for j in s) for s in subsets]


def factorial(
    factors: tuple[str, ...],
    y: npt.ArrayLike,
    confidence: float | None = 0.90,
    multiplicative: bool = False,
    t_critical: float | None = None,
    levels: Mapping[str, Sequence[Any]] | None = None,
) -> FactorialResult:
    """Analyse responses y of shape (2^k, r) in standard order; see the module docstring.
    `levels` (factor -> its -1 and +1 level) only name the effects.

    Intervals use t[1 - alpha/2; 2^k (r - 1)] for `confidence`, or `t_critical` when given
    (reports quote table values, e.g. 1.86 for 90% and 8 degrees of freedom).
    """
    k = len(factors)
    require(MIN_FACTORS <= k <= MAX_FACTORS, "factors", f"need {MIN_FACTORS}..{MAX_FACTORS}")
    require(len(set(factors)) == k, "factors", "factor names must be unique")
    try:
        data = np.asarray(y, dtype=np.float64)
    except ValueError as err:  # numpy: "inhomogeneous shape" for rows of unequal length
        raise AnalysisError(
            "y", "rows of different lengths: every cell needs the same number r of replications"
        ) from err
    require(data.ndim == 2 and data.shape[0] == 2**k, "y", f"needs shape (2^{k}, r)")
    require(data.shape[1] >= 1, "y", "needs at least one replication")
    require(bool(np.all(np.isfinite(data))), "y", "contains NaN or infinite values")
    r = data.shape[1]
    if t_critical is not None:
        require(math.isfinite(t_critical) and t_critical > 0, "t_critical", "must be positive")
        require(r >= 2, "t_critical", "confidence intervals need r >= 2 replications")
    if confidence is not None:
        require(0.0 < confidence < 1.0, "confidence", "must lie strictly between 0 and 1")
        if r < 2:
            raise AnalysisError(
                "replications", "confidence intervals need r >= 2 (no error estimate at r = 1)"
            )
    if multiplicative:
        require(bool(np.all(data > 0)), "y", "the multiplicative model needs positive responses")
        data = np.log10(data)
    table, subsets = sign_table(k)
    names = _names(factors, subsets)
    n_cells = 2**k
    means = data.mean(axis=1)
    q = table.T @ means / n_cells
    ss = n_cells * r * q**2
    ss[0] = 0.0
    predicted = np.repeat(means[:, None], r, axis=1)
    residuals = data - predicted
    sse = float((residuals**2).sum())
    sst = float(((data - data.mean()) ** 2).sum())
    pct = 100.0 * ss / sst if sst > 0 else np.zeros_like(ss)
    s_e2 = sse / (n_cells * (r - 1)) if r > 1 else None
    s_q = math.sqrt(s_e2 / (n_cells * r)) if s_e2 is not None else None
    half = t_used = None
    if s_q is not None and t_critical is not None:
        t_used = t_critical
    elif s_q is not None and confidence is not None:
        t_used = float(sps.t.ppf(0.5 + confidence / 2.0, n_cells * (r - 1)))
        require_finite([t_used], "confidence", "too close to 1: the t quantile is infinite")
    if t_used is not None and s_q is not None:
        half = t_used * s_q
    require_finite([q, sst, sse, half], "y", "responses too large: sums of squares overflow")
    # Half-normal plot data for every design; Lenth's margins judge significance only at r = 1
    # (with replications the t intervals do).
    lenth = _lenth(names[1:], q[1:])
    effects = []
    for col, name in enumerate(names):
        sig: bool | None = None
        if half is not None:
            sig = bool(abs(q[col]) > half)
        elif r == 1 and col > 0:
            sig = bool(abs(q[col]) > lenth.margin_of_error)
        in_effect = tuple(factors[j] for j in subsets[col])
        effects.append(
            Effect(
                name,
                in_effect,
                effect_label(in_effect, levels),
                float(q[col]),
                float(ss[col]),
                float(pct[col]),
                float(q[col] - half) if half is not None else None,
                float(q[col] + half) if half is not None else None,
                sig,
            )
        )
    flat = np.sort(residuals.ravel())
    probs = (np.arange(1, flat.size + 1) - 0.5) / flat.size
    return FactorialResult(
        factors=factors,
        replications=r,
        multiplicative=multiplicative,
        sign_table=table,
        effects=tuple(effects),
        sst=sst,
        sse=sse,
        error_percent=100.0 * sse / sst if sst > 0 else 0.0,
        error_variance=s_e2,
        effect_std=s_q,
        confidence=confidence if half is not None else None,
        t_critical=t_used,
        t_given=t_critical is not None,
        cell_means=means,
        predicted=predicted,
        residuals=residuals,
        qq_residuals=flat,
        qq_normal_quantiles=np.asarray(sps.norm.ppf(probs), dtype=np.float64),
        lenth=lenth,
        main_effects=_main_effects(factors, table, means),
        interactions=_interactions(factors, table, means),
    )


def _lenth(names: list[str], q: FloatArray) -> LenthAnalysis:
    """Lenth (1989): PSE = 1.5 median{|q| : |q| < 2.5 s0}, s0 = 1.5 median |q|."""
    m = len(q)
    a = np.abs(q)
    s0 = 1.5 * float(np.median(a))
    trimmed = a[a < 2.5 * s0]
    pse = 1.5 * float(np.median(trimmed)) if trimmed.size else 0.0
    dof = m / 3.0
    gamma = (1.0 + 0.95 ** (1.0 / m)) / 2.0
    order = np.argsort(a, kind="stable")
    quant = sps.norm.ppf(0.5 + 0.5 * (np.arange(1, m + 1) - 0.5) / m)
    return LenthAnalysis(
        pse=pse,
        margin_of_error=float(sps.t.ppf(0.975, dof)) * pse,
        simultaneous_margin=float(sps.t.ppf(gamma, dof)) * pse,
        half_normal_names=tuple(names[i] for i in order),
        half_normal_abs_effects=a[order],
        half_normal_quantiles=np.asarray(quant, dtype=np.float64),
    )


def _main_effects(
    factors: tuple[str, ...], table: npt.NDArray[np.int64], means: FloatArray
) -> dict[str, tuple[float, float]]:
    out = {}
    for j, f in enumerate(factors):
        col = table[:, 1 << j]
        out[f] = (float(means[col < 0].mean()), float(means[col > 0].mean()))
    return out


def _interactions(
    factors: tuple[str, ...], table: npt.NDArray[np.int64], means: FloatArray
) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for a, b in itertools.combinations(range(len(factors)), 2):
        ca, cb = table[:, 1 << a], table[:, 1 << b]
        cells = [float(means[(ca == sa) & (cb == sb)].mean()) for sb in (-1, 1) for sa in (-1, 1)]
        out[f"{factors[a]}:{factors[b]}"] = (cells[0], cells[1], cells[2], cells[3])
    return out
