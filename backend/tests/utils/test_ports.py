"""listener(): whether a port's listener is the given process's, another's or nobody's."""

import os
import socket
import subprocess
import sys

from backend.tests.utils.ports import HOST, Listener, free_port, listener


def test_a_listener_is_told_apart_from_another_process_and_from_none() -> None:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port = s.getsockname()[1]
        assert listener(os.getpid(), port) is Listener.NONE  # bound, not listening
        s.listen()
        assert listener(os.getpid(), port) is Listener.OURS
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            assert listener(child.pid, port) is Listener.OTHER
        finally:
            child.kill()  # by its PID
            child.wait()
    assert listener(os.getpid(), port) is Listener.NONE


def test_a_process_that_is_gone_holds_nothing() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    with socket.socket() as s:
        s.bind((HOST, 0))
        s.listen()
        assert listener(child.pid, s.getsockname()[1]) is Listener.OTHER


def test_free_port_is_bindable() -> None:
    with socket.socket() as s:
        s.bind((HOST, free_port()))
