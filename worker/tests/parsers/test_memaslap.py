"""parse_memaslap: every real fixture (Period vs Global vs final line), table cases, bad input."""

# ruff: noqa: E501  (the sample below reproduces memaslap table rows verbatim)
from __future__ import annotations

from pathlib import Path

import pytest

from worker.parsers import ParseError, parse_memaslap


def test_fixture_invariants(memaslap_path: Path) -> None:
    out = parse_memaslap(memaslap_path.read_text())
    assert out.header["servers"] == "127.0.0.1:11211"
    # The final Ops is cmd_get + cmd_set (keys for multi-gets), TPS = Ops / run time.
    assert out.ops == out.counters["cmd_get"] + out.counters["cmd_set"]
    assert out.tps == pytest.approx(out.ops / out.run_time_s, rel=0.05)  # run time has 1 decimal
    for name, final in out.finals.items():
        assert sum(c for _, c in final.log2_dist) == final.events
        assert final.min_us <= final.avg_us <= final.max_us
        bounds = [b for b, _ in final.log2_dist]
        assert bounds == sorted(bounds) and final.max_us <= bounds[-1] < 2 * final.max_us + 2, name
    assert out.finals["Total"].events == out.finals["Get"].events + out.finals["Set"].events
    for previous, screen in zip((None, *out.screens), out.screens, strict=False):
        for name, block in screen.items():
            # Global accumulates the Period rows: ops add up, elapsed time advances by one period.
            before = previous[name].global_ if previous else None
            assert block.global_.ops == (before.ops if before else 0) + block.period.ops
            assert block.global_.time_s == (before.time_s if before else 0) + block.period.time_s
            assert block.period.tps == block.period.ops // block.period.time_s
            assert block.global_.tps == block.global_.ops // block.global_.time_s
        # Tables are snapshots taken one after another while traffic runs: close, not equal.
        parts = screen["Get"].period.ops + screen["Set"].period.ops
        assert screen["Total"].period.ops == pytest.approx(parts, rel=0.005)


def test_global_rows_agree_with_the_final_block(memaslap_path: Path) -> None:
    out = parse_memaslap(memaslap_path.read_text())
    if not out.screens:
        assert "execute number" in out.header  # -x mode prints no periodic blocks
        return
    last = out.screens[-1]
    for name, final in out.finals.items():
        glob = last[name].global_
        # The final block adds only the requests that finished after the last report.
        assert 0 <= final.events - glob.ops <= 0.001 * final.events + 20
        assert final.max_us >= glob.max_us and final.min_us <= glob.min_us
        assert abs(final.avg_us - glob.avg_us) <= 1
    assert last["Total"].global_.time_s == round(out.run_time_s)


def test_multiget_counts_requests_in_blocks_and_keys_in_the_final_line(fixtures_dir: Path) -> None:
    out = parse_memaslap((fixtures_dir / "memcaslap_d4_t5s_S1s_T2_c8.txt").read_text())
    gets = out.finals["Get"].events
    assert out.counters["cmd_get"] == pytest.approx(4 * gets, rel=1e-3)
    assert out.ops == pytest.approx(4 * gets + out.finals["Set"].events, rel=1e-3)
    assert out.screens[-1]["Total"].global_.ops < out.ops / 2


def test_execute_number_mode(fixtures_dir: Path) -> None:
    out = parse_memaslap((fixtures_dir / "memcaslap_x200000_S1s_T2_c8.txt").read_text())
    assert out.screens == ()
    assert out.finals["Total"].events == out.ops == 200_000
    assert out.run_time_s == 2.2
    assert out.finals["Set"].log2_dist[0] == (16.0, 17)  # row "4:" starts at 2^4 us


_MINIMAL = """servers: 127.0.0.1:11211
threads count: 1
concurrency: 1
run time: 1s
\x1b[1;1H\x1b[2J
Total Statistics
Type     Time(s)  Ops          TPS(ops/s)   Net(M/s)   Get_miss   Min(us)  Max(us)    Avg(us)    Std_dev    Geo_dist
Period   1        10           10           0.1        2          15       40         20         5.00       19.00
Global   1        10           10           0.1        2          15       40         20         5.00       19.00

Total Statistics (10 events)
   Min:        15
   Max:        40
   Avg:        20
   Geo:     19.00
   Std:      5.00
   Log2 Dist:
       4:        8        2

cmd_get: 10
cmd_set: 0
get_misses: 2

Run time: 1.0s Ops: 10 TPS: 10 Net_rate: 0.1M/s
"""


def test_minimal_table_case() -> None:
    out = parse_memaslap(_MINIMAL)
    assert out.header["run time"] == "1s"
    assert out.screens[0]["Total"].period.get_miss == 2
    assert out.finals["Total"].log2_dist == ((16.0, 8), (32.0, 2))
    assert out.counters == {"cmd_get": 10, "cmd_set": 0, "get_misses": 2}


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("Period   1        10 ", "Period   1        1x ", 8, "bad number"),
        ("Global   1        10           10 ", "Global   1 ", 9, "11 fields"),
        ("       4:        8        2", "       4:        8        3", 19, "sums to 11"),
        ("   Geo:     19.00", "   Geo:     fast", 15, "unexpected line"),
        ("cmd_set: 0", "what is this", 21, "unexpected line"),
    ],
)
def test_bad_input_raises_with_line(old: str, new: str, line: int, message: str) -> None:
    assert old in _MINIMAL
    with pytest.raises(ParseError, match=message) as info:
        parse_memaslap(_MINIMAL.replace(old, new))
    assert info.value.line == line


def test_truncated_output_raises(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "memcaslap_t5s_S1s_T2_c8.txt").read_text()
    with pytest.raises(ParseError, match="Run time"):
        parse_memaslap(text[: text.index("cmd_get")])
    with pytest.raises(ParseError, match="ends before"):
        parse_memaslap(text[: text.index("Period")])
    with pytest.raises(ParseError, match="servers"):
        parse_memaslap("Run time: 1.0s Ops: 10 TPS: 10 Net_rate: 0.1M/s\n")
