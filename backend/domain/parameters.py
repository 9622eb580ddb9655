"""The one declared schema of experiment parameters: names, types, units and allowed ranges.

Every factor or fixed value an experiment names is checked here, and the worker builds
command lines only from values that passed this check (never from free text).
"""

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from backend.domain.load_generators import (
    AUTO,
    LOAD_GENERATORS,
    load_generator_names,
    load_generator_spec,
)
from backend.domain.memcached_sizing import (
    KEY_MAXIMUM_MAX,
    MAX_VALUE_B,
    MEMCACHED_MAX_CONNECTIONS,
    MIDDLEWARE_MAX_CONNECTIONS,
    memory_mb,
)


class ParamKind(StrEnum):
    INT = "int"
    BOOL = "bool"
    RATIO = "ratio"  # memtier's SET:GET, e.g. "1:9"
    REPLICATION = "replication"  # an int R, or "one" / "half" / "all" resolved against servers
    CHOICE = "choice"


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: ParamKind
    default: Any
    description: str
    unit: str | None = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    # How figures and tables name it: an axis title ("worker threads") and a legend entry
    # with {v} the value and {s} a plural "s" ("{v} worker thread{s}": "8 worker threads").
    label: str = ""
    legend: str = "{v}"


_RATIO_RE = re.compile(r"^(\d{1,3}):(\d{1,3})$")
REPLICATION_WORDS = ("one", "half", "all")

PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter(
            "servers",
            ParamKind.INT,
            1,
            "memcached servers",
            "servers",
            1,
            16,
            label="memcached servers",
            legend="{v} server{s}",
        ),
        Parameter(
            "client_machines",
            ParamKind.INT,
            1,
            "client machines",
            "machines",
            1,
            16,
            label="client machines",
            legend="{v} client machine{s}",
        ),
        Parameter(
            "instances_per_machine",
            ParamKind.INT,
            1,
            "load generator instances per client machine, per middleware when there are "
            "middlewares (an instance talks to one target)",
            "instances",
            1,
            8,
            label="instances per client machine",
            legend="{v} instance{s} per machine",
        ),
        Parameter(
            "threads_per_instance",
            ParamKind.INT,
            1,
            "threads per load generator instance",
            "threads",
            1,
            64,
            label="threads per instance",
            legend="{v} thread{s} per instance",
        ),
        Parameter(
            "clients_per_thread",
            ParamKind.INT,
            1,
            "virtual clients (connections) per thread",
            "clients",
            1,
            1024,
            label="clients per thread",
            legend="{v} client{s} per thread",
        ),
        Parameter(
            "middlewares",
            ParamKind.INT,
            1,
            "middleware instances (0: clients talk to the servers directly)",
            "middlewares",
            0,
            4,
            label="middlewares",
            legend="{v} middleware{s}",
        ),
        Parameter(
            "workers",
            ParamKind.INT,
            8,
            "middleware worker threads",
            "threads",
            1,
            256,
            label="worker threads",
            legend="{v} worker thread{s}",
        ),
        Parameter(
            "ratio",
            ParamKind.RATIO,
            "1:9",
            "SET:GET request ratio",
            None,
            label="SET:GET ratio",
            legend="SET:GET {v}",
        ),
        Parameter(
            "multiget_size",
            ParamKind.INT,
            1,
            "keys per get request (1: plain get)",
            "keys",
            1,
            64,
            label="keys per get",
            legend="{v} key{s} per get",
        ),
        Parameter(
            "sharded",
            ParamKind.BOOL,
            False,
            "split multi-gets across servers",
            None,
            label="sharded multi-gets",
            legend="sharded: {v}",
        ),
        Parameter(
            "replication",
            ParamKind.REPLICATION,
            "all",
            "servers each set is written to: a number, or one / half / all",
            "servers",
            1,
            16,
            label="replication (servers)",
            legend="replication: {v}",
        ),
        Parameter(
            "value_size",
            ParamKind.INT,
            4096,
            "value size",
            "bytes",
            1,
            MAX_VALUE_B,
            label="value size (bytes)",
            legend="{v} B values",
        ),
        Parameter(
            "key_maximum",
            ParamKind.INT,
            10_000,
            "largest key index",
            "keys",
            1,
            KEY_MAXIMUM_MAX,
            label="key range (keys)",
            legend="{v} keys",
        ),
        Parameter(
            "queue_capacity",
            ParamKind.INT,
            1024,
            "middleware work queue capacity",
            "requests",
            1,
            1_000_000,
            label="queue capacity (requests)",
            legend="queue capacity {v}",
        ),
        Parameter(
            "rate_limit",
            ParamKind.INT,
            0,
            "offered load per connection, open loop (memtier's --rate-limiting; 0: closed "
            "loop, each client sends as soon as its reply arrives)",
            "requests/s",
            0,
            1_000_000,
            label="offered load per connection (requests/s)",
            legend="{v} req/s per connection",
        ),
        Parameter(
            "load_generator",
            ParamKind.CHOICE,
            "auto",
            "load generator (auto: the first of "
            + ", ".join(g.program for g in LOAD_GENERATORS)
            + " installed on every client host)",
            None,
            choices=(AUTO, *load_generator_names()),
            label="load generator",
            legend="{v}",
        ),
    )
}

# No single client machine should be asked to open more connections than this.
MAX_TOTAL_CLIENTS = 100_000


class ParameterError(ValueError):
    """A parameter value that the schema does not allow; `name` says which."""

    def __init__(self, name: str, reason: str) -> None:
        super().__init__(f"{name}: {reason}")
        self.name = name
        self.reason = reason


def coerce(name: str, value: Any) -> Any:
    """Check one value against the schema and return it in canonical form."""
    param = PARAMETERS.get(name)
    if param is None:
        raise ParameterError(name, f"unknown parameter (known: {', '.join(PARAMETERS)})")
    if param.kind is ParamKind.BOOL:
        if not isinstance(value, bool):
            raise ParameterError(name, f"expected true or false, got {value!r}")
        return value
    if param.kind is ParamKind.RATIO:
        return _coerce_ratio(name, value)
    if param.kind is ParamKind.CHOICE:
        if value not in param.choices:
            raise ParameterError(name, f"expected one of {', '.join(param.choices)}, got {value!r}")
        return value
    if param.kind is ParamKind.REPLICATION and isinstance(value, str):
        if value not in REPLICATION_WORDS:
            raise ParameterError(name, f"expected a number or one of one/half/all, got {value!r}")
        return value
    return _coerce_int(param, value)


def _coerce_int(param: Parameter, value: Any) -> int:
    # bool is an int in Python; `true` servers is a typo, not 1.
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(param.name, f"expected an integer, got {value!r}")
    assert param.minimum is not None and param.maximum is not None
    if not param.minimum <= value <= param.maximum:
        raise ParameterError(
            param.name,
            f"{value} is outside the allowed range {param.minimum}..{param.maximum}"
            + (f" {param.unit}" if param.unit else ""),
        )
    return value


def _coerce_ratio(name: str, value: Any) -> str:
    if not isinstance(value, str) or not (m := _RATIO_RE.match(value)):
        raise ParameterError(name, f"expected SET:GET such as '1:9', got {value!r}")
    sets, gets = int(m.group(1)), int(m.group(2))
    if sets + gets == 0:
        raise ParameterError(name, "at least one of SET and GET must be positive")
    return f"{sets}:{gets}"


def ratio_counts(ratio: str) -> tuple[int, int]:
    """SET and GET counts of a "SET:GET" ratio (ParameterError on "ratio" if it is none)."""
    sets, gets = _coerce_ratio("ratio", ratio).split(":")
    return int(sets), int(gets)


def defaults() -> dict[str, Any]:
    return {name: p.default for name, p in PARAMETERS.items()}


def resolve_replication(value: int | str, servers: int) -> int:
    """Turn one/half/all into a replica count for this number of servers."""
    if value == "one":
        return 1
    if value == "half":
        return (servers + 1) // 2
    if value == "all":
        return servers
    assert isinstance(value, int)
    return value


# The parameters that set how many clients a configuration has at a given number of
# middlewares (a closed system's load N): the models group configurations by everything else.
CLIENT_COUNT_PARAMETERS = (
    "client_machines",
    "instances_per_machine",
    "threads_per_instance",
    "clients_per_thread",
)


def load_generator_instances(values: dict[str, Any]) -> int:
    """Load-generator instances a configuration starts, the one rule of the planner
    (worker/runs/plan.py) and of every count of clients: an instance talks to one target, so
    with M >= 1 middlewares each client machine runs instances_per_machine instances per
    middleware (two middlewares mean two instances); with none, instances_per_machine."""
    per_target = max(1, int(values["middlewares"]))
    return int(values["client_machines"]) * int(values["instances_per_machine"]) * per_target


def virtual_clients(values: dict[str, Any]) -> int:
    """Closed-loop clients N of a configuration: instances x threads x clients per thread."""
    per_instance = int(values["threads_per_instance"]) * int(values["clients_per_thread"])
    return load_generator_instances(values) * per_instance


def check_configuration(values: dict[str, Any], *, memory_limit_mb: int) -> None:
    """Cross-parameter rules for one complete grid point (defaults already filled in);
    `memory_limit_mb` is the most memcached memory one server may be given (a setting)."""
    servers = values["servers"]
    replication = values["replication"]
    if isinstance(replication, int) and replication > servers:
        raise ParameterError("replication", f"{replication} replicas but only {servers} server(s)")
    if values["sharded"] and values["middlewares"] == 0:
        raise ParameterError("sharded", "sharding is done by the middleware; middlewares is 0")
    tool = values["load_generator"]
    if values["rate_limit"] > 0 and tool != AUTO and not load_generator_spec(tool).rate_limits:
        raise ParameterError(
            "rate_limit", f"{tool} cannot limit the request rate; choose a tool that can"
        )
    total = virtual_clients(values)
    if total > MAX_TOTAL_CLIENTS:
        raise ParameterError(
            "clients_per_thread",
            f"{total} virtual clients in total exceeds the limit of {MAX_TOTAL_CLIENTS}",
        )
    check_resources(values, total, memory_limit_mb)


def check_resources(values: dict[str, Any], total_clients: int, memory_limit_mb: int) -> None:
    """What the machines must hold: memcached memory, and connections to memcached or to each
    middleware (the messages name every field that multiplies up)."""
    need = memory_mb(values["key_maximum"], values["value_size"])
    limit = memory_limit_mb
    if need > limit:
        raise ParameterError(
            "key_maximum",
            f"key_maximum {values['key_maximum']} x value_size {values['value_size']} B needs "
            f"{need} MiB of memcached memory per server, more than the {limit} MiB limit "
            "(MCSCOPE_MEMCACHED_MAX_MEMORY_MB, default half this machine's memory)",
        )
    clients = (
        "client_machines x instances_per_machine (per middleware) x threads_per_instance x "
        f"clients_per_thread = {total_clients} connections"
    )
    middlewares = values["middlewares"]
    if middlewares == 0 and total_clients > MEMCACHED_MAX_CONNECTIONS:
        raise ParameterError(
            "clients_per_thread",
            f"{clients} straight to memcached (middlewares = 0), more than its "
            f"{MEMCACHED_MAX_CONNECTIONS}-connection limit (memcached -c)",
        )
    if middlewares > 0 and -(-total_clients // middlewares) > MIDDLEWARE_MAX_CONNECTIONS:
        raise ParameterError(
            "clients_per_thread",
            f"{clients} over middlewares = {middlewares}, more than "
            f"{MIDDLEWARE_MAX_CONNECTIONS} per middleware (its connection cap)",
        )
