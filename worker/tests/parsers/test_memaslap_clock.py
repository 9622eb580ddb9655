"""memaslap's per-second series on the real clock when its counted seconds ran long."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time

import pytest

from backend.domain.load_generators import load_generator_spec
from backend.tests.utils.stopping import stop_process
from worker.parsers.memaslap import client_result_from_memaslap, parse_memaslap

_ROW = (
    "{kind:<8} {t:<8} {ops:<12} {ops:<12} 0.1        0          15       90         {lat:<10}"
    " 5.00       19.00"
)


def _output(run_time_s: int, periods: list[tuple[int, int]], real_s: float) -> str:
    """memaslap stdout with one Total table per counted second: (ops, mean latency us)."""
    lines = [
        "servers: 127.0.0.1:11211",
        "threads count: 1",
        "concurrency: 1",
        f"run time: {run_time_s}s",
    ]
    total = 0
    for t, (ops, lat) in enumerate(periods, start=1):
        total += ops
        lines += [
            "\x1b[1;1H\x1b[2J",
            "Total Statistics",
            "Type     Time(s)  Ops          TPS(ops/s)   Net(M/s)   Get_miss   Min(us)  Max(us)"
            "    Avg(us)    Std_dev    Geo_dist",
            _ROW.format(kind="Period", t=1, ops=ops, lat=lat),
            _ROW.format(kind="Global", t=t, ops=total, lat=lat),
        ]
    tps = int(total / real_s)
    lines += ["", f"Run time: {real_s:.1f}s Ops: {total} TPS: {tps} Net_rate: 0.1M/s", ""]
    return "\n".join(lines)


def _series(text: str) -> list[tuple[int, float, float | None]]:
    result = client_result_from_memaslap(parse_memaslap(text))
    return [(s.second, s.ops_per_sec, s.mean_latency_us) for s in result.types["all"].series]


def test_counted_seconds_that_ran_long_are_rebinned_into_real_seconds() -> None:
    # 4 counted seconds of 1,000 requests took 5 s: 800 requests a real second, and each real
    # second's latency is weighted by the requests of the reports it overlaps.
    text = _output(4, [(1000, 10), (1000, 20), (1000, 30), (1000, 40)], real_s=5.0)
    series = _series(text)
    assert [s for s, _, _ in series] == [0, 1, 2, 3, 4]
    assert [round(ops, 6) for _, ops, _ in series] == [800.0] * 5
    assert [round(lat or 0, 6) for _, _, lat in series] == [10.0, 17.5, 25.0, 32.5, 40.0]
    # The series and the summary now count the same requests over the same time.
    summary = client_result_from_memaslap(parse_memaslap(text)).types["all"].summary
    assert sum(ops for _, ops, _ in series) == pytest.approx(summary.count)


def test_series_keep_memaslaps_numbers_when_the_loop_kept_time() -> None:
    periods = [(1000, 10), (1200, 20), (900, 30)]
    assert _series(_output(3, periods, real_s=3.0)) == [
        (0, 1000.0, 10.0),
        (1, 1200.0, 20.0),
        (2, 900.0, 30.0),
    ]


def test_a_run_that_ended_early_is_not_stretched() -> None:
    # Configured for 6 s, last report at 3: the loop's turns are unknown, so nothing is moved.
    periods = [(1000, 10), (1200, 20), (900, 30)]
    assert [ops for _, ops, _ in _series(_output(6, periods, real_s=6.4))] == [1000, 1200, 900]


@pytest.mark.load
@pytest.mark.integration
@pytest.mark.timeout(60)
def test_real_memaslap_stopped_mid_run_overstates_and_the_series_do_not(memcached: int) -> None:
    # A stopped memaslap is what a starved one looks like: its counting loop turns late while
    # its final Run time is measured. 3 counted seconds, stopped for 3 s.
    found = [shutil.which(name) for name in load_generator_spec("memaslap").candidates]
    program = next(path for path in found if path)  # make setup installs it: never a skip
    proc = subprocess.Popen(
        [program, "-s", f"127.0.0.1:{memcached}", "-t", "3s", "-S", "1s", "-T", "1", "-c", "4"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    time.sleep(1.3)
    stop_process(proc.pid)  # by its PID, every thread stopped before the 3 s count
    time.sleep(3)
    proc.send_signal(signal.SIGCONT)
    text, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, text
    out = parse_memaslap(text)
    summary_rate = out.ops / out.run_time_s
    printed = [screen["Total"].period.tps for screen in out.screens]
    assert sum(printed) / len(printed) > 1.2 * summary_rate, (printed, out.run_time_s)
    series = client_result_from_memaslap(out).types["all"].series
    rates = [s.ops_per_sec for s in series]
    assert sum(rates) / len(rates) == pytest.approx(summary_rate, rel=0.1), (rates, summary_rate)
