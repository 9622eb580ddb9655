"""stop_process(): returns only once every thread of the process is stopped."""

import os
import select
import subprocess
import sys

import pytest

from backend.tests.utils.stopping import _thread_states, continue_process, stop_process

# Two threads that each write a byte as fast as they can: output stops only when both stop.
BUSY = """
import os, threading
def spin():
    while True:
        os.write(1, b".")
threading.Thread(target=spin, daemon=True).start()
spin()
"""


def _drained(fd: int, wait_s: float) -> int:
    """Bytes read from fd until it has been silent for wait_s."""
    read = 0
    while select.select([fd], [], [], wait_s)[0]:
        read += len(os.read(fd, 1 << 16))
    return read


@pytest.mark.timeout(60)
def test_every_thread_is_stopped_when_it_returns_and_runs_again_after() -> None:
    proc = subprocess.Popen([sys.executable, "-c", BUSY], stdout=subprocess.PIPE)
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    try:
        assert os.read(fd, 1)  # running
        stop_process(proc.pid)
        assert len(_thread_states(proc.pid)) == 2
        assert set(_thread_states(proc.pid)) == {"T"}
        _drained(fd, 0.05)  # what was written before the stop
        assert _drained(fd, 0.5) == 0  # nothing after it
        continue_process(proc.pid)
        assert os.read(fd, 1)
    finally:
        proc.kill()  # by its PID
        proc.wait()
