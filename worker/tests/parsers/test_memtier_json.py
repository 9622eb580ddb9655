"""parse_memtier_json: every real fixture, the documented quirks, and bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from worker.parsers import ParseError, parse_memtier_json


def _mkg(path: Path) -> int:
    match = re.search(r"_mkg(\d+)_", path.name)
    return int(match.group(1)) if match else 1


def test_parse_fixture_invariants(memtier_json_path: Path) -> None:
    result = parse_memtier_json(memtier_json_path.read_text())
    raw = json.loads(memtier_json_path.read_text())
    assert result.multi_key_get == _mkg(memtier_json_path)
    assert result.run_count == (2 if "_x2" in memtier_json_path.name else 1)
    for section in result.sections.values():
        types = section.types
        # Totals are the sum of the parts.
        assert types["Totals"].count == sum(types[k].count for k in ("Sets", "Gets", "Waits"))
        for name, stats in types.items():
            # The per-second series adds up to the whole run (when memtier wrote one).
            if stats.series:
                assert sum(s.count for s in stats.series) == stats.count
            if stats.count:
                assert stats.mean_latency_us is not None
                assert stats.min_latency_us is not None and stats.max_latency_us is not None
                assert stats.min_latency_us <= stats.mean_latency_us <= stats.max_latency_us
                assert 1.0 < stats.mean_latency_us < 100_000.0, "latency must be in us"
            else:
                assert stats.mean_latency_us is None and stats.percentiles_us is None, name
    # Values are converted from ms to us, not otherwise changed.
    title = "ALL STATS" if "ALL STATS" in raw else "BEST RUN RESULTS"
    key = "all" if title == "ALL STATS" else "best"
    sets_raw = raw[title]["Sets"]
    if sets_raw["Count"]:
        assert result.sections[key].types["Sets"].max_latency_us == pytest.approx(
            sets_raw["Max Latency"] * 1000
        )


def test_totals_mean_is_derived_from_accumulated_latency(memtier_json_path: Path) -> None:
    raw = json.loads(memtier_json_path.read_text())
    result = parse_memtier_json(memtier_json_path.read_text())
    for title, section in raw.items():
        if not title.endswith(("STATS", "RESULTS")):
            continue
        totals = section["Totals"]
        assert totals["Average Latency"] == 0.0  # the quirk is present in every fixture
        key = {"ALL STATS": "all", "BEST RUN RESULTS": "best", "WORST RUN RESULTS": "worst"}
        parsed = result.sections[key.get(title, "aggregated")].types["Totals"]
        if totals["Accumulated Latency"]:
            expected = totals["Accumulated Latency"] * 1000 / totals["Count"]
            assert parsed.mean_latency_us == pytest.approx(expected)
        # Whatever the source, the Totals mean sits between the per-type means.
        means = [
            result.sections[key.get(title, "aggregated")].types[k].mean_latency_us
            for k in ("Sets", "Gets")
        ]
        present = [m for m in means if m is not None]
        assert parsed.mean_latency_us is not None
        assert min(present) - 1e-9 <= parsed.mean_latency_us <= max(present) + 1e-9


def test_multiget_hits_count_keys(memtier_json_path: Path) -> None:
    k = _mkg(memtier_json_path)
    gets = parse_memtier_json(memtier_json_path.read_text()).main.types["Gets"]
    if gets.count == 0:
        assert gets.hits_per_sec == gets.misses_per_sec == gets.ops_per_sec == 0.0
        return
    # Every key of a multi-get is a hit or a miss; Ops/sec counts requests.
    assert gets.hits_per_sec + gets.misses_per_sec == pytest.approx(k * gets.ops_per_sec, rel=1e-5)


def test_aggregated_section_sums_counts_and_averages_rates(fixtures_dir: Path) -> None:
    result = parse_memtier_json(
        (fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s_x2.json").read_text()
    )
    assert set(result.sections) == {"best", "worst", "aggregated"}
    assert result.main.name == "aggregated"
    agg, best = result.sections["aggregated"].types, result.sections["best"].types
    assert agg["Sets"].series == ()  # no per-second data for aggregated results
    assert agg["Totals"].percentiles_us is None  # unusable in the file
    # Count is summed over 2 runs while Ops/sec is averaged: count/ops ~ 2 x duration.
    assert agg["Sets"].count / agg["Sets"].ops_per_sec == pytest.approx(10.0, rel=0.01)
    assert best["Sets"].count / best["Sets"].ops_per_sec == pytest.approx(5.0, rel=0.01)


def _minimal(**totals: Any) -> dict[str, Any]:
    """The smallest valid memtier JSON: one run, sets only."""

    def stats(count: int, avg: float, acc: int) -> dict[str, Any]:
        return {
            "Count": count,
            "Ops/sec": count / 5,
            "Hits/sec": 0.0,
            "Misses/sec": 0.0,
            "Average Latency": avg,
            "Accumulated Latency": acc,
            "Min Latency": 0.01,
            "Max Latency": 1.0,
            "KB/sec": 1.0,
            "Connection Errors": 0,
            "Time-Serie": {
                "0": {
                    "Bytes RX": 1,
                    "Bytes TX": 2,
                    "Count": count,
                    "Average Latency": avg,
                    "Accumulated Latency": acc,
                    "Min Latency": 0.01,
                    "Max Latency": 1.0,
                    "p50.00": 0.05,
                }
            },
            "Percentile Latencies": {"p50.00": 0.05, "p99.90": 0.5},
        }

    sets = stats(1000, 0.05, 50)
    empty = stats(0, 0.0, 0)
    empty["Time-Serie"] = {"0": {"Bytes RX": 0, "Bytes TX": 0, "Count": 0}}
    total = stats(1000, 0.0, 50) | totals
    runtime = {
        "Start time": 1,
        "Finish time": 5001,
        "Total duration": 5000,
        "Time unit": "MILLISECONDS",
        "Interrupted": "false",
    }
    return {
        "configuration": {"multi_key_get": 0, "run_count": 1},
        "ALL STATS": {
            "Runtime": runtime,
            "Sets": sets,
            "Gets": empty,
            "Waits": empty,
            "Totals": total,
            "SET": [{"<=msec": 0.05, "percent": 100.0}],
        },
    }


def test_minimal_document_table() -> None:
    result = parse_memtier_json(json.dumps(_minimal(), indent=1))
    totals = result.main.types["Totals"]
    assert totals.mean_latency_us == pytest.approx(50.0)  # 50 ms / 1000 requests
    assert totals.percentiles_us == {50.0: 50.0, 99.9: 500.0}
    assert result.main.distribution["SET"] == ((50.0, 100.0),)
    assert result.multi_key_get == 1  # 0 in the file means "not a multi-get"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["ALL STATS"]["Sets"].pop("Count"), "missing key 'Count'"),
        (lambda d: d["ALL STATS"]["Sets"].update({"Count": "many"}), "expected an integer"),
        (lambda d: d["ALL STATS"]["Sets"].update({"Ops/sec": -1}), "negative"),
        (lambda d: d["ALL STATS"]["Sets"].update({"KB/sec": True}), "expected a number"),
        (lambda d: d["ALL STATS"]["Runtime"].update({"Time unit": "SECONDS"}), "time unit"),
        (lambda d: d.update({"SOMETHING ELSE": {}}), "unknown section"),
        (lambda d: d["ALL STATS"]["Sets"].update({"Time-Serie": []}), "expected an object"),
        (lambda d: d.pop("ALL STATS"), "no 'ALL STATS'"),
    ],
)
def test_bad_document_raises_with_line(mutate: Any, message: str) -> None:
    doc = _minimal()
    mutate(doc)
    with pytest.raises(ParseError, match=message) as info:
        parse_memtier_json(json.dumps(doc, indent=1))
    assert info.value.line is not None and info.value.line >= 1


def test_wrong_type_error_points_at_the_key_line() -> None:
    doc = _minimal()
    doc["ALL STATS"]["Sets"]["Count"] = "many"
    text = json.dumps(doc, indent=1)
    with pytest.raises(ParseError) as info:
        parse_memtier_json(text)
    assert '"Count": "many"' in text.splitlines()[info.value.line - 1]  # type: ignore[operator]


def test_a_histogram_blob_that_does_not_decode_points_at_its_line(fixtures_dir: Path) -> None:
    # Found by test_fuzz.py's wrong-types property (2026-11-30): the blob was decoded only
    # after parsing, so its error named no line.
    doc = json.loads((fixtures_dir / "memtier_ratio1-3_mkg3_c2_t1_d128_5s.json").read_text())
    hist = doc["ALL STATS"]["Sets"]["Percentile Latencies"]["Histogram log format"]
    hist["Compressed Histogram"] = "x"
    text = json.dumps(doc, indent=1)
    with pytest.raises(ParseError, match="Compressed Histogram: histogram blob") as info:
        parse_memtier_json(text)
    assert '"Compressed Histogram": "x"' in text.splitlines()[info.value.line - 1]  # type: ignore[operator]


@pytest.mark.parametrize("cut", [1, 100, 1000, -2])
def test_truncated_fixture_raises_with_line(fixtures_dir: Path, cut: int) -> None:
    text = (fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s.json").read_text()
    with pytest.raises(ParseError, match="invalid JSON") as info:
        parse_memtier_json(text[:cut])
    assert info.value.line == text[:cut].count("\n") + 1  # the error is where the text stops


@pytest.mark.parametrize("garbage", ["", "garbage", "[1, 2]", "null", "{" * 5000])
def test_garbage_raises(garbage: str) -> None:
    with pytest.raises(ParseError):
        parse_memtier_json(garbage)


def test_print_all_runs_sections_are_kept() -> None:
    doc = _minimal()
    doc["RUN #1 RESULTS"] = json.loads(json.dumps(doc["ALL STATS"]))
    result = parse_memtier_json(json.dumps(doc, indent=1))
    assert set(result.sections) == {"all", "run1"}
    assert result.main.name == "all"
    assert result.sections["run1"].types["Sets"].count == 1000
