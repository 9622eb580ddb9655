"""The experiment catalogue of DOMAIN.md section 2, as seed designs a user starts from."""

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from backend.domain.design_fields import COOLDOWN, REPETITIONS, RUN_TIME, WARMUP


class Template(StrEnum):
    CUSTOM = "custom"
    BASELINE_NO_MIDDLEWARE = "baseline_no_middleware"
    BASELINE_MIDDLEWARE = "baseline_middleware"
    WRITE_THROUGHPUT = "write_throughput"
    GETS_MULTIGETS = "gets_multigets"
    MAX_THROUGHPUT = "max_throughput"
    REPLICATION = "replication"
    WRITES_EFFECT = "writes_effect"
    STABILITY = "stability"
    FACTORIAL = "factorial"


@dataclass(frozen=True)
class TemplateSeed:
    title: str
    description: str
    factors: dict[str, list[Any]]
    fixed: dict[str, Any]
    repetitions: int = REPETITIONS.default
    run_time_s: int = RUN_TIME.default
    warmup_s: int = WARMUP.default
    cooldown_s: int = COOLDOWN.default
    measured: tuple[str, ...] = field(default=("throughput", "response time"))


_CLIENT_COUNTS = [1, 2, 4, 8, 16, 32, 48, 64]

SEEDS: dict[Template, TemplateSeed] = {
    Template.CUSTOM: TemplateSeed("Custom", "Start from an empty grid.", {}, {}),
    Template.BASELINE_NO_MIDDLEWARE: TemplateSeed(
        "Baseline without middleware",
        "Clients straight to memcached; read-only and write-only, 4096 B values.",
        {"clients_per_thread": _CLIENT_COUNTS, "ratio": ["0:1", "1:0"]},
        {
            "middlewares": 0,
            "servers": 1,
            "client_machines": 3,
            "threads_per_instance": 2,
            "value_size": 4096,
        },
        measured=("throughput", "response time", "interactive law"),
    ),
    Template.BASELINE_MIDDLEWARE: TemplateSeed(
        "Baseline with middleware",
        "One server, three client machines, one or two middlewares.",
        {
            "middlewares": [1, 2],
            "workers": [8, 16, 32, 64],
            "clients_per_thread": [1, 4, 8, 16, 32, 48],
            "ratio": ["0:1", "1:0"],
        },
        {"servers": 1, "client_machines": 3, "value_size": 4096},
        measured=("throughput", "response time", "queue length", "queue time", "server time"),
    ),
    Template.WRITE_THROUGHPUT: TemplateSeed(
        "Throughput for writes",
        "Write-only through two middlewares to three servers.",
        {"workers": [8, 16, 32, 64], "clients_per_thread": [1, 4, 8, 16, 32, 48]},
        {"servers": 3, "middlewares": 2, "ratio": "1:0", "client_machines": 3},
        measured=("throughput", "response time", "breakdown"),
    ),
    Template.GETS_MULTIGETS: TemplateSeed(
        "Gets and multi-gets",
        "Multi-get sizes 1..9, sharded and not; ratio 1:K.",
        {"multiget_size": [1, 3, 6, 9], "sharded": [False, True]},
        {"workers": 64, "clients_per_thread": 2, "servers": 3, "middlewares": 2},
        measured=("percentiles", "histograms", "throughput in keys/s"),
    ),
    Template.MAX_THROUGHPUT: TemplateSeed(
        "Maximum throughput",
        "Five servers, read-only, small values.",
        {"clients_per_thread": [10, 20, 30, 40, 50, 60, 70], "workers": [8, 16, 24, 32, 40]},
        {"servers": 5, "ratio": "0:1", "value_size": 128},
        measured=("throughput", "percentiles", "time breakdown"),
    ),
    Template.REPLICATION: TemplateSeed(
        "Effect of replication",
        "Servers 3, 5, 7 with one, half or all replicas; 5% writes.",
        {"servers": [3, 5, 7], "replication": ["one", "half", "all"]},
        {"ratio": "1:19"},
        measured=("throughput", "relative differences", "queue/server time percentiles"),
    ),
    Template.WRITES_EFFECT: TemplateSeed(
        "Effect of writes",
        "Servers 3, 5, 7; 1, 5, 10% writes; one or all replicas.",
        {"servers": [3, 5, 7], "ratio": ["1:99", "1:19", "1:9"], "replication": ["one", "all"]},
        {},
        measured=("relative differences vs base case",),
    ),
    Template.STABILITY: TemplateSeed(
        "Stability trace",
        "One hour, three servers, all replicas.",
        {},
        {"servers": 3, "replication": "all"},
        repetitions=1,
        run_time_s=3600,
        warmup_s=60,
        cooldown_s=60,
        measured=("throughput over time", "response time over time"),
    ),
    Template.FACTORIAL: TemplateSeed(
        "2^k r factorial",
        "Servers 1/3, middlewares 1/2, workers 8/32; k = 3, r = 3.",
        {"servers": [1, 3], "middlewares": [1, 2], "workers": [8, 32]},
        {},
        measured=("effects", "allocation of variation", "confidence intervals"),
    ),
}
