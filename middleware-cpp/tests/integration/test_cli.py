"""Command line: --help, --describe-stats, clear errors and exit codes on bad flags."""

from __future__ import annotations

import subprocess

import pytest
from mw_procs import middleware_bin

pytestmark = pytest.mark.integration


def run(*args: str) -> subprocess.CompletedProcess[str]:
    if not middleware_bin().exists():
        pytest.skip(f"middleware binary missing: {middleware_bin()}")
    return subprocess.run(
        [str(middleware_bin()), *args], capture_output=True, text=True, timeout=30
    )


def test_help_lists_every_flag() -> None:
    out = run("--help")
    assert out.returncode == 0
    for flag in (
        "-l",
        "-p",
        "-t",
        "-s",
        "-m",
        "-r",
        "--stats-dir",
        "--window-ms",
        "--sample-every",
        "--queue-capacity",
    ):
        assert f"{flag} " in out.stdout


def test_describe_stats_names_contract_fields() -> None:
    out = run("--describe-stats")
    assert out.returncode == 0
    for name in ("completed", "queue_us_mean", "server_us_max", "processing_us_mean"):
        assert name in out.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "at least one memcached server is required"),
        (("-m", "127.0.0.1:1", "-t", "x"), "bad value for -t: 'x'"),
        (("-m", "127.0.0.1:1", "-s", "maybe"), "bad value for -s: 'maybe'"),
        (("-m", "127.0.0.1:1", "-r", "3"), "-r 3 exceeds the number of servers (1)"),
        (("-m", "127.0.0.1:1", "--nope", "1"), "unknown flag --nope"),
        (("-m", "127.0.0.1:1", "--max-buffered-bytes", "1000"), "--max-buffered-bytes: '1000'"),
        (("-m", "127.0.0.1:1", "-l", "not-an-ip", "-p", "1"), "bad listen address"),
    ],
)
def test_bad_flags_exit_with_a_message(args: tuple[str, ...], message: str) -> None:
    out = run(*args)
    assert out.returncode in (1, 2)
    assert message in out.stderr
