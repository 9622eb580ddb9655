"""The test-time budget: phases summed per test, load tests exempt, and a real pytest run with a
planted slow test failing the check (the planted busy loop's CPU seconds are a lower bound on
its time, so the check cannot pass by chance)."""

from __future__ import annotations

from pathlib import Path

import pytest

from backend.tests.utils.durations import (
    BUDGET_SECONDS,
    main,
    over_budget,
    read,
    record_line,
    slowest,
)
from backend.tests.utils.planted import run_planted

# A busy loop for the planted suites: CPU seconds, a lower bound on their time.
BUSY = (
    "def busy(seconds):\n"
    "    start = time.process_time()\n"
    "    while time.process_time() - start < seconds:\n"
    "        pass\n\n"
)


def _run_planted(tmp_path: Path, module: str) -> Path:
    """Runs a planted suite file with the durations hooks as a plugin; its times' file."""
    durations = tmp_path / "durations.jsonl"
    env = {"MCSCOPE_TEST_DURATIONS": str(durations)}
    run = run_planted(tmp_path, "backend.tests.utils.durations", env, module)
    assert run.returncode == 0, run.stdout + run.stderr
    return durations


def _write(path: Path, records: list[tuple[str, str, float, bool]], wall: float = 3) -> Path:
    # The given seconds are CPU seconds; wall time `wall` times as long (a busy machine).
    path.write_text("".join(record_line(n, w, s * wall, load, s) for n, w, s, load in records))
    return path


def test_a_tests_phases_are_summed_and_load_tests_are_exempt(tmp_path: Path) -> None:
    f = _write(
        tmp_path / "d.jsonl",
        [
            ("a.py::quick", "setup", 1.0, False),
            ("a.py::quick", "call", 2.0, False),
            ("a.py::quick", "teardown", 0.5, False),
            # Set-up over the budget alone (a module fixture) still counts against the test.
            ("a.py::heavy_setup", "setup", BUDGET_SECONDS + 1, False),
            ("a.py::heavy_setup", "call", 0.1, False),
            ("b.py::load", "call", BUDGET_SECONDS * 5, True),
            # Exactly at the budget is within it.
            ("a.py::at_budget", "call", BUDGET_SECONDS, False),
        ],
    )
    times = {t.nodeid: t for t in read([f])}
    quick = times["a.py::quick"]
    assert (quick.cpu_seconds, quick.seconds, quick.load) == (3.5, 10.5, False)
    assert [t.nodeid for t in over_budget(list(times.values()))] == ["a.py::heavy_setup"]
    # A test named as known to be over the budget does not fail it.
    known = {"a.py::heavy_setup": "why"}
    assert over_budget(list(times.values()), known=known) == []
    assert [t.nodeid for t in slowest(list(times.values()), 2)] == [
        "b.py::load",
        "a.py::heavy_setup",
    ]


def test_the_command_fails_naming_the_test_over_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    over = _write(tmp_path / "over.jsonl", [("a.py::slow", "call", BUDGET_SECONDS + 0.5, False)])
    within = _write(tmp_path / "within.jsonl", [("a.py::fine", "call", 0.2, False)])
    assert main(["budget", str(within)]) == 0
    assert main(["budget", str(within), str(over)]) == 1
    out = capsys.readouterr().out
    assert "1 load-free test(s) over 10 CPU s" in out and "a.py::slow" in out
    # No record at all is a failure, not a pass: the hook must have written something.
    assert main(["budget", str(tmp_path / "missing.jsonl")]) == 1


def test_a_planted_slow_test_fails_the_budget_of_a_real_pytest_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its own small suite: the hooks as a plugin, a budget below the planted CPU seconds.
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    load: puts load\n")
    (tmp_path / "test_planted.py").write_text(
        "import time\n"
        "import pytest\n\n" + BUSY + "def test_planted_slow():\n"
        "    busy(0.6)\n\n"
        "@pytest.mark.load\n"
        "def test_planted_slow_load():\n"
        "    busy(0.6)\n\n"
        "def test_planted_waiting():\n"
        "    time.sleep(0.6)  # wall time without CPU: what a busy machine adds\n"
    )
    durations = _run_planted(tmp_path, "test_planted.py")
    assert main(["budget", "--seconds", "0.5", str(durations)]) == 1
    named = [line for line in capsys.readouterr().out.splitlines() if "test_planted" in line]
    # The load test is exempt and waiting is not work: only the busy load-free one is named.
    assert len(named) == 1 and named[0].endswith("test_planted.py::test_planted_slow"), named


def test_a_modules_closing_teardown_is_not_charged_to_its_last_test(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A module fixture whose tear-down works (as a module's API app closing its figure
    # renderer does), and a test whose own fixture's tear-down works: only the latter is the
    # test's, whichever test the order puts last.
    (tmp_path / "test_shared.py").write_text(
        "import time\n"
        "import pytest\n\n" + BUSY + "@pytest.fixture(scope='module')\n"
        "def shared():\n"
        "    yield\n"
        "    busy(0.6)\n\n"
        "@pytest.fixture()\n"
        "def own():\n"
        "    yield\n"
        "    busy(0.6)\n\n"
        "def test_own_teardown(shared, own):\n"
        "    pass\n\n"
        "def test_last(shared):\n"
        "    pass\n"
    )
    durations = _run_planted(tmp_path, "test_shared.py")
    closing = [line for line in durations.read_text().splitlines() if "module_teardown" in line]
    assert len(closing) == 1 and "test_last" in closing[0] and '"teardown"' in closing[0]
    assert main(["budget", "--seconds", "0.5", str(durations)]) == 1
    named = [line for line in capsys.readouterr().out.splitlines() if "test_shared" in line]
    assert len(named) == 1 and named[0].endswith("test_shared.py::test_own_teardown"), named
