"""The browser tests' fork server (infra/local/forkrun.py): a call runs the module as `python -m`
would, in the caller's working directory, and returns its output and exit code, whatever the
module does; the client, without site-packages, says when no server answers."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "infra/local/forkrun.py"


@pytest.fixture(scope="module")
def socket_path(tmp_path_factory: pytest.TempPathFactory, database: str) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("forkrun") / "forkrun.sock"
    server = subprocess.Popen(
        [sys.executable, "-m", "infra.local.forkrun", "serve", str(path)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while not path.exists():
            assert server.poll() is None, server.communicate()[0]
            assert time.monotonic() < deadline, "the fork server did not listen within 60 s"
            time.sleep(0.1)
        yield path
    finally:
        server.terminate()
        server.wait(timeout=10)


def _call(socket_path: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-S", str(SCRIPT), "call", str(socket_path), *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_module_runs_with_the_callers_arguments_and_directory(
    socket_path: Path, tmp_path: Path
) -> None:
    (tmp_path / "data.json").write_text('{"b": [1, 2], "a": "é"}')
    run = _call(socket_path, tmp_path, "json.tool", "--sort-keys", "data.json")
    assert (run.returncode, run.stderr) == (0, "")
    assert run.stdout == '{\n    "a": "\\u00e9",\n    "b": [\n        1,\n        2\n    ]\n}\n'


def test_a_failing_module_gives_its_exit_code_and_error(socket_path: Path, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text("{not json")
    run = _call(socket_path, tmp_path, "json.tool", "bad.json")
    assert run.returncode == 1 and run.stdout == ""
    assert "Expecting property name" in run.stderr

    missing = _call(socket_path, tmp_path, "no_such_module_here")
    assert missing.returncode == 1
    assert "No module named no_such_module_here" in missing.stderr


def test_many_calls_at_once_each_get_their_own_answer(socket_path: Path, tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"{i}.json").write_text(f'{{"n": {i}}}')
    calls = [
        subprocess.Popen(
            [sys.executable, "-S", str(SCRIPT), "call", str(socket_path)]
            + ["json.tool", "--compact", f"{i}.json"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i in range(6)
    ]
    assert [c.communicate(timeout=60)[0] for c in calls] == [f'{{"n":{i}}}\n' for i in range(6)]


def test_the_client_says_when_no_server_answers(tmp_path: Path) -> None:
    run = _call(tmp_path / "absent.sock", tmp_path, "json.tool")
    assert run.returncode == 2
    assert "no server at" in run.stderr and "scripts/e2e.sh starts it" in run.stderr
