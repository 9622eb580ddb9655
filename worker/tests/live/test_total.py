"""The live line is the run total: all client instances combined per second."""

from pathlib import Path

import pytest

from worker.live.total import LiveCombiner
from worker.parsers.memtier import MemtierProgressParser
from worker.parsers.progress import ProgressTick

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_a_second_is_emitted_once_every_running_instance_reported_it() -> None:
    live = LiveCombiner(("client:0", "client:1", "client:2"))
    assert live.add("client:0", ProgressTick(0, 1000.0, 200.0)) == []
    assert live.add("client:1", ProgressTick(0, 3000.0, 400.0)) == []
    (total,) = live.add("client:2", ProgressTick(0, 0.0, None))
    assert total.elapsed_s == 0 and total.instances == 3
    assert total.ops_per_sec == 4000.0  # the sum, not one instance's share
    assert total.mean_latency_us == pytest.approx(350.0)  # weighted by throughput


def test_an_ended_or_skipping_instance_does_not_hold_the_line_back() -> None:
    live = LiveCombiner(("client:0", "client:1"))
    live.add("client:0", ProgressTick(0, 100.0, 10.0))
    live.add("client:1", ProgressTick(0, 100.0, 10.0))
    assert live.add("client:0", ProgressTick(2, 200.0, 10.0)) == []
    # client:1 skipped second 1: second 1 uses client:0's latest report before it.
    totals = live.add("client:1", ProgressTick(2, 300.0, 20.0))
    assert [(t.elapsed_s, t.ops_per_sec) for t in totals] == [(1, 200.0), (2, 500.0)]
    live.add("client:0", ProgressTick(3, 50.0, 10.0))
    (last,) = live.end("client:1")
    assert (last.elapsed_s, last.ops_per_sec) == (3, 350.0)


def test_two_real_memtier_progress_streams_sum() -> None:
    """Two instances replaying the same real memtier stderr: the line is exactly twice one."""
    text = (FIXTURES / "memtier_ratio1-1_c2_t1_d128_5s.stderr.txt").read_bytes()
    one = MemtierProgressParser().feed(text)
    assert one, "the fixture has progress records"
    live = LiveCombiner(("client:0", "client:1"))
    totals = []
    for tick in one:
        totals += live.add("client:0", tick)
        totals += live.add("client:1", tick)
    totals += live.end("client:0") + live.end("client:1")
    by_second = {t.elapsed_s: t for t in one}
    assert totals
    for t in totals:
        mine = max(s for s in by_second if s <= t.elapsed_s)
        assert t.ops_per_sec == pytest.approx(2 * by_second[mine].ops_per_sec)
        assert t.instances == 2
