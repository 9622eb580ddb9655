"""Stats files: complete per the format contract, and their counts equal what clients sent."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from mw_client import connect, read_exactly
from mw_procs import HOST, Proc
from pymemcache.client.base import Client

from conftest import MiddlewareFactory
from worker.parsers.middleware_dir import parse_middleware_dir

pytestmark = pytest.mark.integration

TYPES = ("get", "multiget", "set", "other")
TYPE_FIELDS = {
    "completed",
    "errors",
    "misses",
    "keys",
    "queue_us_mean",
    "queue_us_max",
    "server_us_mean",
    "server_us_max",
    "total_us_mean",
    "total_us_max",
    "processing_us_mean",
    "reply_bytes_mean",
}
# summary.json "memory": the cap and the memory counters (src/memory_budget.hpp's table).
MEMORY_FIELDS = {
    "max_buffered_bytes",
    "memory_pauses",
    "memory_deferred_replies",
    "memory_closes",
    "body_timeout_closes",
    "buffered_bytes_max",
}
CSV_HEADER = (
    "type,keys,arrival_us,enqueue_us,dequeue_us,sent_us,replied_us,written_us,servers,misses"
)


def load(stats_dir: Path) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    windows = [json.loads(line) for line in (stats_dir / "windows.jsonl").read_text().splitlines()]
    hist = json.loads((stats_dir / "histograms.json").read_text())
    summary = json.loads((stats_dir / "summary.json").read_text())
    return windows, hist, summary


def window_sum(windows: list[dict[str, Any]], type_: str, field: str) -> int:
    return sum(int(w["types"][type_][field]) for w in windows)


def check_structure(
    windows: list[dict[str, Any]],
    hist: dict[str, Any],
    summary: dict[str, Any],
    window_ms: int,
    servers: int,
) -> None:
    assert [w["window"] for w in windows] == list(range(len(windows)))
    for w in windows[:-1]:
        assert w["start_us"] == pytest.approx(w["window"] * window_ms * 1000.0)
        assert w["end_us"] == pytest.approx(w["start_us"] + window_ms * 1000.0)
    assert windows[-1]["end_us"] <= windows[-1]["start_us"] + window_ms * 1000.0
    for w in windows:
        assert len(w["requests_per_server"]) == servers
        assert w["queue_length_mean"] >= 0 and w["queue_length_max"] >= 0
        assert set(w["types"]) == set(TYPES)
        for t in TYPES:
            assert set(w["types"][t]) == TYPE_FIELDS
    assert hist["bucket_us"] == 100 and hist["bucket_count"] == 500
    for t in TYPES:
        for which in ("total", "queue", "server"):
            h = hist["types"][t][which]
            assert len(h["counts"]) == 500
            assert sum(h["counts"]) + h["overflow"] == summary["totals"][t]["completed"]
    assert summary["format_version"] == 2 and summary["clean_shutdown"] is True
    assert summary["windows"] == len(windows)
    assert summary["stopped_unix"] > summary["started_unix"]
    assert set(summary["memory"]) == MEMORY_FIELDS
    for t in TYPES:
        for field in ("completed", "errors", "misses", "keys"):
            assert window_sum(windows, t, field) == summary["totals"][t][field], (t, field)


def test_counts_equal_what_the_client_sent(
    start_middleware: MiddlewareFactory, servers: list[Proc], tmp_path: Path
) -> None:
    stats_dir = tmp_path / "stats"
    mw = start_middleware(stats_dir=stats_dir, extra=["--window-ms", "200", "--sample-every", "10"])
    c = Client((HOST, mw.port), connect_timeout=5, timeout=10)
    for i in range(100):
        c.set(f"st:{i}", b"x" * 128, noreply=False)
    for i in range(150):
        c.get(f"st:{i % 100}" if i < 140 else f"st:missing:{i}")
    for _ in range(20):
        c.get_many([f"st:{i}" for i in range(8)] + ["st:missing"])
    time.sleep(0.5)  # spread the traffic over several windows
    for i in range(5):
        c.delete(f"st:{i}", noreply=False)
    c.version()
    with connect(mw.port) as s:
        s.sendall(b"bogus\r\nget\r\nset k 0 0 x\r\n")
        read_exactly(s, 7 + 7 + 38)
    c.close()
    assert mw.stop() == 0

    windows, hist, summary = load(stats_dir)
    check_structure(windows, hist, summary, 200, 3)
    totals = summary["totals"]
    assert totals["get"] == {"completed": 150, "errors": 0, "misses": 10, "keys": 150}
    assert totals["multiget"] == {"completed": 20, "errors": 0, "misses": 20, "keys": 180}
    assert totals["set"] == {"completed": 100, "errors": 0, "misses": 0, "keys": 100}
    assert totals["other"] == {"completed": 9, "errors": 3, "misses": 0, "keys": 5}
    # Sets and deletes go to all 3 servers, gets and multi-gets (unsharded) and version to one.
    per_server = [sum(w["requests_per_server"][s] for w in windows) for s in range(3)]
    assert sum(per_server) == 100 * 3 + 150 + 20 + 5 * 3 + 1
    assert min(per_server) >= 100 + 5  # every server got every write
    assert summary["config"]["servers"] == [f"{HOST}:{s.port}" for s in servers]
    assert summary["config"]["window_ms"] == 200 and summary["config"]["sharded"] is False
    assert len(windows) >= 3

    lines = (stats_dir / "requests.csv").read_text().splitlines()
    assert lines[0] == CSV_HEADER
    rows = list(csv.DictReader(lines))
    assert len(rows) == (150 + 20 + 100 + 9) // 10
    for r in rows:
        assert r["type"] in TYPES
        assert float(r["written_us"]) >= float(r["arrival_us"])
        if r["enqueue_us"]:
            assert float(r["arrival_us"]) <= float(r["enqueue_us"]) <= float(r["dequeue_us"])
            assert float(r["dequeue_us"]) <= float(r["sent_us"]) <= float(r["replied_us"])


@pytest.mark.skipif(shutil.which("memcaslap") is None, reason="memcaslap not installed")
@pytest.mark.parametrize("sharded", [False, True])
def test_memcaslap_load_is_fully_counted(
    start_middleware: MiddlewareFactory, tmp_path: Path, sharded: bool
) -> None:
    stats_dir = tmp_path / "stats"
    mw = start_middleware(
        stats_dir=stats_dir, sharded=sharded, replication=2, extra=["--window-ms", "250"]
    )
    out = subprocess.run(
        ["memcaslap", "-s", f"{HOST}:{mw.port}", "-x", "20000", "-T", "2", "-c", "8"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    sent = {k: int(v) for k, v in re.findall(r"^(cmd_get|cmd_set|get_misses): (\d+)$", out, re.M)}
    assert sent["cmd_get"] + sent["cmd_set"] == 20000
    assert mw.stop() == 0
    windows, hist, summary = load(stats_dir)
    check_structure(windows, hist, summary, 250, 3)
    assert summary["totals"]["get"]["completed"] == sent["cmd_get"]
    assert summary["totals"]["set"]["completed"] == sent["cmd_set"]
    assert summary["totals"]["set"]["errors"] == 0
    assert summary["totals"]["get"]["misses"] == sent["get_misses"]
    # The dashboard's strict reader accepts the directory and sees the same totals.
    parsed = parse_middleware_dir(stats_dir)
    assert parsed.summary is not None
    assert parsed.summary.totals["get"].completed == sent["cmd_get"]
    assert len(parsed.windows) == len(windows)
