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
    env.pop("MCSCOPE_TEST_DURATIONS_DIR", None)
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
    # The frontend's static half ends the side lane, its browser tests run after both lanes;
    # the load lane builds only the binary.
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
