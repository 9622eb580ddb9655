"""The browser tests' port forwarder (infra/local/netns_forward.py) with a real namespace: a
client inside it reaches a server on this namespace's loopback, a body of megabytes arrives
whole in both directions, and the namespace itself has no address but its loopback's (what
keeps Chromium clear of address changes here)."""

from __future__ import annotations

import hashlib
import http.server
import os
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator

import pytest

from backend.core.config import REPO_ROOT
from backend.tests.utils.ports import free_port

BODY = os.urandom(3 << 20)


class _Echo(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self._send(BODY)

    def do_POST(self) -> None:
        self._send(self.rfile.read(int(self.headers["Content-Length"]))[::-1])

    def _send(self, body: bytes) -> None:
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[int]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), _Echo)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture()
def namespace() -> Iterator[str]:
    name = f"mcfwd{uuid.uuid4().hex[:6]}"
    subprocess.run(["ip", "netns", "add", name], check=True)
    try:
        subprocess.run(["ip", "-n", name, "link", "set", "lo", "up"], check=True)
        yield name
    finally:
        subprocess.run(["ip", "netns", "del", name], check=False)


# Run inside the namespace: GET the body, POST it back (the server reverses it), print sizes
# and whether each came back as sent.
CLIENT = """
import hashlib, sys, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/"
got = urllib.request.urlopen(url, timeout=30).read()
back = urllib.request.urlopen(urllib.request.Request(url, data=got), timeout=30).read()
print(len(got), hashlib.sha256(got).hexdigest(), back == got[::-1])
"""


def test_a_client_in_the_namespace_reaches_this_loopback(server: int, namespace: str) -> None:
    forward = subprocess.Popen(
        [sys.executable, "-m", "infra.local.netns_forward", namespace, str(server)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert forward.stdout is not None
        assert forward.stdout.readline().split() == ["forwarding", str(server)]
        inside = subprocess.run(
            ["ip", "netns", "exec", namespace, sys.executable, "-c", CLIENT, str(server)],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert inside.stdout.split() == [str(len(BODY)), hashlib.sha256(BODY).hexdigest(), "True"]
        # Only the loopback's addresses in there: nothing this machine adds or removes shows.
        addrs = subprocess.run(
            ["ip", "-n", namespace, "-o", "addr"], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert addrs and all(line.split()[1] == "lo" for line in addrs), addrs
    finally:
        forward.terminate()
        forward.wait(10)


def test_a_namespace_that_does_not_exist_is_named(server: int) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "infra.local.netns_forward", "mcfwd-none", str(server)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert run.returncode == 1
    assert "cannot listen in namespace 'mcfwd-none'" in run.stderr
