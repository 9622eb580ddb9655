"""window_histograms.jsonl from the built middleware, run against a real memcached on 127.0.0.1.

The middleware serves real traffic for about a second (--window-ms 250, every request sampled
into requests.csv); the parsed per-window histograms must hold each window's completed
requests, and their percentiles must agree with the sampled requests' within one bucket.
"""

from __future__ import annotations

import bisect
import subprocess
from pathlib import Path

import numpy as np
import pytest

from backend.analysis.percentiles import (
    make_histogram,
    percentile_rank,
    percentiles_from_histogram,
)
from backend.results.log_buckets import MIDDLEWARE_LAYOUT
from backend.tests.utils.live_middleware import run_middleware
from worker.parsers import ParseError, parse_middleware_dir, parse_middleware_window_histograms
from worker.parsers.middleware import HIST_KINDS
from worker.runs.testbed import LOCAL_MIDDLEWARE


@pytest.fixture(scope="module")
def stats_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return run_middleware(tmp_path_factory.mktemp("mw") / "stats", seconds=1.0, window_ms=250)


def test_windows_hold_their_completed_requests(stats_dir: Path) -> None:
    stats = parse_middleware_dir(stats_dir)  # cross-checks counts against windows.jsonl
    hists = stats.window_histograms
    assert hists is not None and len(hists.windows) == len(stats.windows) >= 4
    assert (hists.sub_buckets, hists.bucket_count) == (
        MIDDLEWARE_LAYOUT.sub_buckets,
        MIDDLEWARE_LAYOUT.bucket_count,
    )
    gets = sum(w.types["get"]["total"].total for w in hists.windows)
    assert gets == stats.summary.totals["get"].completed > 100  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", HIST_KINDS)
def test_percentiles_match_the_sampled_requests_within_one_bucket(
    stats_dir: Path, kind: str
) -> None:
    """Per window: the histogram's p25/p50/p75/p99 lie in the bucket of the exact sample
    percentile (the rule's rank over requests.csv, which holds every request) or its neighbour."""
    stats = parse_middleware_dir(stats_dir)
    assert stats.window_histograms is not None
    ub = MIDDLEWARE_LAYOUT.upper_bounds_us
    width = stats.windows[0].end_us - stats.windows[0].start_us
    for w, wh in zip(stats.windows, stats.window_histograms.windows, strict=True):
        values = sorted(
            getattr(r, f"{kind}_us")
            for r in stats.requests
            if r.type == "get" and w.start_us <= r.written_us < w.start_us + width
        )
        sc = wh.types["get"][kind]
        assert sc.total == len(values)
        if len(values) < 20:
            continue
        counts = np.zeros(MIDDLEWARE_LAYOUT.bucket_count + 1)
        counts[sc.first : sc.first + len(sc.counts)] = sc.counts
        hist = make_histogram(ub, counts[:-1], counts[-1])
        for p in percentiles_from_histogram(hist, (25.0, 50.0, 75.0, 99.0)):
            exact = values[int(percentile_rank(p.q, len(values))) - 1]
            got_bucket = bisect.bisect_left(ub, p.value_us)
            exact_bucket = bisect.bisect_left(ub, exact)
            # requests.csv times are rounded to 1 ns (3 decimals in us): one bucket of slack.
            assert abs(got_bucket - exact_bucket) <= 1, (w.window, kind, p.q, p.value_us, exact)


def test_a_count_that_disagrees_with_windows_jsonl_is_refused(
    stats_dir: Path, tmp_path: Path
) -> None:
    import shutil

    copy = tmp_path / "stats"
    shutil.copytree(stats_dir, copy)
    path = copy / "window_histograms.jsonl"
    lines = path.read_text().splitlines()
    lines[1] = lines[1].replace('"counts": [', '"counts": [1,', 1)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ParseError, match="values for"):
        parse_middleware_dir(copy)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "missing the layout line"),
        ('{"layout": "log_linear", "unit_ns": 1, "sub_buckets": 48, "bucket_count": 1024}\n',
         "power of 2"),
        ('{"layout": "log_linear", "unit_ns": 1, "sub_buckets": 64, "bucket_count": 1024}\n'
         '{"window": 1, "types": {}}\n', "window 1 where 0"),
    ],
)  # fmt: skip
def test_malformed_files_raise(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_middleware_window_histograms(text)


def test_describe_stats_names_the_histogram_kinds_and_layout() -> None:
    out = subprocess.run(
        [str(LOCAL_MIDDLEWARE), "--describe-stats"], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("per-type window histograms"))
    header = lines[start]
    assert f"{MIDDLEWARE_LAYOUT.sub_buckets} sub-buckets" in header
    assert f"{MIDDLEWARE_LAYOUT.bucket_count} buckets" in header
    names = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        names.append(line.split()[0])
    assert tuple(names) == HIST_KINDS
