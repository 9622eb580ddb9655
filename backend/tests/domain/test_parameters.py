"""The declared parameter schema: coercion, ranges and cross-parameter rules."""

import pytest

from backend.domain.parameters import (
    ParameterError,
    check_configuration,
    coerce,
    defaults,
    resolve_replication,
)

MEMORY_MB = 16_384  # memcached memory a server may be given (a setting in the app)


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("servers", 3, 3),
        ("ratio", "01:9", "1:9"),
        ("sharded", True, True),
        ("replication", "half", "half"),
        ("replication", 2, 2),
        ("load_generator", "memaslap", "memaslap"),
    ],
)
def test_coerce_accepts_valid(name: str, value: object, expected: object) -> None:
    assert coerce(name, value) == expected


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("servers", 0, "outside the allowed range 1..16"),
        ("clients_per_thread", 10**9, "outside the allowed range"),
        ("servers", True, "expected an integer"),
        ("servers", "3", "expected an integer"),
        ("workers", 8.5, "expected an integer"),
        ("ratio", "1/9", "SET:GET"),
        ("ratio", "0:0", "at least one"),
        ("sharded", 1, "true or false"),
        ("replication", "most", "one/half/all"),
        ("load_generator", "wrk", "one of"),
        ("nonsense", 1, "unknown parameter"),
    ],
)
def test_coerce_rejects_invalid(name: str, value: object, fragment: str) -> None:
    with pytest.raises(ParameterError) as e:
        coerce(name, value)
    assert e.value.name == name
    assert fragment in e.value.reason


def test_resolve_replication_words() -> None:
    assert [resolve_replication(w, 5) for w in ("one", "half", "all")] == [1, 3, 5]
    assert [resolve_replication(w, 7) for w in ("one", "half", "all")] == [1, 4, 7]
    assert resolve_replication(2, 7) == 2


def test_configuration_rules() -> None:
    values = defaults()
    check_configuration(values, memory_limit_mb=MEMORY_MB)
    with pytest.raises(ParameterError, match="only 1 server"):
        check_configuration({**values, "replication": 3, "servers": 1}, memory_limit_mb=MEMORY_MB)
    with pytest.raises(ParameterError, match="middlewares is 0"):
        check_configuration(
            {**values, "sharded": True, "middlewares": 0}, memory_limit_mb=MEMORY_MB
        )
    with pytest.raises(ParameterError, match="virtual clients in total"):
        check_configuration(
            {
                **values,
                "client_machines": 16,
                "instances_per_machine": 8,
                "threads_per_instance": 64,
                "clients_per_thread": 1024,
            },
            memory_limit_mb=MEMORY_MB,
        )
