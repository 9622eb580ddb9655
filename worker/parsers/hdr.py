"""HdrHistogram outputs of memtier --hdr-file-prefix: compressed V2 blobs, .hgrm logs, .txt tables.

memtier records latencies in microseconds; the .txt table prints them in ms
(2 decimals), the .hgrm log keeps the raw us values (Interval_Max in us).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from hdrh.histogram import HdrHistogram as _LibraryHistogram

from backend.analysis.percentiles import make_histogram, percentiles_from_histogram
from worker.parsers.errors import ParseError


@functools.lru_cache(maxsize=16)
def _layout(lowest: int, highest: int, digits: int) -> _LibraryHistogram:
    """An empty library histogram of this layout: bucket bounds come from the library."""
    return _LibraryHistogram(lowest, highest, digits)


@dataclass(frozen=True, slots=True)
class HdrHistogram:
    """A decoded HdrHistogram: ``counts[i]`` is the count of bucket index i (values in us)."""

    lowest_trackable: int
    highest_trackable: int
    significant_digits: int
    counts: tuple[int, ...]

    def bucket_range(self, index: int) -> tuple[int, int]:
        """Lowest value and highest equivalent value (inclusive) of counts index ``index``."""
        layout = _layout(self.lowest_trackable, self.highest_trackable, self.significant_digits)
        low = int(layout.get_value_from_index(index))
        return low, int(layout.get_highest_equivalent_value(low))

    @property
    def total_count(self) -> int:
        """Number of recorded values."""
        return sum(self.counts)

    def buckets(self, *, contiguous: bool = False) -> tuple[tuple[float, int], ...]:
        """Buckets as (highest equivalent value us, count), ascending: only the
        non-empty ones, or with ``contiguous`` every bucket from 0 to the last
        non-empty one (so each bucket starts right after the previous bound)."""
        if contiguous:
            last = max((i for i, c in enumerate(self.counts) if c), default=-1)
            return tuple((float(self.bucket_range(i)[1]), self.counts[i]) for i in range(last + 1))
        return tuple((float(self.bucket_range(i)[1]), c) for i, c in enumerate(self.counts) if c)

    def mean(self) -> float:
        """Mean as HdrHistogram computes it (median equivalent value of each bucket)."""
        total = self.total_count
        if total == 0:
            return 0.0
        acc = 0
        for i, c in enumerate(self.counts):
            if c:
                low, high = self.bucket_range(i)
                acc += c * (low + ((high - low + 1) >> 1))
        return acc / total

    def max_value(self) -> float:
        """Highest equivalent value of the highest non-empty bucket (0 when empty)."""
        nonzero = [i for i, c in enumerate(self.counts) if c]
        return float(self.bucket_range(nonzero[-1])[1]) if nonzero else 0.0

    def value_at_percentile(self, percentile: float) -> float:
        """The value at ``percentile`` (0..100) by the one percentile rule."""
        return value_at_percentile(self.buckets(), percentile)


def merge_histograms(hists: list[HdrHistogram]) -> HdrHistogram | None:
    """Sum histograms bucket by bucket (one layout, as memtier uses for every type);
    None for no histograms."""
    if not hists:
        return None
    first = hists[0]
    if any(
        (h.lowest_trackable, h.significant_digits)
        != (first.lowest_trackable, first.significant_digits)
        for h in hists
    ):
        raise ParseError("cannot merge HDR histograms with different layouts")
    width = max(len(h.counts) for h in hists)
    counts = [0] * width
    for h in hists:
        for i, c in enumerate(h.counts):
            counts[i] += c
    return HdrHistogram(
        first.lowest_trackable, first.highest_trackable, first.significant_digits, tuple(counts)
    )


def value_at_percentile(buckets: tuple[tuple[float, int], ...], percentile: float) -> float:
    """mcscope's one percentile rule (`backend.analysis.percentiles.percentiles_from_histogram`,
    HdrHistogram's) over (upper edge us, count) buckets; 0.0 for no values."""
    if sum(c for _, c in buckets) == 0:
        return 0.0
    hist = make_histogram([b for b, _ in buckets], [c for _, c in buckets])
    return percentiles_from_histogram(hist, (percentile,))[0].value_us


def decode_compressed_histogram(blob: str) -> HdrHistogram:
    """Decode a "HISTF..." base64 blob (zlib-compressed V2 encoding) with the HdrHistogram
    library (PyPI ``hdrhistogram``); counts are kept up to the last non-empty bucket."""
    try:
        decoded = _LibraryHistogram.decode(blob.strip())
    except Exception as exc:  # noqa: BLE001 - the library raises many types on bad input
        raise ParseError(f"histogram blob does not decode: {_reason(exc)}") from None
    counts = list(decoded.counts[: decoded.counts_len])
    while counts and counts[-1] == 0:
        counts.pop()
    return HdrHistogram(
        int(decoded.lowest_trackable_value),
        int(decoded.highest_trackable_value),
        int(decoded.significant_figures),
        tuple(int(c) for c in counts),
    )


def _reason(exc: Exception) -> str:
    """A short reason for a decoding failure (the library's messages are often empty)."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 120 else text[:117] + "..."


@dataclass(frozen=True, slots=True)
class HgrmInterval:
    """One interval line of a .hgrm log (timestamps in unix seconds, max in us)."""

    start_unix: float
    end_unix: float
    interval_max_us: float
    histogram: HdrHistogram


def parse_hgrm(text: str) -> tuple[HgrmInterval, ...]:
    """Parse a HistogramLogProcessor-format log (``#`` comments, one CSV header, intervals).

    The StartTime comment's human date is malformed in memtier output; comments
    are skipped, so it does not matter.
    """
    intervals: list[HgrmInterval] = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#") or line.startswith('"StartTimestamp"'):
            continue
        parts = line.split(",")
        if len(parts) != 4:
            raise ParseError(f"expected 4 comma-separated fields, got {len(parts)}", line=lineno)
        try:
            start, end, imax = (float(p) for p in parts[:3])
        except ValueError:
            raise ParseError(f"bad number in interval line {line[:60]!r}", line=lineno) from None
        try:
            hist = decode_compressed_histogram(parts[3])
        except ParseError as exc:
            raise ParseError(exc.message, line=lineno) from None
        intervals.append(HgrmInterval(start, end, imax, hist))
    if not intervals:
        raise ParseError("no interval lines in histogram log", line=max(1, text.count("\n")))
    return tuple(intervals)


@dataclass(frozen=True, slots=True)
class HdrPercentileTable:
    """A memtier HDR .txt table: rows of (value us, percentile 0..100, total count)."""

    rows: tuple[tuple[float, float, int], ...]
    mean_us: float
    stddev_us: float
    max_us: float
    total_count: int
    buckets: int
    sub_buckets: int

    def value_at(self, percentile: float) -> float:
        """The printed value (us) of the first row at or above ``percentile``."""
        for value, pct, _ in self.rows:
            if pct >= percentile - 1e-9:
                return value
        return self.rows[-1][0]


_ROW = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+)\s+(inf|\d+(?:\.\d+)?)\s*$")
_FOOTER = re.compile(r"^#\[(\w+)\s*=\s*(\d+(?:\.\d+)?),\s*(\w+(?: \w+)?)\s*=\s*(\d+(?:\.\d+)?)\]$")


def parse_hdr_txt(text: str) -> HdrPercentileTable:
    """Parse the percentile table (values in ms with 2 decimals, converted to us)."""
    rows: list[tuple[float, float, int]] = []
    footer: dict[str, float] = {}
    lines = text.splitlines()
    if not lines or lines[0].split() != ["Value", "Percentile", "TotalCount", "1/(1-Percentile)"]:
        raise ParseError("missing 'Value Percentile TotalCount 1/(1-Percentile)' header", line=1)
    for lineno, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        row = _ROW.match(line)
        if row:
            rows.append(
                (float(row.group(1)) * 1000.0, float(row.group(2)) * 100.0, int(row.group(3)))
            )
            continue
        foot = _FOOTER.match(line.strip())
        if not foot:
            raise ParseError(f"unexpected line {line[:60]!r}", line=lineno)
        footer[foot.group(1)] = float(foot.group(2))
        footer[foot.group(3)] = float(foot.group(4))
    wanted = ("Mean", "StdDeviation", "Max", "Total count", "Buckets", "SubBuckets")
    missing = [k for k in wanted if k not in footer]
    if missing:
        raise ParseError(f"missing footer field {missing[0]!r}", line=len(lines))
    return HdrPercentileTable(
        rows=tuple(rows),
        mean_us=footer["Mean"] * 1000.0,
        stddev_us=footer["StdDeviation"] * 1000.0,
        max_us=footer["Max"] * 1000.0,
        total_count=int(footer["Total count"]),
        buckets=int(footer["Buckets"]),
        sub_buckets=int(footer["SubBuckets"]),
    )
