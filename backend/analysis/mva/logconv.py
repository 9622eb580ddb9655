"""Normalising constants in log space: the stable core of the load-dependent MVA.

The textbook recursion (Jain Box 36.1) gets p(0|n) as 1 - sum_j p(j|n); with many-server
stations that difference cancels catastrophically (negative probabilities near n = 60 for
m = 16). Here every marginal probability is a ratio of normalising constants,
p_k(j|n) = f_k(j) G_{-k}(n-j) / G(n), evaluated as exp of a difference of logs: no
subtraction of nearly equal numbers, so the result stays accurate for n in the thousands.
"""

from __future__ import annotations

import math

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


def _lae(x: float, y: float) -> float:
    """log(e^x + e^y) for scalars, -inf safe."""
    hi, lo = (x, y) if x >= y else (y, x)
    if lo == -math.inf:
        return hi
    return hi + math.log1p(math.exp(lo - hi))


def _tails(a: FloatArray, step: float, servers: int) -> tuple[FloatArray, FloatArray]:
    """Beyond j = m the factor is geometric, f(j) = f(m) + (j - m) step, so the tail sums

    T(n) = sum_{i>=0} e^{i step} e^{a(n-m-i)} and V(n) = sum_{i>=0} i e^{i step} e^{a(n-m-i)}
    obey T(n) = e^{a(n-m)} + e^step T(n-1) and V(n) = e^step (V(n-1) + T(n-1)): sums of
    positive terms only, kept in log space, O(N) instead of O(N^2).
    """
    size = len(a)
    log_t = np.full(size, -np.inf)
    log_v = np.full(size, -np.inf)
    t_prev = v_prev = -math.inf
    for n in range(servers, size):
        v_prev = step + _lae(v_prev, t_prev)
        t_prev = _lae(float(a[n - servers]), step + t_prev)
        log_t[n], log_v[n] = t_prev, v_prev
    return log_t, log_v


def _head_terms(log_f: FloatArray, a: FloatArray, servers: int) -> FloatArray:
    """Matrix of f(j) + a(n-j) for n = 0..N, j = 0..min(m, N+1)-1 (-inf where j > n)."""
    size = len(a)
    width = min(servers, size)
    n = np.arange(size)[:, None]
    j = np.arange(width)[None, :]
    lag = n - j
    valid = lag >= 0
    return np.where(valid, log_f[None, :width] + a[np.where(valid, lag, 0)], -np.inf)


def convolve_multi(a: FloatArray, log_f: FloatArray, servers: int) -> FloatArray:
    """log (a * f)(n) for an m-server factor f, in O(N m) via the geometric tail."""
    head = logsumexp(_head_terms(log_f, a, servers), axis=1)
    if servers >= len(a):
        return np.asarray(head, dtype=np.float64)
    step = float(log_f[servers] - log_f[servers - 1]) if log_f[servers] > -np.inf else -np.inf
    log_t, _ = _tails(a, step, servers)
    return np.asarray(np.logaddexp(head, log_f[servers] + log_t), dtype=np.float64)


def marginal_stats_multi(
    log_f: FloatArray, log_g_without: FloatArray, log_g: FloatArray, servers: int
) -> tuple[FloatArray, FloatArray]:
    """Mean jobs and P(not empty) at an m-server station for n = 1..N, in O(N m).

    p(j|n) = f(j) G_without(n-j) / G(n); P(not empty) sums j >= 1 directly rather than
    computing 1 - p(0|n), so tiny probabilities keep their relative accuracy.
    """
    head = _head_terms(log_f, log_g_without, servers)
    p_head = np.exp(head - log_g[:, None])
    j = np.arange(head.shape[1], dtype=np.float64)
    mean = np.asarray(p_head @ j, dtype=np.float64)
    busy = p_head[:, 1:].sum(axis=1)
    if servers < len(log_g):
        fm = log_f[servers]
        step = float(fm - log_f[servers - 1]) if fm > -np.inf else -np.inf
        log_t, log_v = _tails(log_g_without, step, servers)
        tail_t = np.exp(fm + log_t - log_g)
        busy = busy + tail_t
        mean = mean + servers * tail_t + np.exp(fm + log_v - log_g)
    return mean[1:], busy[1:]


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
