"""The failed tests of a pytest run, a line each (node id, phase, the assertion's first line),
appended to $MCSCOPE_TEST_FAILURES when set: `make test` prints that file last, so the end of
a long CI log names what failed in every lane (the browser tests append to the same file:
frontend/tests/e2e/on-failure.ts). A plugin of the root conftest.py."""

from __future__ import annotations

import os

import pytest

# The reason's first line, cut: the full traceback is in the lane's log.
_REASON_CHARS = 200


def failure_line(nodeid: str, when: str, reason: str) -> str:
    first = next((line.strip() for line in reason.splitlines() if line.strip()), "")
    return f"pytest {nodeid} ({when}): {first[:_REASON_CHARS]}\n"


def _reason(report: pytest.TestReport | pytest.CollectReport) -> str:
    crash = getattr(report.longrepr, "reprcrash", None)
    message = getattr(crash, "message", None)
    if isinstance(message, str):
        return message
    lines = report.longreprtext.strip().splitlines()
    return lines[-1] if lines else ""


def _append(report: pytest.TestReport | pytest.CollectReport, when: str) -> None:
    path = os.environ.get("MCSCOPE_TEST_FAILURES")
    if path:
        with open(path, "a") as f:
            f.write(failure_line(report.nodeid, when, _reason(report)))


# Only the process that reports appends, not each pytest-xdist worker: the controller receives
# every worker's reports.
_reporting = True


def pytest_configure(config: pytest.Config) -> None:
    global _reporting
    _reporting = not hasattr(config, "workerinput")


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _reporting and report.failed:
        _append(report, str(report.when))


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if _reporting and report.failed:
        _append(report, "collection")
