"""The failures file `make test` prints last: a real pytest run of a planted suite (a failed
assertion, a fixture that raises, a module that does not import, a test that passes) with the
plugin appends one line per failure, naming the test, its phase and the reason."""

from __future__ import annotations

import subprocess
from pathlib import Path

from backend.tests.utils.failures import failure_line
from backend.tests.utils.planted import run_planted

PLANTED = """
import pytest

@pytest.fixture
def broken():
    raise RuntimeError("no database here")

def test_passes():
    pass

def test_fails():
    assert 1 + 1 == 3, "arithmetic is off"

def test_set_up_fails(broken):
    pass
"""


def _run(folder: Path, failures: Path, target: str) -> subprocess.CompletedProcess[str]:
    env = {"MCSCOPE_TEST_FAILURES": str(failures)}
    return run_planted(folder, "backend.tests.utils.failures", env, target)


def test_each_failure_is_a_line_naming_test_phase_and_reason(tmp_path: Path) -> None:
    (tmp_path / "test_planted.py").write_text(PLANTED)
    (tmp_path / "test_unimportable.py").write_text("import no_such_module_here\n")
    failures = tmp_path / "failures.txt"
    run = _run(tmp_path, failures, ".")
    assert run.returncode == 2, run.stdout + run.stderr  # interrupted by the collection error
    (line,) = failures.read_text().splitlines()
    assert line.startswith("pytest test_unimportable.py (collection): ")
    assert "no_such_module_here" in line


def test_failed_tests_of_a_run_that_collects(tmp_path: Path) -> None:
    (tmp_path / "test_planted.py").write_text(PLANTED)
    failures = tmp_path / "failures.txt"
    run = _run(tmp_path, failures, "test_planted.py")
    assert run.returncode == 1, run.stdout + run.stderr
    fails, set_up = failures.read_text().splitlines()
    assert fails.startswith("pytest test_planted.py::test_fails (call): AssertionError: ")
    assert "arithmetic is off" in fails
    assert (
        set_up
        == "pytest test_planted.py::test_set_up_fails (setup): RuntimeError: no database here"
    )


def test_a_long_reason_is_cut_to_its_first_line() -> None:
    line = failure_line("a.py::t", "call", "\n  " + "x" * 500 + "\nsecond line")
    assert line == f"pytest a.py::t (call): {'x' * 200}\n"
