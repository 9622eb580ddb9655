"""Fixtures of the driver tests."""

from collections.abc import Iterator

import pytest

from worker.drivers.host import Host
from worker.runs.testbed import local_host


@pytest.fixture()
def host(local_sshd: None) -> Iterator[Host]:
    """A connection to the local testbed over its test sshd, closed after the test."""
    h = Host(local_host())
    try:
        yield h
    finally:
        h.close()
