"""The load lane's plugin on a planted suite through real pytest: which modules are `load`, the
modules whose load is not measured run after the others, and the file that lets `make test`'s
browser tests start appears when the first of them starts, not before."""

from __future__ import annotations

from pathlib import Path

from backend.tests.utils.planted import run_planted

PLUGIN = "backend.tests.utils.load_lane"
CONFTEST = """
import pytest

@pytest.fixture()
def local_sshd():
    return None
"""
# File order puts the module whose load is not measured first; each test checks the file.
FILES = {
    "test_a_recovery.py": """
import os
from pathlib import Path

import pytest

pytestmark = pytest.mark.load_not_measured

def test_runs_after_the_measured_ones(local_sshd):
    assert Path(os.environ["MCSCOPE_MEASURED_LOAD_OVER"]).exists()
""",
    "test_b_throughput.py": """
import os
from pathlib import Path

def test_measures_before_the_file_exists(local_sshd):
    assert not Path(os.environ["MCSCOPE_MEASURED_LOAD_OVER"]).exists()
""",
    "test_c_provisioning.py": """
import pytest

pytestmark = pytest.mark.hosts_without_load

def test_reaches_the_hosts_without_load(local_sshd):
    pass
""",
    "test_d_pure.py": """
def test_uses_no_host():
    pass
""",
}


def _planted(tmp_path: Path) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    (folder / "conftest.py").write_text(CONFTEST)
    for name, text in FILES.items():
        (folder / name).write_text(text)
    return folder


def test_the_unmeasured_load_runs_last_and_opens_the_way_when_it_starts(tmp_path: Path) -> None:
    folder, over = _planted(tmp_path), tmp_path / "measured.over"
    env = {"MCSCOPE_MEASURED_LOAD_OVER": str(over)}
    run = run_planted(folder, PLUGIN, env, "-m", "load", "-vv")
    assert run.returncode == 0, run.stdout + run.stderr
    ran = [line.split("::")[0] for line in run.stdout.splitlines() if " PASSED" in line]
    assert ran == ["test_b_throughput.py", "test_a_recovery.py"], run.stdout
    assert "2 passed, 2 deselected" in run.stdout
    assert over.exists()


def test_the_load_free_half_takes_the_hosts_without_load_and_the_rest(tmp_path: Path) -> None:
    folder, over = _planted(tmp_path), tmp_path / "measured.over"
    env = {"MCSCOPE_MEASURED_LOAD_OVER": str(over)}
    run = run_planted(folder, PLUGIN, env, "-m", "not load", "-vv")
    assert run.returncode == 0, run.stdout + run.stderr
    ran = sorted(line.split("::")[0] for line in run.stdout.splitlines() if " PASSED" in line)
    assert ran == ["test_c_provisioning.py", "test_d_pure.py"], run.stdout
    assert not over.exists()  # no load test started
