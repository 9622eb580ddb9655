"""The test-time budget: every pytest run of `make test` appends each test phase's wall time to
a JSON-lines file (this module's hooks, a plugin of the root conftest.py, when
MCSCOPE_TEST_DURATIONS names the file); this module
sums the phases per test, prints the slowest, and fails when a test that puts no load on the
machine took longer than the budget. The budget is read from pytest's own durations, never a
timing threshold inside a test of behaviour.

    python -m backend.tests.utils.durations budget FILE...    # exit 1 when a test is over
    python -m backend.tests.utils.durations slowest N FILE... # the N slowest tests
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

# Wall seconds one load-free test (set-up, call and tear-down together) may take: the edit loop
# (`make check`) is only as quick as its slowest module, and a test over this is set-up or work
# to cut, or belongs to the load tests.
BUDGET_SECONDS = 10.0


@dataclass(frozen=True)
class TestTime:
    __test__ = False  # not a pytest test class

    nodeid: str
    seconds: float
    load: bool


def record_line(nodeid: str, when: str, seconds: float, load: bool) -> str:
    """One phase of one test as the JSON line the conftest hook appends."""
    return json.dumps({"nodeid": nodeid, "when": when, "seconds": seconds, "load": load}) + "\n"


# Only the process that reports appends, not each pytest-xdist worker: the controller receives
# every worker's reports.
_path: str | None = None


def pytest_configure(config: pytest.Config) -> None:
    global _path
    if not hasattr(config, "workerinput"):
        _path = os.environ.get("MCSCOPE_TEST_DURATIONS") or None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _path is not None:
        line = record_line(report.nodeid, report.when, report.duration, "load" in report.keywords)
        with open(_path, "a") as f:
            f.write(line)


def read(paths: Iterable[Path]) -> list[TestTime]:
    """Each test's phases summed (set-up includes the module fixtures it was first to need);
    a test run twice (in two files) counts as two."""
    times: list[TestTime] = []
    for path in paths:
        totals: dict[str, float] = {}
        loads: dict[str, bool] = {}
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            totals[rec["nodeid"]] = totals.get(rec["nodeid"], 0.0) + float(rec["seconds"])
            loads[rec["nodeid"]] = bool(rec["load"])
        times += [TestTime(n, s, loads[n]) for n, s in totals.items()]
    return times


def slowest(times: Sequence[TestTime], n: int) -> list[TestTime]:
    return sorted(times, key=lambda t: t.seconds, reverse=True)[:n]


def over_budget(times: Sequence[TestTime], budget: float = BUDGET_SECONDS) -> list[TestTime]:
    """The load-free tests that took longer than the budget, slowest first."""
    return slowest([t for t in times if not t.load and t.seconds > budget], len(times))


def _line(t: TestTime) -> str:
    return f"{t.seconds:8.1f} s  {'load ' if t.load else '     '} {t.nodeid}"


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
        print(f"== the {args.n} slowest of {len(times)} tests (set-up + call + tear-down)")
        for t in slowest(times, args.n):
            print(_line(t))
        return 0
    over = over_budget(times, args.seconds)
    load_free = [t for t in times if not t.load]
    if not load_free:
        print("== test budget FAILED: no load-free test durations recorded")
        return 1
    if over:
        print(f"== test budget FAILED: {len(over)} load-free test(s) over {args.seconds:g} s")
        for t in over:
            print(_line(t))
        return 1
    print(f"== test budget: all {len(load_free)} load-free tests within {args.seconds:g} s each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
