"""listener(): whether a port's listener is the given process's, another's or nobody's;
wait_listening() and start_on_free_port(), which every test server's start-up goes through."""

import os
import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest

from backend.tests.utils import ports
from backend.tests.utils.ports import (
    HOST,
    ExitedBeforeListening,
    Listener,
    PortTaken,
    free_port,
    handing_out_first,
    listener,
    listening_port,
    start_on_free_port,
    wait_listening,
)

# A server in miniature: binds 127.0.0.1:argv[1] and listens (exits 1 if the port is taken).
SERVER = "import socket, sys, time; s = socket.socket(); s.bind(('127.0.0.1', int(sys.argv[1])))"
SERVER += "; s.listen(); time.sleep(30)"


def _server(port: int, code: str = SERVER) -> "subprocess.Popen[bytes]":
    return subprocess.Popen([sys.executable, "-c", code, str(port)], stderr=subprocess.DEVNULL)


@pytest.fixture
def held_port() -> Iterator[int]:
    with listening_port() as port:
        yield port


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


def test_wait_listening_returns_once_the_process_itself_listens() -> None:
    proc = _server(port := free_port())
    try:
        wait_listening(proc, port, timeout_s=30)
        assert listener(proc.pid, port) is Listener.OURS
    finally:
        proc.kill()  # by its PID
        proc.wait()


def test_wait_listening_waits_for_the_readiness_check_too() -> None:
    proc, calls = _server(port := free_port()), [0]

    def third_time() -> bool:
        calls[0] += 1
        return calls[0] == 3

    try:
        wait_listening(proc, port, timeout_s=30, ready=third_time)
        assert calls == [3]
    finally:
        proc.kill()
        proc.wait()


def test_a_process_that_lost_its_port_to_another_is_port_taken(held_port: int) -> None:
    proc = _server(held_port)
    with pytest.raises(PortTaken, match=f"port {held_port} taken by another process"):
        wait_listening(proc, held_port, timeout_s=30)


def test_a_process_that_exits_on_a_free_port_is_not_port_taken() -> None:
    proc = _server(port := free_port(), code="raise SystemExit(3)")
    with pytest.raises(ExitedBeforeListening, match=f"exited \\(3\\) before listening on {port}"):
        wait_listening(proc, port, timeout_s=30)


def test_a_process_that_never_listens_times_out() -> None:
    proc = _server(port := free_port(), code="import time; time.sleep(30)")
    try:
        with pytest.raises(TimeoutError, match=f"did not listen on {port}"):
            wait_listening(proc, port, timeout_s=0.3)
    finally:
        proc.kill()
        proc.wait()


def test_start_on_free_port_moves_to_another_port_when_one_was_taken(
    held_port: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ports, "free_port", handing_out_first(held_port))
    procs: list[subprocess.Popen[bytes]] = []

    def start(port: int) -> int:
        procs.append(proc := _server(port))
        wait_listening(proc, port, timeout_s=30)
        return port

    try:
        port = start_on_free_port(start)
        assert port != held_port
        assert [listener(p.pid, port) for p in procs][-1] is Listener.OURS
        assert len(procs) == 2 and procs[0].poll() is not None  # the first lost the port
    finally:
        for proc in procs:
            proc.kill()
            proc.wait()


def test_start_on_free_port_gives_up_after_its_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    tried: list[int] = []
    monkeypatch.setattr(ports, "free_port", lambda: len(tried) + 1)

    def start(port: int) -> int:
        tried.append(port)
        raise PortTaken(f"port {port} taken by another process")

    with pytest.raises(PortTaken):
        start_on_free_port(start, attempts=3)
    assert tried == [1, 2, 3]
