"""Real-tool fixtures kept in the repository; tests parametrized over every file of a kind."""

from __future__ import annotations

from pathlib import Path

import pytest

# worker/tests/parsers/conftest.py -> parents[1] is worker/tests, which holds the fixtures.
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

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
    """Sorted fixture files matching ``pattern``; a missing kind is an error, never a skip."""
    files = sorted(FIXTURES.glob(pattern))
    if not files:
        raise FileNotFoundError(f"no real tool fixture matches {FIXTURES / pattern}")
    return files


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrize ``<kind>_path`` arguments with every matching real fixture."""
    for name, pattern in _KINDS.items():
        if name in metafunc.fixturenames:
            files = fixture_files(pattern)
            metafunc.parametrize(name, files, ids=[f.name for f in files])


@pytest.fixture(scope="session")
def fixtures_dir() -> Path:
    """The fixtures folder (kept in the repository)."""
    assert FIXTURES.is_dir(), f"real tool fixtures missing at {FIXTURES}"
    return FIXTURES
