"""Live progress parsers: same ticks however the stream is split; cross-checks; bad records."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from worker.parsers import (
    MemaslapProgressParser,
    MemtierProgressParser,
    ParseError,
    ProgressTick,
    Status,
    parse_memaslap,
    parse_memtier_json,
)
from worker.parsers.progress import MAX_RECORD_BYTES

Parser = MemtierProgressParser | MemaslapProgressParser


def _run(parser: Parser, chunks: list[bytes]) -> list[ProgressTick]:
    ticks: list[ProgressTick] = []
    for chunk in chunks:
        ticks += parser.feed(chunk)
    ticks += parser.finish()
    assert parser.status is Status.GOOD and parser.errors == []
    return ticks


def _split(data: bytes, points: list[int]) -> list[bytes]:
    cuts = [0, *sorted(points), len(data)]
    return [data[a:b] for a, b in zip(cuts, cuts[1:], strict=False)]


def test_memtier_stderr_every_split(memtier_stderr_path: Path) -> None:
    data = memtier_stderr_path.read_bytes()
    whole = _run(MemtierProgressParser(), [data])
    assert whole, "every run prints progress"
    # One byte at a time splits at every boundary at once; then every single cut.
    assert _run(MemtierProgressParser(), [data[i : i + 1] for i in range(len(data))]) == whole
    for cut in range(len(data) + 1):
        assert _run(MemtierProgressParser(), [data[:cut], data[cut:]]) == whole


def test_memtier_ticks_agree_with_json(memtier_stderr_path: Path) -> None:
    ticks = _run(MemtierProgressParser(), [memtier_stderr_path.read_bytes()])
    json_path = memtier_stderr_path.with_name(
        memtier_stderr_path.name.replace(".stderr.txt", ".json")
    )
    result = parse_memtier_json(json_path.read_text())
    runs = sorted({t.run for t in ticks})
    assert runs == list(range(1, result.run_count + 1))
    for run in runs:
        mine = [t for t in ticks if t.run == run]
        assert [t.percent for t in mine] == sorted(t.percent or 0 for t in mine)
        assert mine[-1].percent == 100
    last = ticks[-1]
    if result.run_count == 1:
        # The final "avg" ops/s is the JSON's Totals Ops/sec, printed as an integer.
        assert last.avg_ops_per_sec == pytest.approx(result.main.types["Totals"].ops_per_sec, abs=1)
    assert all(t.mean_latency_us is None or 0 <= t.mean_latency_us < 100_000 for t in ticks)


def test_memaslap_every_split_small_and_random_splits(memaslap_path: Path) -> None:
    data = memaslap_path.read_bytes()
    whole = _run(MemaslapProgressParser(), [data])
    assert _run(MemaslapProgressParser(), [data[i : i + 1] for i in range(len(data))]) == whole
    rng = random.Random(memaslap_path.name)  # deterministic per file
    points = range(len(data) + 1) if len(data) < 2000 else rng.sample(range(len(data)), 300)
    for cut in points:
        assert _run(MemaslapProgressParser(), [data[:cut], data[cut:]]) == whole


def test_memaslap_ticks_are_the_total_period_rows(memaslap_path: Path) -> None:
    ticks = _run(MemaslapProgressParser(), [memaslap_path.read_bytes()])
    out = parse_memaslap(memaslap_path.read_text())
    expected = [
        (s["Total"].global_.time_s, float(s["Total"].period.tps), float(s["Total"].period.avg_us))
        for s in out.screens
    ]
    assert [(t.elapsed_s, t.ops_per_sec, t.mean_latency_us) for t in ticks] == expected


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_random_chunkings_match(data: st.DataObject) -> None:
    from worker.tests.parsers.conftest import fixture_files

    files = fixture_files("memcaslap_*.txt") + fixture_files("memtier_*x2.stderr.txt")
    path = data.draw(st.sampled_from(files))
    raw = path.read_bytes()
    points = data.draw(st.lists(st.integers(0, len(raw)), max_size=30))
    parser_type = (
        MemaslapProgressParser if path.name.startswith("memcaslap") else MemtierProgressParser
    )
    assert _run(parser_type(), _split(raw, points)) == _run(parser_type(), [raw])


GOOD = (
    b"[RUN #1 20%,   1 secs]  1 threads  2 conns:  100 ops,  100 (avg:  100) ops/sec, "
    b"1.00MB/sec (avg: 1.00MB/sec),  0.05 (avg:  0.05) msec latency\r"
)


def _status(parser: Parser) -> Status:
    """Read status through a call so mypy does not narrow it across feeds."""
    return parser.status


def test_statuses_good_more_bad() -> None:
    parser = MemtierProgressParser()
    assert parser.feed(GOOD[:40]) == [] and _status(parser) is Status.MORE
    (tick,) = parser.feed(GOOD[40:])
    assert _status(parser) is Status.GOOD
    assert tick == ProgressTick(1, 100.0, 50.0, run=1, percent=20, avg_ops_per_sec=100.0)
    assert parser.feed(b"Writing results to stdout\n") == [] and _status(parser) is Status.GOOD
    assert parser.feed(b"[RUN #1 40%,   2 secs] garbage\n") == []
    assert _status(parser) is Status.BAD
    assert parser.errors[0].line == 2 and "ops/sec" in parser.errors[0].message
    # A bad record does not stop the stream: the next good one still ticks.
    assert len(parser.feed(GOOD)) == 1 and _status(parser) is Status.GOOD


def test_strict_mode_raises_with_line() -> None:
    parser = MemtierProgressParser(strict=True)
    parser.feed(b"Json file x created...\n\n")
    with pytest.raises(ParseError) as info:
        parser.feed(b"[RUN #1 40%,   2 secs] 1 threads: nonsense\r")
    assert info.value.line == 3


def test_overlong_record_is_bad() -> None:
    parser = MemtierProgressParser()
    parser.feed(b"x" * (MAX_RECORD_BYTES + 1))
    assert parser.status is Status.BAD and "longer than" in parser.errors[0].message
    assert len(parser.feed(b"\r" + GOOD)) == 1


def test_memaslap_bad_rows() -> None:
    parser = MemaslapProgressParser()
    assert parser.feed(b"Total Statistics\nGlobal   1   5\n") == []
    assert parser.status is Status.BAD and parser.errors[0].line == 2
    parser = MemaslapProgressParser()
    row = b" ".join(
        [b"Global", b"1", b"10", b"10", b"0.1", b"2", b"15", b"40", b"20", b"5.00", b"19.00\n"]
    )
    assert parser.feed(b"Total Statistics\n" + row) == []
    assert "without a Period row" in parser.errors[0].message
    # Get/Set tables never tick; only the Total table does.
    parser = MemaslapProgressParser()
    period = row.replace(b"Global", b"Period")
    assert parser.feed(b"Get Statistics\n" + period + row) == []
    assert parser.feed(b"\x1b[1;1H\x1b[2J\nTotal Statistics\n" + period + row) == [
        ProgressTick(1, 10.0, 20.0)
    ]
