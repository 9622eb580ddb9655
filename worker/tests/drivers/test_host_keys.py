"""SSH host keys are pinned (real sshd on 127.0.0.1): the local testbed's key is known, other
hosts are recorded at first contact, and a changed key fails with both fingerprints."""

import dataclasses
from pathlib import Path

import paramiko
import pytest

from backend.core.config import settings
from worker.drivers.errors import TransientDriverError
from worker.drivers.host import Host
from worker.drivers.host_keys import HostKeyMismatchError, known_hosts_name, parse_public_key
from worker.runs.testbed import local_host


@pytest.fixture()
def known_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "known_hosts"
    monkeypatch.setattr(settings, "SSH_KNOWN_HOSTS", path)
    return path


OTHER = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


def _run(spec: object) -> str:
    host = Host(spec)  # type: ignore[arg-type]
    try:
        return host.run("echo ok").strip()
    finally:
        host.close()


def test_local_testbed_key_is_known_and_checked(local_sshd: None, known_hosts: Path) -> None:
    spec = local_host()
    assert spec.host_key is not None and spec.host_key.startswith("ssh-ed25519 ")
    assert _run(spec) == "ok"
    assert not known_hosts.exists()  # nothing trusted on first use
    with pytest.raises(HostKeyMismatchError, match="SSH host key changed"):
        _run(dataclasses.replace(spec, host_key=OTHER))


def test_other_hosts_are_pinned_at_first_contact(local_sshd: None, known_hosts: Path) -> None:
    real = parse_public_key(local_host().host_key or "")
    spec = dataclasses.replace(local_host(), host_key=None)
    assert _run(spec) == "ok"
    name = known_hosts_name(spec.address, spec.port)
    pinned = paramiko.HostKeys(str(known_hosts)).lookup(name)
    assert pinned is not None and pinned["ssh-ed25519"] == real
    assert _run(spec) == "ok"  # the pinned key matches

    # The host now answers with another key than the pinned one (say, a man in the middle).
    other = parse_public_key(OTHER)
    known_hosts.write_text(f"{name} ssh-ed25519 {other.get_base64()}\n")
    with pytest.raises(HostKeyMismatchError) as caught:
        _run(spec)
    message = str(caught.value)
    assert other.fingerprint in message and real.fingerprint in message
    assert str(known_hosts) in message
    assert not isinstance(caught.value, TransientDriverError)  # fails the run, no retry
