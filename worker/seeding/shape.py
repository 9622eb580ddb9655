"""The closed-system shape seeded runs follow (pure): what each configuration x repetition
measures, and how its load ramps up and down around the stable window.

Throughput grows with the virtual clients N (each one sends a request every R0 = 15 ms at
light load) until a worker-dependent capacity, 3,000 + 40 x workers ops/s; the response time
follows the interactive law R = N / X (think time 0). Repetitions differ by 1 % steps around
the configuration's value (symmetric, so their mean is the configuration's value exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from backend.analysis.experiment import total_clients
from backend.domain.window import DesignWindow

LIGHT_LOAD_RESPONSE_US = 15_000.0
"""R at light load: one virtual client's throughput is 1 / R0."""
CAPACITY_BASE = 3_000.0
CAPACITY_PER_WORKER = 40.0
REPETITION_STEP = 0.01

# The middleware's share of the response time the clients see (the rest is the network and
# the clients' own stacks), and how its total splits: queue, server, processing.
MIDDLEWARE_TOTAL = 0.8
MIDDLEWARE_QUEUE = 0.4
MIDDLEWARE_SERVER = 0.3


@dataclass(frozen=True)
class RunShape:
    """What one run measures over its stable window, all client instances together."""

    clients: int
    throughput: float
    response_time_us: float


def capacity(workers: int) -> float:
    """Throughput at saturation (ops/s) of a configuration with `workers` worker threads."""
    return CAPACITY_BASE + CAPACITY_PER_WORKER * workers


def repetition_factor(repetition: int, repetitions: int) -> float:
    """1 +- 1 % steps, centred: 0.99, 1, 1.01 for three repetitions."""
    return 1.0 + REPETITION_STEP * (repetition - (repetitions + 1) / 2)


def run_shape(
    params: dict[str, Any], repetition: int, repetitions: int, scale: float = 1.0
) -> RunShape:
    """The run's stable-window throughput and response time; `scale` multiplies throughput
    (and divides the response time: N is the same)."""
    n = total_clients(params)
    light = n / (LIGHT_LOAD_RESPONSE_US / 1e6)
    x = min(light, capacity(int(params["workers"])))
    x *= repetition_factor(repetition, repetitions) * scale
    return RunShape(n, x, n / x * 1e6)


def load_fraction(second: int, run_time_s: int, window: DesignWindow) -> float:
    """Share of the stable throughput completed in `second` of a run of run_time_s whose
    stable window is `window` (backend.domain.window): a ramp up over the seconds before the
    window, a ramp down over those after it, 1 inside."""
    ramp_up, ramp_down = window.start_s, run_time_s - window.end_s
    up = (second + 1) / ramp_up if ramp_up else 1.0
    down = (run_time_s - second) / ramp_down if ramp_down else 1.0
    return max(0.0, min(1.0, up, down))


def cumulative_round(values: list[float]) -> list[int]:
    """Integers whose running sums are the rounded running sums of `values`: each within 1
    of its value, and any stretch's sum within 1 of the exact sum."""
    out, acc, done = [], 0.0, 0
    for v in values:
        acc += v
        out.append(round(acc) - done)
        done += out[-1]
    return out


def apportion(total: int, weights: list[float]) -> list[int]:
    """Integers proportional to `weights` summing to `total` exactly."""
    whole = sum(weights)
    return cumulative_round([total * w / whole for w in weights])
