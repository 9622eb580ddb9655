"""Where a memaslap instance's series begin: its exit less its clean-up second and its measured
run, from the files the worker fetched (its launch when they cannot tell)."""

import shutil
from pathlib import Path

import pytest

from worker.drivers.memaslap import CLEAN_UP_SLEEP_S, MemaslapDriver
from worker.tests.parsers.conftest import FIXTURES

# "Run time: 5.0s Ops: 390367 TPS: 78062": measured 390367 / 78062 s.
OUTPUT = FIXTURES / "memcaslap_t5s_S1s_T2_c8.txt"
RUN_S = 390367 / 78062


def _files(tmp_path: Path, end: str | None, output: Path | None = OUTPUT) -> Path:
    if output is not None:
        shutil.copy(output, tmp_path / "client-1.out")
    if end is not None:
        (tmp_path / "client-1.end").write_text(end)
    return tmp_path


def _start(local: Path, launched: float) -> float:
    driver = MemaslapDriver(None)  # type: ignore[arg-type]  # reads fetched files only
    return driver.load_start_unix(local, "client-1", launched)


def test_the_series_begin_after_the_set_up_measured_back_from_the_exit(tmp_path: Path) -> None:
    local = _files(tmp_path, "1000.250000000\n")
    assert _start(local, launched=993.9) == pytest.approx(1000.25 - CLEAN_UP_SLEEP_S - RUN_S)


@pytest.mark.parametrize(
    ("end", "output", "why"),
    [
        (None, OUTPUT, "no end time (a run from before it was recorded)"),
        ("not a time", OUTPUT, "an unreadable end time"),
        ("1000.25", None, "no output"),
        (
            "1000.25",
            FIXTURES / "memtier_ratio0-1_c2_t1_d128_5s.json",
            "an output that is not memaslap's",
        ),
    ],
)
def test_the_launch_when_the_files_cannot_tell(
    tmp_path: Path, end: str | None, output: Path | None, why: str
) -> None:
    assert _start(_files(tmp_path, end, output), launched=993.9) == 993.9, why


def test_never_before_the_launch_nor_after_the_exit(tmp_path: Path) -> None:
    # An exit too soon for the measured run (clocks stepped): the launch bounds it.
    assert _start(_files(tmp_path, "996.0"), launched=993.9) == 993.9
