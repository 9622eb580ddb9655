"""Which test modules put load on the machine, and the order `make test`'s load lane runs them
in. A plugin of the root conftest.py.

A module puts load on the machine when any of its tests uses a load fixture (the local
testbed's sshd, the fake Azure's VMs), unless it says `pytestmark =
pytest.mark.hosts_without_load` (it reaches the hosts but runs no load: provisioning, SSH, host
keys). Its tests are marked `load`: `make test` runs them one at a time, `make check` leaves
them out (each would measure the other: throughput ratios, heartbeats and timeouts are what
they assert).

Of those, a module whose claims are what happens to runs (states, recovery, locks, messages,
orchestration), not what the load measures (throughput, latency, agreement, heartbeats under
load), says `pytestmark = pytest.mark.load_not_measured`. The load lane runs these last, and
when the first of them starts it creates the file named by $MCSCOPE_MEASURED_LOAD_OVER:
`make test`'s browser tests may start beside them. Even at idle priority a browser suite
beside a measurement moves it: the local SLO search's p99 went from 0.3 ms to 7-30 ms and its
probes from 3 to 16 (2026-11-30), where two idle-class busy loops left it at 0.2-0.6 ms.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Fixtures of tests that put real load on this machine's cores: a run on the local testbed
# (its sshd) or on Azure VMs that are namespace hosts of this machine.
LOAD_FIXTURES = frozenset({"local_sshd", "fake_arm"})

MARKERS = (
    "load: puts real load on this machine (local testbed, namespace or fake-Azure VMs); set by "
    "backend/tests/utils/load_lane.py",
    "hosts_without_load: a module that reaches the test hosts (local sshd, fake-Azure VMs) but "
    "runs no load on them (orchestration, SSH, host keys): it runs with the load-free tests, "
    "not one at a time",
    "load_not_measured: a load module whose claims are what happens to runs (states, recovery, "
    "locks, messages, orchestration), not what the load measures: the load lane runs it last, "
    "and the browser tests may run beside it",
)


def pytest_configure(config: pytest.Config) -> None:
    for marker in MARKERS:
        config.addinivalue_line("markers", marker)


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


def _not_measured(item: pytest.Item) -> bool:
    return item.get_closest_marker("load_not_measured") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks the modules that put load on the machine `load`, puts those whose load is not
    measured after the others (a stable sort: every other order is kept), and groups the tests
    for pytest-xdist's `--dist loadgroup`: a module stays on one worker, so its module fixtures
    (a Celery worker, a server) start once."""
    loads: dict[str, bool] = {}
    for item in items:
        # A pytest.Function's fixtures (a plain Item has none).
        uses_load = bool(LOAD_FIXTURES & set(getattr(item, "fixturenames", ())))
        load = uses_load and item.get_closest_marker("hosts_without_load") is None
        loads[_module(item)] = loads.get(_module(item), False) or load
    for item in items:
        load = loads[_module(item)]
        item.add_marker(pytest.mark.xdist_group("load" if load else _module(item)))
        if load:
            item.add_marker(pytest.mark.load)
    items.sort(key=lambda item: loads[_module(item)] and _not_measured(item))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The first load test whose load is not measured is starting: the measurements are over."""
    path = os.environ.get("MCSCOPE_MEASURED_LOAD_OVER")
    if path and _not_measured(item) and item.get_closest_marker("load") is not None:
        Path(path).touch()
