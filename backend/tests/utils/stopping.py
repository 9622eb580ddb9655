"""Stopping a test's server with SIGSTOP, and knowing it is stopped.

kill(SIGSTOP) returns before the process stops: the kernel wakes one of its threads, and only
when that thread runs does it stop the others. Until then a worker thread that is already
awake goes on serving. memcached, started by a side lane at SCHED_IDLE on a busy machine,
answered a request sent after SIGSTOP (CI, twice: test_hung_server_times_out). So a test that
needs a hung server waits until every thread of it is stopped.
"""

import os
import signal
import time
from pathlib import Path


def _thread_states(pid: int) -> list[str]:
    states = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except FileNotFoundError:
            continue  # a thread that exited while we looked
        states.append(stat.rsplit(")", 1)[1].split()[0])  # after "(comm)": the state letter
    return states


def stop_process(pid: int, timeout_s: float = 30.0) -> None:
    """SIGSTOP pid and return once every one of its threads is stopped ('T')."""
    os.kill(pid, signal.SIGSTOP)
    deadline = time.monotonic() + timeout_s
    while not all(state == "T" for state in _thread_states(pid)):
        if time.monotonic() > deadline:
            raise TimeoutError(
                f"process {pid} not stopped after {timeout_s} s: {_thread_states(pid)}"
            )
        time.sleep(0.005)


def continue_process(pid: int) -> None:
    os.kill(pid, signal.SIGCONT)
