"""memtier percentiles from the most exact source a run has: its JSON, the JSON's HDR
histogram, the .hgrm HDR log, and the printed HDR table (2 decimals of ms) only when nothing
exact exists. Real fixtures, laid out in a folder as a run's archive holds them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from worker.parsers import parse_hdr_txt, parse_memtier_json
from worker.parsers.memtier import (
    HDR_SUFFIX,
    PERCENTILE_SOURCES,
    exact_percentiles,
    read_hdr_files,
    read_memtier_result,
)

# 338,751 sets whose printed table says p99.9 = 0.66 ms (the tick after 0.46 ms at TotalCount
# 338,388, below the rank 338,412) where memtier's JSON says 543 us.
STEM = "memtier_ratio1-0_c4_t2_d4096_5s"
NAME = "client-0"


def _archive(
    fixtures: Path, into: Path, *, json_text: str | None = None, hgrm: bool = True
) -> Path:
    """The fixture's JSON and HDR files under the names the worker gives an instance."""
    into.mkdir(exist_ok=True)
    text = json_text if json_text is not None else (fixtures / f"{STEM}.json").read_text()
    (into / f"{NAME}.json").write_text(text)
    for src in fixtures.glob(f"{STEM}_hdr_*_1.*"):
        if src.suffix == ".hgrm" and not hgrm:
            continue
        shutil.copy(src, into / src.name.replace(f"{STEM}_hdr", f"{NAME}{HDR_SUFFIX}"))
    return into


def _json_percentiles(fixtures: Path, key: str) -> dict[float, float]:
    """memtier's own values, read here with the json module (ms -> us)."""
    doc = json.loads((fixtures / f"{STEM}.json").read_text())["ALL STATS"][key]
    pct = doc["Percentile Latencies"]
    return {float(k[1:]): round(v * 1000, 6) for k, v in pct.items() if k.startswith("p")}


def _strip_exact(fixtures: Path) -> str:
    """The fixture's JSON without its percentile values and HDR histograms."""
    doc = json.loads((fixtures / f"{STEM}.json").read_text())
    for stats in doc["ALL STATS"].values():
        if isinstance(stats, dict) and "Percentile Latencies" in stats:
            stats["Percentile Latencies"] = {}
    return json.dumps(doc)


def test_the_printed_table_differs_from_the_json(fixtures_dir: Path) -> None:
    table = parse_hdr_txt((fixtures_dir / f"{STEM}_hdr_FULL_RUN_1.txt").read_text())
    assert _json_percentiles(fixtures_dir, "Totals")[99.9] == 543.0
    assert table.value_at(99.9) == 660.0  # the next printed tick: the table must not win


def test_json_wins_over_the_printed_table(fixtures_dir: Path, tmp_path: Path) -> None:
    result = read_memtier_result(_archive(fixtures_dir, tmp_path / "run"), NAME)
    assert result.types["all"].percentiles == _json_percentiles(fixtures_dir, "Totals")
    assert result.types["set"].percentiles == _json_percentiles(fixtures_dir, "Sets")
    assert result.types["all"].percentiles[99.9] == 543.0


def test_hdr_log_before_the_table_when_the_json_has_no_percentiles(
    fixtures_dir: Path, tmp_path: Path
) -> None:
    archive = _archive(fixtures_dir, tmp_path / "run", json_text=_strip_exact(fixtures_dir))
    stats = parse_memtier_json((archive / f"{NAME}.json").read_text()).main.types["Totals"]
    files = read_hdr_files(archive, NAME + HDR_SUFFIX)
    assert set(files.logs) == set(files.tables) == {"Totals", "Sets"}
    values, source = exact_percentiles(
        stats, (50.0, 99.9), None, files.logs["Totals"], files.tables["Totals"]
    )
    assert source == "hgrm"
    assert values == {50.0: 95.0, 99.9: 543.0}
    result = read_memtier_result(archive, NAME)
    assert result.types["all"].percentiles == _json_percentiles(fixtures_dir, "Totals")
    # The stored histogram is the log's, every request in it.
    assert sum(c for _, c in result.types["all"].histogram) == stats.count


def test_the_table_is_the_last_resort(fixtures_dir: Path, tmp_path: Path) -> None:
    archive = _archive(
        fixtures_dir, tmp_path / "run", json_text=_strip_exact(fixtures_dir), hgrm=False
    )
    stats = parse_memtier_json((archive / f"{NAME}.json").read_text()).main.types["Totals"]
    table = read_hdr_files(archive, NAME + HDR_SUFFIX).tables["Totals"]
    values, source = exact_percentiles(stats, (99.9,), None, None, table)
    assert (values, source) == ({99.9: 660.0}, "table")
    assert read_memtier_result(archive, NAME).types["all"].percentiles[99.9] == 660.0
    assert exact_percentiles(stats, (99.9,)) == ({}, None)


def test_sources_in_order_of_exactness() -> None:
    assert PERCENTILE_SOURCES == ("json", "json-histogram", "hgrm", "table")


@pytest.mark.parametrize("hgrm", [True, False])
def test_without_hdr_files_the_json_alone(fixtures_dir: Path, tmp_path: Path, hgrm: bool) -> None:
    archive = tmp_path / "run"
    archive.mkdir()
    shutil.copy(fixtures_dir / f"{STEM}.json", archive / f"{NAME}.json")
    if hgrm:  # another instance's HDR files are not this one's
        _archive(fixtures_dir, tmp_path / "other")
        for f in (tmp_path / "other").glob("*hdr*"):
            shutil.copy(f, archive / f.name.replace(NAME, "client-1"))
    result = read_memtier_result(archive, NAME)
    assert result.types["all"].percentiles == _json_percentiles(fixtures_dir, "Totals")
