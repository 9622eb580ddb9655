"""Middleware --stats-dir parsers on the hand-written sample in data/middleware_ok, broken too."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from worker.parsers import ParseError, parse_middleware_dir, parse_middleware_windows

SAMPLE = Path(__file__).resolve().parent / "data" / "middleware_ok"


@pytest.fixture
def stats_dir(tmp_path: Path) -> Path:
    """A writable copy of the valid sample."""
    target = tmp_path / "stats"
    shutil.copytree(SAMPLE, target)
    return target


def test_parse_valid_sample() -> None:
    stats = parse_middleware_dir(SAMPLE)
    assert [w.window for w in stats.windows] == [0, 1, 2]
    first = stats.windows[0]
    assert first.requests_per_server == (120, 118, 119)
    assert first.types["get"].misses == 3 and first.types["multiget"].keys == 30
    assert first.ops_per_sec("get") == pytest.approx(300.0)
    assert stats.windows[2].duration_s == pytest.approx(1.0000005)
    assert stats.windows[1].types["set"].total_us_mean == 0.0  # idle window, zeros
    assert stats.summary is not None and stats.summary.config.servers[2] == "127.0.0.1:11213"
    assert stats.summary.config.sharded is False and stats.summary.clean_shutdown is True
    assert stats.summary.memory.max_buffered_bytes == 64 << 20
    assert stats.summary.memory.buffered_bytes_max == 48210 and not stats.summary.memory.hit_cap
    assert stats.histograms is not None
    get_total = stats.histograms.types["get"]["total"]
    assert get_total.total == stats.summary.totals["get"].completed
    assert get_total.pairs()[0] == (100.0, 0) and get_total.pairs()[-1] == (float("inf"), 3)
    req = stats.requests[0]
    assert (req.queue_us, req.server_us, req.total_us) == (289.5, 340.0, 700.0)
    assert [r.type for r in stats.requests] == ["get", "set", "multiget", "other"]


def test_only_windows_is_required(stats_dir: Path) -> None:
    for name in ("summary.json", "histograms.json", "requests.csv"):
        (stats_dir / name).unlink()
    stats = parse_middleware_dir(stats_dir)
    assert stats.summary is None and stats.histograms is None and stats.requests == ()
    (stats_dir / "windows.jsonl").unlink()
    with pytest.raises(ParseError, match="missing windows.jsonl"):
        parse_middleware_dir(stats_dir)


def _edit_json(name: str, change: Callable[[dict[str, object]], None]) -> Callable[[Path], None]:
    def apply(directory: Path) -> None:
        doc = json.loads((directory / name).read_text())
        change(doc)
        (directory / name).write_text(json.dumps(doc, indent=1))

    return apply


def _edit_line(name: str, index: int, old: str, new: str) -> Callable[[Path], None]:
    def apply(directory: Path) -> None:
        lines = (directory / name).read_text().splitlines()
        assert old in lines[index]
        lines[index] = lines[index].replace(old, new, 1)
        (directory / name).write_text("\n".join(lines) + "\n")

    return apply


def _drop_line(name: str, index: int) -> Callable[[Path], None]:
    def apply(directory: Path) -> None:
        lines = (directory / name).read_text().splitlines()
        del lines[index]
        (directory / name).write_text("\n".join(lines) + "\n")

    return apply


CASES: list[tuple[str, Callable[[Path], None], str, str, int | None]] = [
    ("window gap", _drop_line("windows.jsonl", 1), "windows.jsonl", "gap", 2),
    (
        "negative count",
        _edit_line("windows.jsonl", 2, '"completed": 25', '"completed": -25'),
        "windows.jsonl",
        "negative",
        3,
    ),
    (
        "unknown key",
        _edit_line("windows.jsonl", 0, '"queue_length_max"', '"queue_len_max"'),
        "windows.jsonl",
        "missing key 'queue_length_max'",
        1,
    ),
    (
        "float count",
        _edit_line("windows.jsonl", 1, '"keys": 0,', '"keys": 0.5,'),
        "windows.jsonl",
        "expected an integer",
        2,
    ),
    (
        "bad json",
        _edit_line("windows.jsonl", 2, '{"window": 2', '{"window": 2,,'),
        "windows.jsonl",
        "invalid JSON",
        3,
    ),
    (
        "end before start",
        _edit_line("windows.jsonl", 2, '"end_us": 3000000.5', '"end_us": 1.0'),
        "windows.jsonl",
        "ends at or before",
        3,
    ),
    (
        "extra type",
        _edit_line("windows.jsonl", 0, '"other": {', '"delete": {}, "other": {'),
        "windows.jsonl",
        "unknown key 'delete'",
        1,
    ),
    (
        "misses above keys",
        _edit_line("windows.jsonl", 2, '"misses": 1, "keys": 8', '"misses": 9, "keys": 8'),
        "windows.jsonl",
        "9 misses for 8 keys",
        3,
    ),
    (
        "mean above max",
        _edit_line("windows.jsonl", 0, '"total_us_mean": 700.5', '"total_us_mean": 7000.5'),
        "windows.jsonl",
        "above max",
        1,
    ),
    (
        "times without requests",
        _edit_line("windows.jsonl", 1, '"queue_us_max": 0,', '"queue_us_max": 5,'),
        "windows.jsonl",
        "0 completed",
        2,
    ),
    (
        "queue mean above max",
        _edit_line("windows.jsonl", 0, '"queue_length_mean": 3.21', '"queue_length_mean": 13.21'),
        "windows.jsonl",
        "queue length",
        1,
    ),
    (
        "server count",
        _edit_line("windows.jsonl", 1, "[0, 0, 0]", "[0, 0]"),
        "windows.jsonl",
        "changes length",
        2,
    ),
    (
        "short histogram",
        _edit_line("histograms.json", 2, "[0, 2, 150, 100, 70]", "[0, 2]"),
        "histograms.json",
        "list of 5 counts",
        3,
    ),
    (
        "negative overflow",
        _edit_line("histograms.json", 4, '"overflow": 0', '"overflow": -1'),
        "histograms.json",
        "negative",
        5,
    ),
    (
        "csv header",
        _edit_line("requests.csv", 0, "type,keys", "kind,keys"),
        "requests.csv",
        "header",
        1,
    ),
    (
        "csv type",
        _edit_line("requests.csv", 2, "set,1", "cas,1"),
        "requests.csv",
        "unknown request type",
        3,
    ),
    (
        "csv order",
        _edit_line("requests.csv", 1, "1650.0,1700.0", "1750.0,1700.0"),
        "requests.csv",
        "order",
        2,
    ),
    (
        "csv fields",
        _edit_line("requests.csv", 3, ",2,1", ",2"),
        "requests.csv",
        "expected 10 fields",
        4,
    ),
    (
        "csv number",
        _edit_line("requests.csv", 4, "other,0", "other,x"),
        "requests.csv",
        "non-numeric",
        5,
    ),
    (
        "summary version",
        _edit_json("summary.json", lambda d: d.update(format_version=1)),
        "summary.json",
        "format_version",
        2,
    ),
    (
        "summary windows",
        _edit_json("summary.json", lambda d: d.update(windows=4)),
        "summary.json",
        "says 4 windows",
        1,
    ),
    (
        "summary unknown",
        _edit_json("summary.json", lambda d: d.update(extra=1)),
        "summary.json",
        "unknown key 'extra'",
        None,
    ),
    (
        "summary memory",
        _edit_json("summary.json", lambda d: d["memory"].pop("memory_pauses")),  # type: ignore[attr-defined]
        "summary.json",
        "memory_pauses",
        None,
    ),
    (
        "summary servers",
        _edit_json("summary.json", lambda d: d["config"].update(servers=["a:1"])),  # type: ignore[attr-defined]
        "windows.jsonl",
        "differs from config.servers",
        1,
    ),
    (
        "summary sharded",
        _edit_json("summary.json", lambda d: d["config"].update(sharded="yes")),  # type: ignore[attr-defined]
        "summary.json",
        "expected a boolean",
        None,
    ),
]


@pytest.mark.parametrize(
    ("case", "breaker", "file", "message", "line"), CASES, ids=[c[0] for c in CASES]
)
def test_broken_stats_dir_raises_with_file_and_line(
    stats_dir: Path,
    case: str,
    breaker: Callable[[Path], None],
    file: str,
    message: str,
    line: int | None,
) -> None:
    breaker(stats_dir)
    with pytest.raises(ParseError, match=message) as info:
        parse_middleware_dir(stats_dir)
    assert info.value.file == file, case
    assert info.value.line is not None and info.value.line >= 1
    if line is not None:
        assert info.value.line == line
    assert str(info.value).startswith(f"{file}:{info.value.line}: ")


@pytest.mark.parametrize("text", ["\n", "[]\n", "not json\n", '{"window": 0}\n'])
def test_garbage_windows_raise(text: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_middleware_windows(text)
    assert info.value.line == 1


def test_empty_windows_file_is_no_windows() -> None:
    assert parse_middleware_windows("") == ()


def test_python_window_metric_names_equal_the_middlewares_describe_stats() -> None:
    """The parser reads the per-type metrics by the names the middleware declares, all of them."""
    import subprocess

    from worker.parsers.middleware import WINDOW_METRIC_NAMES
    from worker.runs.testbed import LOCAL_MIDDLEWARE

    assert LOCAL_MIDDLEWARE.is_file(), f"build the middleware first: {LOCAL_MIDDLEWARE}"
    out = subprocess.run(
        [str(LOCAL_MIDDLEWARE), "--describe-stats"], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("per-type window metrics"))
    names = []
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        names.append(line.split()[0])
    assert tuple(names) == WINDOW_METRIC_NAMES


def test_python_memory_fields_equal_the_middlewares_memory_counters() -> None:
    """summary.json "memory" is read by the names of the middleware's counter table, all of them
    (plus the cap it ran with)."""
    import dataclasses
    import subprocess

    from backend.domain.middleware_memory import MiddlewareMemory
    from worker.runs.testbed import LOCAL_MIDDLEWARE

    assert LOCAL_MIDDLEWARE.is_file(), f"build the middleware first: {LOCAL_MIDDLEWARE}"
    out = subprocess.run(
        [str(LOCAL_MIDDLEWARE), "--describe-stats"], capture_output=True, text=True, check=True
    ).stdout
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("memory bound counters"))
    names = [line.split()[0] for line in lines[start + 1 :] if line.startswith("  ")]
    fields = [f.name for f in dataclasses.fields(MiddlewareMemory)]
    assert ["max_buffered_bytes", *names] == fields
