"""ClientResult from memtier and memaslap: units, series, keys for multi-gets, histograms."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from worker.parsers import (
    ClientResult,
    ParseError,
    client_result_from_memaslap,
    client_result_from_memtier,
    parse_memaslap,
    parse_memtier_json,
    parse_memtier_stdout,
)


def _check_common(result: ClientResult) -> None:
    assert "all" in result.types
    for kind, typed in result.types.items():
        s = typed.summary
        assert s.count > 0 and s.ops_per_sec > 0, kind
        assert s.mean_latency_us is not None and 1.0 < s.mean_latency_us < 100_000.0
        assert s.keys_per_sec is not None and s.keys_per_sec >= s.ops_per_sec * 0.999
        seconds = [x.second for x in typed.series]
        assert seconds == sorted(set(seconds))
        bounds = [b for b, _ in typed.histogram]
        assert bounds == sorted(bounds)
        values = list(typed.percentiles.values())
        assert values == sorted(values)


def test_memtier_result(memtier_json_path: Path) -> None:
    parsed = parse_memtier_json(memtier_json_path.read_text())
    result = client_result_from_memtier(parsed)
    _check_common(result)
    match = re.search(r"_mkg(\d+)_", memtier_json_path.name)
    k = int(match.group(1)) if match else 1
    expected_types = {"all"} | {
        n for n, key in (("get", "Gets"), ("set", "Sets")) if parsed.main.types[key].count
    }
    assert set(result.types) == expected_types
    for kind, typed in result.types.items():
        # Histograms come from the HDR blobs: they hold every request, in contiguous
        # buckets from 0 us (memtier's HDR layout: 8 us wide at first, [0, 7]).
        assert sum(c for _, c in typed.histogram) == typed.summary.count
        assert typed.histogram[0][0] == 7.0 and typed.histogram[-1][1] > 0
        assert set(typed.percentiles) == {50.0, 90.0, 99.0, 99.9}
        if parsed.main.name == "all":
            assert len(typed.series) == 5 or "populate" in memtier_json_path.name
            assert typed.series[0].mean_latency_us is not None
        if kind == "get":
            assert typed.summary.keys_per_sec == pytest.approx(
                k * typed.summary.ops_per_sec, rel=1e-5
            )
            for sample in typed.series:
                assert sample.keys_per_sec == k * sample.ops_per_sec
    if "get" in result.types and "set" in result.types:
        parts = result.types["get"].summary.keys_per_sec, result.types["set"].summary.keys_per_sec
        assert result.types["all"].summary.keys_per_sec == pytest.approx(sum(p or 0 for p in parts))


def test_memtier_aggregated_totals_match_stdout(fixtures_dir: Path) -> None:
    stem = fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s_x2"
    parsed = parse_memtier_json(stem.with_suffix(".json").read_text())
    result = client_result_from_memtier(parsed)
    stdout = parse_memtier_stdout(Path(f"{stem}.stdout.txt").read_text())
    printed = stdout.sections["aggregated"].rows["Totals"].percentiles_us
    # The JSON's aggregated Totals percentiles are unusable; ours come from the merged
    # Sets+Gets histogram and reproduce what memtier printed on stdout.
    assert result.types["all"].percentiles == pytest.approx(printed)
    assert result.duration_s == pytest.approx(5.0, abs=0.01)
    best = client_result_from_memtier(parsed, section="best")
    assert len(best.types["all"].series) == 5
    with pytest.raises(ParseError, match="no 'all' section"):
        client_result_from_memtier(parsed, section="all")


def test_memtier_drops_only_the_trailing_partial_second(fixtures_dir: Path) -> None:
    parsed = parse_memtier_json((fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s.json").read_text())
    raw_seconds = [s.second for s in parsed.main.types["Totals"].series]
    result = client_result_from_memtier(parsed)
    assert raw_seconds == [0, 1, 2, 3, 4, 5]
    assert [s.second for s in result.types["all"].series] == [0, 1, 2, 3, 4]


def test_memaslap_result(memaslap_path: Path) -> None:
    out = parse_memaslap(memaslap_path.read_text())
    result = client_result_from_memaslap(out)
    _check_common(result)
    assert set(result.types) == {"all", "get", "set"}
    assert result.duration_s == pytest.approx(out.run_time_s, abs=0.05)  # printed to 0.1 s
    for kind, typed in result.types.items():
        assert sum(c for _, c in typed.histogram) == typed.summary.count
        assert [b for b, _ in typed.histogram] == [2.0**i for i in range(len(typed.histogram))]
        assert typed.percentiles == {}  # memaslap prints none
        assert len(typed.series) == len(out.screens)
        assert [s.second for s in typed.series] == list(range(len(out.screens)))
        if kind != "set":
            assert typed.summary.misses_per_sec == 0.0
    # Network rate: bytes over the run time, the figure memaslap prints (MB/s, 1 decimal).
    kb = result.types["all"].summary.kb_per_sec
    assert kb is not None and kb / 1024 == pytest.approx(out.net_rate_mb_per_sec, abs=0.06)


def test_memaslap_multiget_keys(fixtures_dir: Path) -> None:
    out = parse_memaslap((fixtures_dir / "memcaslap_d4_t5s_S1s_T2_c8.txt").read_text())
    result = client_result_from_memaslap(out)
    get = result.types["get"]
    assert get.summary.keys_per_sec == pytest.approx(4 * get.summary.ops_per_sec, rel=1e-3)
    for sample in get.series:
        assert sample.keys_per_sec == pytest.approx(4 * sample.ops_per_sec, rel=1e-3)
    # The final TPS line counts keys: it is the "all" keys/s.
    assert result.types["all"].summary.keys_per_sec == pytest.approx(out.tps, rel=0.01)


def test_memaslap_without_statistics_gives_totals_only() -> None:
    text = (
        "servers: 127.0.0.1:11211\ncmd_get: 900\ncmd_set: 100\nget_misses: 9\n\n"
        "Run time: 2.0s Ops: 1000 TPS: 500 Net_rate: 0.5M/s\n"
    )
    result = client_result_from_memaslap(parse_memaslap(text))
    assert set(result.types) == {"all"}
    summary = result.types["all"].summary
    assert summary.mean_latency_us is None and summary.count == 1000
    assert (summary.ops_per_sec, summary.misses_per_sec, summary.hits_per_sec) == (
        500.0,
        4.5,
        445.5,
    )
    assert summary.kb_per_sec == pytest.approx(512.0)


def test_memaslap_single_table_table_case() -> None:
    from worker.tests.parsers.test_memaslap import _MINIMAL

    result = client_result_from_memaslap(parse_memaslap(_MINIMAL))
    assert set(result.types) == {"all"}  # no Get/Set tables: only the totals
    (sample,) = result.types["all"].series
    assert (sample.second, sample.ops_per_sec, sample.mean_latency_us) == (0, 10.0, 20.0)
    assert sample.misses_per_sec == 2.0 and sample.hits_per_sec == 8.0
    summary = result.types["all"].summary
    assert (summary.count, summary.mean_latency_us, summary.misses_per_sec) == (10, 20.0, 2.0)
    assert result.types["all"].histogram == (
        (1.0, 0),
        (2.0, 0),
        (4.0, 0),
        (8.0, 0),
        (16.0, 8),
        (32.0, 2),
    )
