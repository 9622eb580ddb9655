"""Operational laws: interactive response time law, utilization law, Little's law checks."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from backend.analysis.errors import (
    require,
    require_finite,
    require_non_negative,
    require_positive,
)


@dataclass(frozen=True)
class InteractiveCheck:
    """Expected X = N / (R + Z) against the measured X (Jain 33.5)."""

    clients: float
    response_time_s: float
    think_time_s: float
    expected_throughput_per_s: float
    measured_throughput_per_s: float
    deviation_percent: float  # 100 (measured - expected) / expected


def interactive_throughput(clients: float, response_time_s: float, think_time_s: float) -> float:
    """X = N / (R + Z)."""
    require_positive(clients, "clients")
    require_non_negative(response_time_s, "response_time_s")
    require_non_negative(think_time_s, "think_time_s")
    require(response_time_s + think_time_s > 0, "response_time_s", "R + Z must be positive")
    x = clients / (response_time_s + think_time_s)
    require_finite([x], "response_time_s", "R + Z is too small for N / (R + Z)")
    require(x > 0, "clients", "N / (R + Z) is 0 in double precision: N is too small")
    return x


def interactive_response_time(clients: float, throughput: float, think_time_s: float) -> float:
    """R = N / X - Z."""
    require_positive(clients, "clients")
    require_positive(throughput, "throughput")
    require_non_negative(think_time_s, "think_time_s")
    return clients / throughput - think_time_s


def estimate_think_time(
    clients: npt.ArrayLike, throughput: npt.ArrayLike, response_time_s: npt.ArrayLike
) -> float:
    """Least-squares Z from measurements: mean of N/X - R, clipped at 0 (Z cannot be < 0)."""
    n = np.asarray(clients, dtype=np.float64)
    x = np.asarray(throughput, dtype=np.float64)
    r = np.asarray(response_time_s, dtype=np.float64)
    require(n.size > 0 and n.shape == x.shape == r.shape, "clients", "equal, non-empty arrays")
    require(bool(np.all(x > 0)), "throughput", "must be positive")
    return max(0.0, float(np.mean(n / x - r)))


def interactive_check(
    clients: float, response_time_s: float, think_time_s: float, measured_throughput: float
) -> InteractiveCheck:
    """Compare the law's throughput with a measured throughput."""
    expected = interactive_throughput(clients, response_time_s, think_time_s)
    require_positive(measured_throughput, "measured_throughput")
    return InteractiveCheck(
        clients,
        response_time_s,
        think_time_s,
        expected,
        measured_throughput,
        100.0 * (measured_throughput - expected) / expected,
    )


def utilization(throughput: float, service_time_s: float, servers: int = 1) -> float:
    """Utilization law U = X S / m (per server)."""
    require_non_negative(throughput, "throughput")
    require_non_negative(service_time_s, "service_time_s")
    require(servers >= 1, "servers", "must be at least 1")
    return throughput * service_time_s / servers


def service_time_from_utilization(
    utilization_: float, throughput: float, servers: int = 1
) -> float:
    """S = U m / X: service time estimated from a measured utilization."""
    require_non_negative(utilization_, "utilization")
    require_positive(throughput, "throughput")
    require(servers >= 1, "servers", "must be at least 1")
    return utilization_ * servers / throughput


@dataclass(frozen=True)
class LittleCheck:
    """L = lambda W: measured mean queue length against throughput x mean time in queue."""

    measured_length: float
    throughput_per_s: float
    time_s: float
    predicted_length: float
    deviation_percent: float | None  # None when the prediction is 0


def little_check(measured_length: float, throughput: float, time_s: float) -> LittleCheck:
    """Check Little's law, e.g. middleware queue length vs X x queue time."""
    require_non_negative(measured_length, "measured_length")
    require_non_negative(throughput, "throughput")
    require_non_negative(time_s, "time_s")
    predicted = throughput * time_s
    require_finite([predicted], "time_s", "X x time is beyond double range")
    dev = 100.0 * (measured_length - predicted) / predicted if predicted > 0 else None
    require_finite([dev], "time_s", "X x time is too small to compare the length with")
    return LittleCheck(measured_length, throughput, time_s, predicted, dev)
