"""The test-time budget: every pytest run of `make test` appends each test phase's wall and CPU
seconds to a JSON-lines file (this module's hooks, a plugin of the root conftest.py, when
MCSCOPE_TEST_DURATIONS names the file); this module sums the phases per test, prints the
slowest, and fails when a test that puts no load on the machine took more CPU seconds than the
budget. The budget is read from pytest's own reports, never a threshold inside a test.

    python -m backend.tests.utils.durations budget FILE...    # exit 1 when a test is over
    python -m backend.tests.utils.durations slowest N FILE... # the N slowest tests
"""

from __future__ import annotations

import argparse
import json
import os
import resource
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# Seconds one load-free test (set-up, call and tear-down together) may take: the edit loop
# (`make check`) is only as quick as its slowest module, and a test over this is set-up or work
# to cut, or belongs to the load tests. Counted in CPU seconds (the test's process and the
# processes it started and waited for), not wall: `make test` runs these tests at SCHED_IDLE
# beside the load tests, where wall time measures the other lane (2026-11-28 at load 10: a CLI
# test 24.7 s wall for 3.5 s CPU, wall/CPU 4 to 18 for the slowest). Wall time is printed too.
BUDGET_SECONDS = 10.0

# Load-free tests known to be over the budget, each with why: debt to cut, named here so that
# no other test grows past the budget unseen (measured 2026-11-28).
KNOWN_OVER_BUDGET = {
    "backend/tests/api/test_start_large_grid.py::"
    "test_start_of_a_large_grid_sends_in_the_background": (
        "the largest grid (20,000 runs) sent by a real Celery worker; 18 CPU s"
    ),
    "backend/tests/api/test_report.py::"
    "test_a_grid_of_a_thousand_configurations_is_reported_in_parts": (
        "1,000 configurations seeded, their table and breakdown figure rendered and the PDF "
        "compiled (issue 41's largest report); 11.3 CPU s in CI on 2026-11-29"
    ),
}


@dataclass(frozen=True)
class TestTime:
    __test__ = False  # not a pytest test class

    nodeid: str
    seconds: float
    load: bool
    cpu_seconds: float = 0.0


def record_line(
    nodeid: str,
    when: str,
    seconds: float,
    load: bool,
    cpu: float = 0.0,
    module_teardown: bool = False,
) -> str:
    """One phase of one test as the JSON line the hook appends: wall seconds, and the CPU
    seconds of the test's process and the child processes it waited for (what a shared machine
    pays: wall time alone hides waiting and contention). `module_teardown`: the tear-down of
    the last test of its module in this process, which also closes the module's fixtures."""
    rec = {"nodeid": nodeid, "when": when, "seconds": seconds, "cpu_seconds": cpu, "load": load}
    if module_teardown:
        rec["module_teardown"] = True
    return json.dumps(rec) + "\n"


def _cpu_now() -> float:
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


_CPU = pytest.StashKey[dict[str, float]]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    start = _cpu_now()
    yield
    item.stash.setdefault(_CPU, {})["setup"] = _cpu_now() - start


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    start = _cpu_now()
    yield
    item.stash.setdefault(_CPU, {})["call"] = _cpu_now() - start


_MODULE_TEARDOWN = pytest.StashKey[bool]()


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::")[0]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    start = _cpu_now()
    yield
    item.stash.setdefault(_CPU, {})["teardown"] = _cpu_now() - start
    # The last test of its module here also closes the module's fixtures: a module's API app
    # stops its figure renderer, whose browser's CPU over every test of the module is counted
    # when it exits (measured: 6-10 CPU s landing on whichever test the random order put last).
    item.stash[_MODULE_TEARDOWN] = nextitem is None or _module(nextitem) != _module(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    # user_properties travel with the report from a pytest-xdist worker to the controller.
    report.user_properties.append(("cpu_seconds", item.stash.get(_CPU, {}).get(call.when, 0.0)))
    if call.when == "teardown" and item.stash.get(_MODULE_TEARDOWN, False):
        report.user_properties.append(("module_teardown", True))


# Only the process that reports appends, not each pytest-xdist worker: the controller receives
# every worker's reports.
_path: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _path
    if not hasattr(config, "workerinput"):
        _path = os.environ.get("MCSCOPE_TEST_DURATIONS") or None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _path is not None:
        props = dict(report.user_properties)
        cpu = props.get("cpu_seconds", 0.0)
        assert isinstance(cpu, float)
        load = "load" in report.keywords
        line = record_line(
            report.nodeid,
            str(report.when),
            report.duration,
            load,
            cpu,
            module_teardown=bool(props.get("module_teardown", False)),
        )
        with open(_path, "a") as f:
            f.write(line)


def read(paths: Iterable[Path]) -> list[TestTime]:
    """Each test's phases summed (set-up includes the module fixtures it was first to need);
    a test run twice (in two files) counts as two. The CPU of a module's closing tear-down is
    the module's (its shared fixtures'), not its last test's: left out of the test's CPU."""
    times: list[TestTime] = []
    for path in paths:
        totals: dict[str, float] = {}
        cpus: dict[str, float] = {}
        loads: dict[str, bool] = {}
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            totals[rec["nodeid"]] = totals.get(rec["nodeid"], 0.0) + float(rec["seconds"])
            own_cpu = 0.0 if rec.get("module_teardown") else float(rec.get("cpu_seconds", 0))
            cpus[rec["nodeid"]] = cpus.get(rec["nodeid"], 0.0) + own_cpu
            loads[rec["nodeid"]] = bool(rec["load"])
        times += [TestTime(n, s, loads[n], cpus[n]) for n, s in totals.items()]
    return times


def slowest(times: Sequence[TestTime], n: int) -> list[TestTime]:
    return sorted(times, key=lambda t: t.seconds, reverse=True)[:n]


def over_budget(
    times: Sequence[TestTime],
    budget: float = BUDGET_SECONDS,
    known: Mapping[str, str] = KNOWN_OVER_BUDGET,
) -> list[TestTime]:
    """The load-free tests whose CPU seconds are over the budget, slowest first, but the known."""
    over = [t for t in times if not t.load and t.cpu_seconds > budget and t.nodeid not in known]
    return sorted(over, key=lambda t: t.cpu_seconds, reverse=True)


def _line(t: TestTime) -> str:
    kind = "load " if t.load else "     "
    return f"{t.seconds:8.1f} s wall {t.cpu_seconds:7.1f} s CPU  {kind} {t.nodeid}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m backend.tests.utils.durations")
    sub = parser.add_subparsers(dest="command", required=True)
    budget = sub.add_parser("budget", help="fail when a load-free test is over the budget")
    budget.add_argument("--seconds", type=float, default=BUDGET_SECONDS)
    budget.add_argument("files", nargs="+", type=Path)
    top = sub.add_parser("slowest", help="print the slowest tests")
    top.add_argument("n", type=int)
    top.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)

    times = read(p for p in args.files if p.exists())
    if args.command == "slowest":
        print(f"== the {args.n} slowest of {len(times)} tests (set-up + call + tear-down, wall)")
        for t in slowest(times, args.n):
            print(_line(t))
        return 0
    over = over_budget(times, args.seconds)
    load_free = [t for t in times if not t.load]
    if not load_free:
        print("== test budget FAILED: no load-free test durations recorded")
        return 1
    for t in load_free:
        if t.nodeid in KNOWN_OVER_BUDGET:
            print(f"== test budget: known over it: {_line(t)} ({KNOWN_OVER_BUDGET[t.nodeid]})")
    if over:
        print(f"== test budget FAILED: {len(over)} load-free test(s) over {args.seconds:g} CPU s")
        for t in over:
            print(_line(t))
        return 1
    print(
        f"== test budget: all {len(load_free)} load-free tests within {args.seconds:g} CPU s each"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
