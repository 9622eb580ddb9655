"""HDR outputs: .hgrm decoding vs the .txt table and the JSON of one run; encoder round trip."""

from __future__ import annotations

import base64
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from worker.parsers import (
    ParseError,
    decode_compressed_histogram,
    parse_hdr_txt,
    parse_hgrm,
    parse_memtier_json,
)
from worker.parsers.hdr import HdrHistogram, value_at_percentile


def test_hgrm_agrees_with_txt_table(hgrm_path: Path) -> None:
    (interval,) = parse_hgrm(hgrm_path.read_text())
    table = parse_hdr_txt(hgrm_path.with_suffix(".txt").read_text())
    hist = interval.histogram
    assert hist.total_count == table.total_count
    assert hist.max_value() == interval.interval_max_us
    assert hist.max_value() == pytest.approx(table.max_us)
    assert round(hist.mean() / 1000, 3) == pytest.approx(table.mean_us / 1000)
    assert interval.end_unix > interval.start_unix
    if "_5s" in hgrm_path.name:  # a --test-time 5 run covers 5 s
        assert interval.end_unix - interval.start_unix == pytest.approx(5.0, abs=0.01)
    # Each printed row is the bucket where the cumulative count reaches TotalCount,
    # shown in ms with 2 decimals.
    cumulative: list[tuple[float, int]] = []
    running = 0
    for bound, count in hist.buckets():
        running += count
        cumulative.append((bound, running))
    for value_us, _pct, total in table.rows:
        bound = next(b for b, c in cumulative if c >= total)
        assert round(bound / 1000, 2) == pytest.approx(value_us / 1000)


def test_json_blobs_decode_to_the_json_percentiles(memtier_json_path: Path) -> None:
    result = parse_memtier_json(memtier_json_path.read_text())
    checked = 0
    for section in result.sections.values():
        for stats in section.types.values():
            hist = stats.histogram
            if hist is None or not stats.percentiles_us:
                continue
            if section.name != "aggregated":
                assert hist.total_count == stats.count
            for pct, value in stats.percentiles_us.items():
                assert hist.value_at_percentile(pct) == pytest.approx(value, abs=0.5)
            checked += 1
    assert checked >= 2


def test_json_blob_is_the_hgrm_blob(fixtures_dir: Path) -> None:
    stem = "memtier_ratio1-3_mkg3_c2_t1_d128_5s"
    result = parse_memtier_json((fixtures_dir / f"{stem}.json").read_text())
    (interval,) = parse_hgrm((fixtures_dir / f"{stem}_hdr_GET_command_run_1.hgrm").read_text())
    assert result.main.types["Gets"].histogram == interval.histogram


def _encode(counts: list[int], digits: int = 2, low: int = 10, high: int = 600_000_000) -> str:
    """Reference V2 encoder: zero runs as negative ZigZag LEB128 varints."""
    values: list[int] = []
    i = 0
    while i < len(counts):
        if counts[i] == 0:
            run = 0
            while i < len(counts) and counts[i] == 0:
                run, i = run + 1, i + 1
            values.append(-run)
        else:
            values.append(counts[i])
            i += 1
    body = bytearray()
    for v in values:
        z = (v << 1) ^ (v >> 63)
        for _ in range(8):
            if z < 0x80:
                break
            body.append((z & 0x7F) | 0x80)
            z >>= 7
        body.append(z & 0xFF if z < 0x100 else z)
    header = struct.pack(">iiiiqqd", 0x1C849313, len(body), 0, digits, low, high, 1.0)
    packed = zlib.compress(header + bytes(body))
    return base64.b64encode(struct.pack(">ii", 0x1C849314, len(packed)) + packed).decode()


@given(st.lists(st.one_of(st.just(0), st.integers(1, 2**40)), min_size=1, max_size=300))
def test_decode_round_trips_the_encoding(counts: list[int]) -> None:
    while counts and counts[-1] == 0:
        counts.pop()
    hist = decode_compressed_histogram(_encode(counts))
    assert list(hist.counts) == counts


def test_bucket_layout_table() -> None:
    # lowest 10 -> unit 8 us; 2 digits -> 256 sub-buckets; as memtier configures it.
    hist = HdrHistogram(10, 600_000_000, 2, (0,) * 600)
    assert hist.bucket_range(0) == (0, 7)
    assert hist.bucket_range(3) == (24, 31)
    assert hist.bucket_range(255) == (2040, 2047)
    assert hist.bucket_range(256) == (2048, 2063)  # next magnitude: twice as wide
    assert value_at_percentile(((31.0, 1), (39.0, 1)), 50.0) == 31.0
    assert value_at_percentile(((31.0, 1), (39.0, 1)), 100.0) == 39.0
    assert value_at_percentile((), 50.0) == 0.0


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        ("!!!not base64!!!", "does not decode: Invalid base64"),
        (base64.b64encode(b"\x00" * 4).decode(), "does not decode: .*too short"),
        (base64.b64encode(struct.pack(">ii", 0x12345678, 4) + b"abcd").decode(), "Cookie"),
        (base64.b64encode(struct.pack(">ii", 0x1C849314, 4) + b"abcd").decode(), "decompress"),
    ],
)
def test_bad_blob_raises(blob: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        decode_compressed_histogram(blob)


def test_bad_hgrm_line_raises_with_line(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s_hdr_FULL_RUN_1.hgrm").read_text()
    lines = text.splitlines()
    broken = "\n".join([*lines[:-1], lines[-1][:-20]])  # cut the blob short
    with pytest.raises(ParseError) as info:
        parse_hgrm(broken)
    assert info.value.line == len(lines)
    with pytest.raises(ParseError, match="4 comma-separated"):
        parse_hgrm("\n".join([*lines[:-1], "1,2,3"]))
    with pytest.raises(ParseError, match="no interval"):
        parse_hgrm("\n".join(lines[:-1]))


def test_bad_txt_table_raises_with_line(fixtures_dir: Path) -> None:
    text = (fixtures_dir / "memtier_ratio1-1_c2_t1_d128_5s_hdr_FULL_RUN_1.txt").read_text()
    lines = text.splitlines()
    lines[5] = "        0.03     zero       131214         1.05"
    with pytest.raises(ParseError, match="unexpected line") as info:
        parse_hdr_txt("\n".join(lines))
    assert info.value.line == 6
    with pytest.raises(ParseError, match="header"):
        parse_hdr_txt("garbage")
    with pytest.raises(ParseError, match="footer"):
        parse_hdr_txt("\n".join(text.splitlines()[:-3]))
