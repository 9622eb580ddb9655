"""Normalising constants in log space: the stable core of the load-dependent MVA.

The textbook recursion (Jain Box 36.1) gets p(0|n) as 1 - sum_j p(j|n); with many-server
stations that difference cancels catastrophically (negative probabilities near n = 60 for
m = 16). Here every marginal probability is a ratio of normalising constants,
p_k(j|n) = f_k(j) G_{-k}(n-j) / G(n), evaluated as exp of a difference of logs: no
subtraction of nearly equal numbers, so the result stays accurate for n in the thousands.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln, logsumexp

from backend.analysis.mva.result import FloatArray

_ROW_CHUNK = 256  # rows of the (n, j) matrix handled at once, bounds memory at large N


def log_factor_multi(demand_s: float, servers: int, n_max: int) -> FloatArray:
    """log f(j) = log(D^j / prod_{i<=j} min(i, m)) for j = 0..n_max."""
    j = np.arange(n_max + 1, dtype=np.float64)
    if demand_s == 0.0:
        out = np.full(n_max + 1, -np.inf)
        out[0] = 0.0
        return out
    # log prod_{i<=j} min(i, m) = log j! for j <= m, log m! + (j - m) log m beyond.
    capped = np.minimum(j, servers)
    log_alpha = gammaln(capped + 1.0) + (j - capped) * np.log(float(servers))
    return np.asarray(j * np.log(demand_s) - log_alpha, dtype=np.float64)


def log_convolve(a: FloatArray, b: FloatArray) -> FloatArray:
    """c(n) = log sum_{j<=n} exp(a(j) + b(n-j)) for n = 0..len(a)-1."""
    size = len(a)
    out = np.empty(size)
    j = np.arange(size)
    for start in range(0, size, _ROW_CHUNK):
        n = np.arange(start, min(start + _ROW_CHUNK, size))
        lag = n[:, None] - j[None, :]
        valid = lag >= 0
        terms = np.where(valid, a[None, :] + b[np.where(valid, lag, 0)], -np.inf)
        out[start : start + len(n)] = logsumexp(terms, axis=1)
    return out


def marginal_stats(
    log_f: FloatArray, log_g_without: FloatArray, log_g: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Mean jobs and P(not empty) at one station for n = 1..N from its marginals."""
    size = len(log_g)
    mean = np.empty(size - 1)
    busy = np.empty(size - 1)
    j = np.arange(size)
    for start in range(1, size, _ROW_CHUNK):
        n = np.arange(start, min(start + _ROW_CHUNK, size))
        lag = n[:, None] - j[None, :]
        valid = lag >= 0
        log_p = np.where(
            valid,
            log_f[None, :] + log_g_without[np.where(valid, lag, 0)] - log_g[n][:, None],
            -np.inf,
        )
        p = np.exp(log_p)
        mean[start - 1 : start - 1 + len(n)] = p @ j
        busy[start - 1 : start - 1 + len(n)] = p[:, 1:].sum(axis=1)
    return mean, busy
