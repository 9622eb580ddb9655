"""Locate the shared real-tool fixtures and parametrize tests over every file of a kind."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# worker/tests/parsers/conftest.py -> parents[3] is the repo root (/work/main).
_DEFAULT = Path(__file__).resolve().parents[3] / ".." / "shared" / "fixtures"
FIXTURES = Path(os.environ.get("MCSCOPE_FIXTURES", str(_DEFAULT))).resolve()
SKIP_REASON = f"real tool fixtures not found at {FIXTURES} (set MCSCOPE_FIXTURES)"

# fixture name -> glob over the fixtures folder
_KINDS = {
    "memtier_json_path": "memtier_*.json",
    "memtier_stdout_path": "memtier_*.stdout.txt",
    "memtier_stderr_path": "memtier_*.stderr.txt",
    "hdr_txt_path": "memtier_*_hdr_*.txt",
    "hgrm_path": "memtier_*.hgrm",
    "memaslap_path": "memcaslap_*.txt",
}


def fixture_files(pattern: str) -> list[Path]:
    """Sorted fixture files matching ``pattern`` (empty when the folder is absent)."""
    return sorted(FIXTURES.glob(pattern)) if FIXTURES.is_dir() else []


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``<kind>_path`` arguments with every matching real fixture."""
    for name, pattern in _KINDS.items():
        if name in metafunc.fixturenames:
            files = fixture_files(pattern)
            if files:
                metafunc.parametrize(name, files, ids=[f.name for f in files])
            else:
                skip = pytest.mark.skip(reason=SKIP_REASON)
                metafunc.parametrize(name, [pytest.param(None, marks=skip)])


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The fixtures folder, or skip with the reason."""
    if not FIXTURES.is_dir():
        pytest.skip(SKIP_REASON)
    return FIXTURES
