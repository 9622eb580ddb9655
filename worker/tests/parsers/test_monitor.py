"""The host monitor's output into per-second series (worker/parsers/monitor.py)."""

import json
from typing import Any

import pytest

from worker.parsers import ParseError
from worker.parsers.monitor import parse_monitor
from worker.tests.parsers.conftest import FIXTURES

HEADER = {"clk_tck": 100, "ncpu": 2, "pid": 1, "follow": ["kept"]}


def _sample(
    t: float, cpu: list[int], net: list[int], procs: dict[str, list[int]]
) -> dict[str, Any]:
    return {"t": t, "cpu": cpu, "mem": [1000, 400], "net": {"eth0": net}, "proc": procs}


def _text(*samples: dict[str, Any]) -> str:
    return "\n".join(json.dumps(x) for x in (HEADER, *samples)) + "\n"


def test_counters_become_increases_per_second() -> None:
    text = _text(
        _sample(10.0, [100, 0, 50, 0, 5, 0, 0, 1], [0, 0, 0, 0], {"kept": [500, 0]}),
        _sample(11.0, [180, 10, 70, 0, 7, 5, 5, 4], [1000, 10, 2000, 20],
                {"kept": [530, 0], "mw": [40, 0]}),
        _sample(12.0, [200, 10, 80, 0, 7, 5, 5, 4], [1500, 15, 2000, 20],
                {"kept": [530, 0], "mw": [55, 1]}),
    )  # fmt: skip
    s = parse_monitor(text)
    assert s.start_unix == 10.0 and s.length == 2
    assert s.host["host_cpu_user_pct"] == [90.0, 20.0]  # user + nice, percent of a core
    assert s.host["host_cpu_system_pct"] == [30.0, 10.0]  # system + irq + softirq
    assert s.host["host_cpu_iowait_pct"] == [2.0, 0.0]
    assert s.host["host_cpu_steal_pct"] == [3.0, 0.0]
    assert s.host["host_cpu_busy_pct"] == [120.0, 30.0]
    assert s.host["host_cpus"] == [2.0, 2.0]
    assert s.host["host_mem_used_bytes"] == [600 * 1024.0, 600 * 1024.0]
    assert s.net["eth0"]["net_rx_bytes_per_s"] == [1000.0, 500.0]
    assert s.net["eth0"]["net_tx_packets_per_s"] == [20.0, 0.0]
    # Started by the run: from 0 (its first second counts); kept: from its first reading.
    assert s.processes["mw"] == [40.0, 15.0]
    assert s.processes["kept"] == [30.0, 0.0]
    assert s.process_totals_s == {"kept": 0.3, "mw": 0.55}


def test_line_cut_short_at_the_end_is_left_out() -> None:
    text = _text(
        _sample(1.0, [0] * 8, [0] * 4, {}),
        _sample(2.0, [1] * 8, [0] * 4, {}),
    )
    assert parse_monitor(text + '{"t": 3.0, "cpu"').length == 1


@pytest.mark.parametrize(
    ("text", "line"),
    [("", 1), ("not json\n", 1), (json.dumps(HEADER) + "\n[1]\n", 2)],
)
def test_bad_output_names_the_line(text: str, line: int) -> None:
    with pytest.raises(ParseError) as err:
        parse_monitor(text)
    assert err.value.line == line


def test_real_monitor_output() -> None:
    s = parse_monitor((FIXTURES / "monitor_two_processes.jsonl").read_text())
    assert s.length == 2 and s.host["host_cpus"] == [2.0, 2.0]
    assert "lo" in s.net
    # The busy loop's series adds up to its last counter read, in CPU seconds.
    assert sum(s.processes["busy"]) / 100 == pytest.approx(s.process_totals_s["busy"])
    assert s.process_totals_s["busy"] > 0
