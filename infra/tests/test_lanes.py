"""The test lanes keep going after a failure: the real lane scripts, copied into a scratch tree
whose builds, test runners and fuzzers are stubs that log their calls, with one step failing.
Every later step still runs, and the lane still fails at its end."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STUB = """#!/usr/bin/env bash
echo "{name} $*" >>"$CALLS"
{body}
"""


def _stub(path: Path, name: str, body: str = "exit 0") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(STUB.format(name=name, body=body))
    path.chmod(0o755)


def _copy(tree: Path, *paths: str) -> None:
    for rel in paths:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tree / rel)


def _run(tree: Path, script: str, calls: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "CALLS": str(calls),
        "PATH": f"{tree / 'bin'}:{os.environ['PATH']}",
        "PYTEST": str(tree / "bin" / "pytest"),
    }
    for inherited in ("MCSCOPE_TEST_DURATIONS_DIR", "MCSCOPE_KEEP_TEST_LOGS"):
        env.pop(inherited, None)  # a stub run's times and logs are not make test's
    return subprocess.run(
        ["bash", str(tree / script)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def test_the_cpp_lane_runs_tsan_and_fuzzing_after_an_asan_failure(tmp_path: Path) -> None:
    tree, calls = tmp_path / "tree", tmp_path / "calls.txt"
    _copy(tree, "middleware-cpp/scripts/test.sh", "infra/local/timed.sh")
    _stub(tree / "middleware-cpp/scripts/build.sh", "build")
    _stub(tree / "middleware-cpp/scripts/fuzz.sh", "fuzz")
    _stub(tree / "bin/ctest", "ctest")
    # The ASan integration tests fail (as a sanitizer report or a flaky assertion would).
    _stub(
        tree / "bin/pytest",
        "pytest",
        'if [[ "$MCSCOPE_MIDDLEWARE_BIN" == */asan/* ]]; then exit 1; fi',
    )
    run = _run(tree, "middleware-cpp/scripts/test.sh", calls)
    assert run.returncode == 1, run.stdout + run.stderr
    lines = calls.read_text().splitlines()
    assert [line for line in lines if line.startswith(("ctest", "fuzz"))] == [
        f"ctest --test-dir {tree}/middleware-cpp/build/{f} --output-on-failure -j 2"
        for f in ("release", "asan", "tsan")
    ] + ["fuzz 30"], lines
    assert sum(line.startswith("pytest") for line in lines) == 3
    assert "integration asan" in run.stdout and "FAILED" in run.stdout


def test_a_failed_build_skips_only_its_own_flavour(tmp_path: Path) -> None:
    tree, calls = tmp_path / "tree", tmp_path / "calls.txt"
    _copy(tree, "middleware-cpp/scripts/test.sh", "infra/local/timed.sh")
    _stub(tree / "middleware-cpp/scripts/build.sh", "build", '[[ "$1" != asan ]]')
    _stub(tree / "middleware-cpp/scripts/fuzz.sh", "fuzz")
    _stub(tree / "bin/ctest", "ctest")
    _stub(tree / "bin/pytest", "pytest")
    run = _run(tree, "middleware-cpp/scripts/test.sh", calls)
    assert run.returncode == 1
    lines = calls.read_text().splitlines()
    assert [line for line in lines if line.startswith("ctest")] == [
        f"ctest --test-dir {tree}/middleware-cpp/build/{f} --output-on-failure -j 2"
        for f in ("release", "tsan")
    ]
    assert any(line.startswith("fuzz") for line in lines)
    assert "tests asan" in run.stdout and "skipped: its build failed" in run.stdout


def test_make_test_runs_every_lane_step_after_a_failure_and_fails(tmp_path: Path) -> None:
    tree, calls = tmp_path / "tree", tmp_path / "calls.txt"
    _copy(tree, "infra/local/test-all.sh", "infra/local/timed.sh")
    # The side lane's first step (lint) fails; the C++ suite and load-free tests still run.
    (tree / "Makefile").write_text("compose-check:\n\t@echo make >>$$CALLS\nlint:\n\t@false\n")
    _stub(tree / "middleware-cpp/scripts/test.sh", "cpp")
    _stub(tree / "middleware-cpp/scripts/build.sh", "build")
    _stub(tree / "infra/local/test-python.sh", "python")
    _stub(tree / "frontend/scripts/test.sh", "frontend")
    _stub(tree / ".venv/bin/python", "durations")
    run = _run(tree, "infra/local/test-all.sh", calls)
    assert run.returncode == 1, run.stdout + run.stderr
    lines = calls.read_text().splitlines()
    ran = sorted(line.split()[0] for line in lines)
    assert ran == sorted(
        ["make", "cpp", "build", "python", "python", "frontend", "frontend", "durations"]
    ), ran
    # The frontend's static half ends the side lane, its browser tests run after it (their own
    # lane); the load lane builds only the binary.
    assert [line for line in lines if line.startswith("frontend")] == [
        "frontend static",
        "frontend e2e",
    ], lines
    assert "build release --middleware-only" in lines, lines
    summary = run.stdout[run.stdout.index("== make test: lanes") :]
    assert "side (lint, C++, Python, UI static)" in summary
    assert "FAILED" in summary
    assert "make test FAILED" in run.stdout


def test_make_check_runs_its_three_groups_whole_after_a_failure_and_fails(tmp_path: Path) -> None:
    tree, calls = tmp_path / "tree", tmp_path / "calls.txt"
    _copy(tree, "infra/local/check.sh", "infra/local/timed.sh")
    for tool in ("ruff", "mkdocs", "pytest"):
        _stub(tree / ".venv/bin" / tool, tool)
    _stub(tree / ".venv/bin/mypy", "mypy", "exit 1")  # a type error
    _stub(tree / "bin/npx", "npx")
    (tree / "frontend").mkdir()
    run = _run(tree, "infra/local/check.sh", calls)
    assert run.returncode == 1, run.stdout + run.stderr
    ran = [line.split()[:2] for line in calls.read_text().splitlines()]
    # The rest of its group (the docs) and the other two groups still ran.
    assert sorted(ran) == sorted(
        [["ruff", "format"], ["ruff", "check"], ["mypy", "backend"], ["mkdocs", "build"]]
        + [["pytest", "backend/tests"]]
        + [["npx", "biome"], ["npx", "tsc"], ["npx", "vitest"]]
    ), ran
    summary = run.stdout[run.stdout.index("   lint, types, docs") :]
    assert "FAILED" in summary.splitlines()[0] and "FAILED" not in summary.splitlines()[1]
    assert "make check FAILED" in run.stdout


# Stubs of the three lanes' work that show when each ran and what it saw: the load tests wait
# (at most 60 s: a deadline against a hang, the side lane runs this at idle priority) for a
# sign of the other lane, the browser stub says its scheduling policy and whether the load
# tests were over when it started, then waits for their end.
WAIT_FOR = """for _ in $(seq 1 600); do [[ -e "{path}" ]] && break; sleep 0.1; done
[[ -e "{path}" ]] || {{ echo "{what} never came" >>"$CALLS"; exit 1; }}"""
E2E_STUB = """if [[ "$1" == e2e ]]; then
  policy=$(chrt -p $$ | head -n 1 | awk '{{print $NF}}')
  over=no; [[ -e "$MCSCOPE_E2E_LOAD_OVER" ]] && over=yes
  echo "e2e started $policy load-over=$over" >>"$CALLS"
  touch "$CALLS.e2e"
  {wait_over}
  echo "e2e saw the load lane end" >>"$CALLS"
fi"""


def _lanes_tree(tmp_path: Path, python_body: str) -> tuple[Path, Path]:
    tree, calls = tmp_path / "tree", tmp_path / "calls.txt"
    _copy(tree, "infra/local/test-all.sh", "infra/local/timed.sh")
    (tree / "Makefile").write_text(
        "compose-check:\n\t@true\nlint:\n\t@true\ndocs-build:\n\t@true\n"
    )
    _stub(tree / "middleware-cpp/scripts/test.sh", "cpp")
    _stub(tree / "middleware-cpp/scripts/build.sh", "build")
    _stub(tree / "infra/local/test-python.sh", "python", python_body)
    wait_over = WAIT_FOR.format(path="$MCSCOPE_E2E_LOAD_OVER", what="load.over")
    _stub(tree / "frontend/scripts/test.sh", "frontend", E2E_STUB.format(wait_over=wait_over))
    _stub(tree / ".venv/bin/python", "durations")
    return tree, calls


def test_the_browser_lane_starts_at_idle_priority_beside_the_load_tests_not_measured(
    tmp_path: Path,
) -> None:
    # The load tests outlast the side lane. For a while they measure (the browser lane must not
    # start: it would move the measurements), then they reach the modules whose load is not
    # measured (load_lane.py creates the file), and end only once the browser lane has started.
    body = """if [[ "$1" == load ]]; then
  sleep 3
  [[ -e "$CALLS.e2e" ]] && echo "e2e beside the measured load tests" >>"$CALLS"
  touch "$MCSCOPE_MEASURED_LOAD_OVER"
{}
fi""".format(WAIT_FOR.format(path="$CALLS.e2e", what="the browser lane"))
    tree, calls = _lanes_tree(tmp_path, body)
    run = _run(tree, "infra/local/test-all.sh", calls)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [line for line in calls.read_text().splitlines() if line.startswith("e2e")]
    # Beside the load tests at SCHED_IDLE, and told when they ended (its real-load spec waits).
    assert lines == ["e2e started SCHED_IDLE load-over=no", "e2e saw the load lane end"], lines
    assert "beside the load tests whose load is not measured, at idle priority" in run.stdout


def test_the_browser_lane_starts_at_normal_priority_when_the_load_tests_end_first(
    tmp_path: Path,
) -> None:
    # The side lane's load-free tests outlast the load tests.
    body = 'if [[ "$1" == load-free ]]; then\n{}\nfi'.format(
        WAIT_FOR.format(path="$logs/load.over", what="the load lane's end")
    )
    tree, calls = _lanes_tree(tmp_path, body)
    run = _run(tree, "infra/local/test-all.sh", calls)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [line for line in calls.read_text().splitlines() if line.startswith("e2e")]
    # At this test's own policy: make test's side lane runs it at SCHED_IDLE, which children
    # inherit (and cannot leave without privileges).
    policy = "SCHED_IDLE" if os.sched_getscheduler(0) == os.SCHED_IDLE else "SCHED_OTHER"
    assert lines == [f"e2e started {policy} load-over=yes", "e2e saw the load lane end"], lines
    assert "after the load lane" in run.stdout
