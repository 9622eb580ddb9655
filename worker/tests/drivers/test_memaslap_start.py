"""Where a memaslap instance's series begin: its exit less its clean-up second and its measured
run, from the files the worker fetched (its launch when its exit time is unknown); an output
that cannot tell fails the run at parsing, naming the client."""

import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from worker.drivers.memaslap import CLEAN_UP_SLEEP_S, MemaslapDriver
from worker.parsers import ParseError
from worker.runs.outputs import parse_client
from worker.runs.plan import ClientPlan
from worker.tests.parsers.conftest import FIXTURES

# "Run time: 5.0s Ops: 390367 TPS: 78062": measured 390367 / 78062 s.
OUTPUT = FIXTURES / "memcaslap_t5s_S1s_T2_c8.txt"
RUN_S = 390367 / 78062


def _files(tmp_path: Path, end: str | None, output: Path | None = OUTPUT) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
    if output is not None:
        shutil.copy(output, tmp_path / "client-1.out")
    if end is not None:
        (tmp_path / "client-1.end").write_text(end)
    return tmp_path


def _start(local: Path, launched: float) -> float:
    """As parse_outputs does: the output parsed, then the start asked of the driver."""
    driver = MemaslapDriver(None)  # type: ignore[arg-type]  # reads fetched files only
    result = driver.parse(local, "client-1")
    return driver.load_start_unix(local, "client-1", result, launched)


def test_the_series_begin_after_the_set_up_measured_back_from_the_exit(tmp_path: Path) -> None:
    local = _files(tmp_path, "1000.250000000\n")
    assert _start(local, launched=993.9) == pytest.approx(1000.25 - CLEAN_UP_SLEEP_S - RUN_S)


@pytest.mark.parametrize(
    ("end", "why"),
    [
        (None, "no end time (a run from before it was recorded)"),
        ("not a time", "an unreadable end time"),
    ],
)
def test_the_launch_when_the_exit_is_unknown(tmp_path: Path, end: str | None, why: str) -> None:
    assert _start(_files(tmp_path, end), launched=993.9) == 993.9, why


@pytest.mark.parametrize(
    ("output", "why"),
    [
        (None, "no output"),
        (FIXTURES / "memtier_ratio0-1_c2_t1_d128_5s.json", "an output that is not memaslap's"),
    ],
)
def test_an_output_that_cannot_tell_fails_naming_the_client(
    tmp_path: Path, output: Path | None, why: str
) -> None:
    _files(tmp_path / "h1", "1000.25", output)
    # What parse_client reads of a client's plan: its index, name and host's name.
    host = SimpleNamespace(name="h1")
    client = cast(ClientPlan, SimpleNamespace(index=0, name="client-1", host=host))
    with pytest.raises(ParseError, match=r"client:0 \(memaslap on h1\): cannot parse"):
        parse_client(tmp_path, client, MemaslapDriver(None))  # type: ignore[arg-type]


def test_never_before_the_launch_nor_after_the_exit(tmp_path: Path) -> None:
    # An exit too soon for the measured run (clocks stepped): the launch bounds it.
    assert _start(_files(tmp_path, "996.0"), launched=993.9) == 993.9
