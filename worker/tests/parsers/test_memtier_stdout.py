"""parse_memtier_stdout: every real fixture, cross-checked with the JSON and HDR files of a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from worker.parsers import ParseError, parse_hdr_txt, parse_memtier_json, parse_memtier_stdout

_ROW_TO_HDR = {"Sets": "SET_command_run_1", "Gets": "GET_command_run_1", "Totals": "FULL_RUN_1"}


def _sibling(path: Path, suffix: str) -> Path:
    return path.with_name(path.name.replace(".stdout.txt", suffix))


def test_stdout_agrees_with_json(memtier_stdout_path: Path) -> None:
    out = parse_memtier_stdout(memtier_stdout_path.read_text())
    js = parse_memtier_json(_sibling(memtier_stdout_path, ".json").read_text())
    assert set(out.sections) == set(js.sections)
    assert out.header["Threads"] == js.configuration["threads"]
    for key, section in out.sections.items():
        jsec = js.sections[key]
        for name, row in section.rows.items():
            stats = jsec.types[name]
            # Both print rates with 2 decimals: they must agree to that precision.
            assert row.ops_per_sec == pytest.approx(stats.ops_per_sec, abs=0.006)
            if row.hits_per_sec is not None:
                assert row.hits_per_sec == pytest.approx(stats.hits_per_sec, abs=0.006)
                assert row.misses_per_sec == pytest.approx(stats.misses_per_sec, abs=0.006)
            if row.kb_per_sec is not None:
                assert row.kb_per_sec == pytest.approx(stats.kb_per_sec, abs=0.006)
            # Percentiles: stdout 5 decimals of ms, JSON 3; both come from one histogram.
            if row.percentiles_us and stats.percentiles_us:
                assert row.percentiles_us.keys() == stats.percentiles_us.keys()
                for pct, value in row.percentiles_us.items():
                    assert value == pytest.approx(stats.percentiles_us[pct], abs=0.5)
            if stats.count == 0:
                assert row.mean_latency_us is None
        # The printed latency distribution is the JSON's SET/GET/WAIT arrays.
        assert section.distribution.keys() == jsec.distribution.keys()
        for kind, points in section.distribution.items():
            flat = [v for point in points for v in point]
            assert flat == pytest.approx([v for point in jsec.distribution[kind] for v in point])


def test_stdout_mean_is_the_hdr_mean(memtier_stdout_path: Path) -> None:
    """stdout "Avg. Latency" is the HDR histogram mean that the .txt footer prints (3 dec.)."""
    out = parse_memtier_stdout(memtier_stdout_path.read_text())
    prefix = memtier_stdout_path.name.replace(".stdout.txt", "_hdr_")
    checked = 0
    for key, section in out.sections.items():
        if key not in ("all", "best"):
            continue
        for name, row in section.rows.items():
            hdr = memtier_stdout_path.with_name(f"{prefix}{_ROW_TO_HDR.get(name, '-')}.txt")
            if row.mean_latency_us is None or not hdr.exists():
                continue
            table = parse_hdr_txt(hdr.read_text())
            assert round(row.mean_latency_us / 1000, 3) == pytest.approx(table.mean_us / 1000)
            checked += 1
    assert checked >= 2


def test_header_of_a_request_count_run(fixtures_dir: Path) -> None:
    path = fixtures_dir / "memtier_populate_ratio1-0_SS_n10000_c1_t1_d128.stdout.txt"
    out = parse_memtier_stdout(path.read_text())
    assert out.header == {"Threads": 1, "Connections per thread": 1, "Requests per client": 10000}
    gets = out.sections["all"].rows["Gets"]
    assert gets.mean_latency_us is None and gets.percentiles_us == {}  # printed as ---


_TABLE = """1         Threads
2         Connections per thread
5         Seconds


ALL STATS
==========
Type         Ops/sec     Hits/sec   Misses/sec    Avg. Latency     p50 Latency       KB/sec
----------
Sets          100.00          ---          ---         0.05000         0.05100        10.00
Gets          300.00       250.00        50.00         0.02500         0.02300        20.00
Waits           0.00          ---          ---             ---             ---          ---
Totals        400.00       250.00        50.00         0.03125         0.03100        30.00


Request Latency Distribution
Type     <= msec         Percent
----------
SET       0.051      100.000
---
GET       0.023      100.000
"""


def test_table_case() -> None:
    out = parse_memtier_stdout(_TABLE)
    rows = out.sections["all"].rows
    assert rows["Sets"].hits_per_sec is None
    assert rows["Gets"].misses_per_sec == 50.0
    assert rows["Totals"].mean_latency_us == pytest.approx(31.25)
    assert rows["Gets"].percentiles_us == {50.0: pytest.approx(23.0)}
    assert rows["Waits"].kb_per_sec is None
    assert out.sections["all"].distribution == {"SET": ((51.0, 100.0),), "GET": ((23.0, 100.0),)}


@pytest.mark.parametrize(
    ("old", "new", "line", "message"),
    [
        ("Gets          300.00       250.00", "Gets          3x0.00       250.00", 11, "number"),
        ("Waits           0.00          ---", "Waits           0.00", 12, "values for"),
        ("GET       0.023      100.000", "GET       0.023", 21, "distribution row"),
        ("Sets          100.00", "Bogus         100.00", 10, "unexpected line"),
        ("1         Threads", "one       Threads", 1, "before the results"),
    ],
)
def test_bad_table_raises_with_line(old: str, new: str, line: int, message: str) -> None:
    assert old in _TABLE
    with pytest.raises(ParseError, match=message) as info:
        parse_memtier_stdout(_TABLE.replace(old, new))
    assert info.value.line == line


@pytest.mark.parametrize("text", ["", "garbage\n", "1 Threads\n"])
def test_no_results_raises(text: str) -> None:
    with pytest.raises(ParseError):
        parse_memtier_stdout(text)


def test_truncated_fixture_raises(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s.stdout.txt").read_text()
    cut = text.index("Waits")  # the table stops before the Waits and Totals rows
    with pytest.raises(ParseError, match="lacks the Waits row"):
        parse_memtier_stdout(text[:cut])


def test_per_run_sections() -> None:
    text = _TABLE + _TABLE.split("\n\n\n", 1)[1].replace("ALL STATS", "RUN #2 RESULTS")
    out = parse_memtier_stdout(text)
    assert set(out.sections) == {"all", "run2"}
    assert out.sections["run2"].rows["Gets"].hits_per_sec == 250.0
