"""SSH host keys pinned at registration (real sshd on 127.0.0.1, the real API): registering a
host reads and pins its key, the worker accepts that key only, a changed key fails the run
with both fingerprints before any login, and the user re-pins after a rebuild."""

import dataclasses
import getpass
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paramiko
import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from backend import models as m
from backend.core.config import settings
from backend.core.host_keys import fingerprint
from backend.models import HostRole, RunStatus
from backend.tests.utils.experiment import random_name
from backend.tests.utils.testbeds import wait_for_scans
from worker.drivers.errors import AddressRefusedError, TransientDriverError
from worker.drivers.host import Host
from worker.drivers.host_keys import HostKeyMismatchError, HostKeyMissingError
from worker.runs.testbed import load_testbed, local_host
from worker.tasks.runs import _execute_run
from worker.tests.utils.experiments import LOCAL_FIXED, create_queued_experiment, runs_of

# Reaches the test hosts but runs no load on them: with the load-free tests (conftest.py).
pytestmark = pytest.mark.hosts_without_load

API = "/api/v1/testbeds"
# A valid ed25519 key no host here has: the key a man in the middle (or a rebuilt host) offers.
OTHER = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"


@pytest.fixture()
def logins(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every SSH authentication the worker attempts (a spy on paramiko's real _auth)."""
    seen: list[str] = []
    real = paramiko.SSHClient._auth  # type: ignore[attr-defined]  # private: not in the stubs

    def spy(self: paramiko.SSHClient, username: str, *args: Any, **kwargs: Any) -> None:
        seen.append(username)
        real(self, username, *args, **kwargs)

    monkeypatch.setattr(paramiko.SSHClient, "_auth", spy)
    return seen


@pytest.fixture()
def key_dir(local_sshd: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    # The API takes key paths under its key folder: the local sshd's folder holds the client key.
    monkeypatch.setattr(settings, "SSH_KEY_DIR", settings.LOCAL_SSH_DIR)
    yield settings.LOCAL_SSH_DIR


def _local_key() -> str:
    return (settings.LOCAL_SSH_DIR / "ssh_host_ed25519_key.pub").read_text().strip()


def _host_body(name: str, **over: object) -> dict[str, object]:
    return {
        "name": name,
        "role": "server",
        "address": "127.0.0.1",
        "ssh_user": getpass.getuser(),
        "ssh_port": settings.LOCAL_SSH_PORT,
        "key_path": "id_ed25519",
        **over,
    }


def _run(spec: object) -> str:
    host = Host(spec)  # type: ignore[arg-type]
    try:
        return host.run("echo ok").strip()
    finally:
        host.close()


def test_local_testbed_key_is_known_and_checked(local_sshd: None, logins: list[str]) -> None:
    spec = local_host()
    assert spec.host_key is not None and spec.host_key.startswith("ssh-ed25519 ")
    assert _run(spec) == "ok" and logins == [spec.user]
    with pytest.raises(HostKeyMismatchError, match="SSH host key changed"):
        _run(dataclasses.replace(spec, host_key=OTHER))
    assert logins == [spec.user]  # the wrong key: no login attempted


def test_registration_pins_the_key_the_host_offers(
    client: TestClient, db: Session, key_dir: Path, logins: list[str]
) -> None:
    r = client.post(API, json={"name": random_name("tb"), "hosts": [_host_body("s1")]})
    assert r.status_code == 201, r.text
    # The key is read in the background, not in the request.
    assert r.json()["hosts"][0]["scan_status"] == "pinning"
    (host,) = wait_for_scans(client, r.json()["id"])
    assert host["host_key"] == " ".join(_local_key().split()[:2])
    assert host["host_key_source"] == "scanned" and host["host_key_pinned_at"]
    assert host["host_key_fingerprint"] == fingerprint(_local_key())
    assert host["host_key_fingerprint"].startswith("ssh-ed25519 SHA256:")
    assert host["scan_status"] == "read" and host["scan_error"] is None
    assert host["scanned_matches_pinned"] is True
    assert logins == []  # reading the key is a key exchange, never a login
    # The page lists it too, and the worker connects with the pinned key.
    listed = client.get(f"{API}/{r.json()['id']}").json()["hosts"][0]
    assert listed["host_key_fingerprint"] == host["host_key_fingerprint"]
    (spec,) = load_testbed(db, r.json()["id"]).servers
    assert spec.host_key == host["host_key"]
    assert _run(spec) == "ok"


def test_a_given_key_is_pinned_as_given_and_a_bad_one_is_422(
    client: TestClient, key_dir: Path
) -> None:
    r = client.post(
        API, json={"name": random_name("tb"), "hosts": [_host_body("s1", host_key=OTHER + " c")]}
    )
    assert r.status_code == 201, r.text
    (host,) = r.json()["hosts"]
    assert host["host_key"] == OTHER and host["host_key_source"] == "supplied"
    for bad in ("ssh-ed25519", "ssh-dss AAAA", "ssh-ed25519 AAAA!!", "ssh-ed25519 AAAAC3Nz"):
        hosts = [_host_body("a"), _host_body("b", host_key=bad)]
        r = client.post(API, json={"name": random_name("tb"), "hosts": hosts})
        assert r.status_code == 422, (bad, r.text)
        assert r.json()["detail"][0]["loc"] == ["body", "hosts", 1, "host_key"], bad


def test_an_unreachable_host_is_registered_unpinned_and_its_runs_fail(
    client: TestClient, db: Session, key_dir: Path, logins: list[str]
) -> None:
    # Nothing listens on port 1 of loopback: refused at once.
    r = client.post(
        API, json={"name": random_name("tb"), "hosts": [_host_body("ghost", ssh_port=1)]}
    )
    assert r.status_code == 201, r.text
    (host,) = wait_for_scans(client, r.json()["id"])
    assert host["host_key"] is None and host["host_key_fingerprint"] is None
    assert host["scan_status"] == "failed"
    assert host["scan_error"] == "no SSH host key could be read from 127.0.0.1:1"
    (spec,) = load_testbed(db, r.json()["id"]).servers
    with pytest.raises(HostKeyMissingError, match="no SSH host key pinned"):
        _run(spec)
    assert logins == []


def test_repin_after_a_rebuild(client: TestClient, key_dir: Path) -> None:
    """The host was rebuilt (here: pinned to another key): the user scans, compares, confirms."""
    body = {"name": random_name("tb"), "hosts": [_host_body("s1", host_key=OTHER)]}
    tb = client.post(API, json=body).json()
    host_id = tb["hosts"][0]["id"]
    url = f"{API}/{tb['id']}/hosts/{host_id}/host-key"
    scan = client.post(f"{url}/scan")
    assert scan.status_code == 202, scan.text
    assert scan.json()["scan_status"] == "scanning"
    (offered,) = wait_for_scans(client, tb["id"])
    assert offered["scan_status"] == "read"
    assert offered["scanned_key_fingerprint"] == fingerprint(_local_key())
    assert offered["scanned_matches_pinned"] is False
    assert offered["host_key"] == OTHER  # a re-pin scan pins nothing by itself
    # A confirmation of another fingerprint than the host offers pins nothing.
    wrong = fingerprint(OTHER).split()[-1]
    r = client.put(url, json={"expected_fingerprint": wrong})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "expected_fingerprint"]
    assert client.get(f"{API}/{tb['id']}").json()["hosts"][0]["host_key"] == OTHER
    r = client.put(url, json={"expected_fingerprint": offered["scanned_key_fingerprint"]})
    assert r.status_code == 200, r.text
    assert r.json()["host_key"] == offered["scanned_key"]
    assert r.json()["host_key_source"] == "scanned"
    assert client.post(f"{url}/scan").status_code == 202
    assert wait_for_scans(client, tb["id"])[0]["scanned_matches_pinned"] is True
    # Or the key given by the user; unknown hosts are 404s.
    r = client.put(url, json={"host_key": OTHER})
    assert r.status_code == 200 and r.json()["host_key_source"] == "supplied"
    assert client.put(f"{API}/{tb['id']}/hosts/987654/host-key", json={}).status_code == 404


def test_an_unreachable_host_cannot_be_scanned(client: TestClient, key_dir: Path) -> None:
    body = {"name": random_name("tb"), "hosts": [_host_body("ghost", ssh_port=1)]}
    tb = client.post(API, json=body).json()
    url = f"{API}/{tb['id']}/hosts/{tb['hosts'][0]['id']}/host-key"
    assert client.post(f"{url}/scan").status_code == 202
    (host,) = wait_for_scans(client, tb["id"])
    assert host["scan_status"] == "failed" and "127.0.0.1:1" in host["scan_error"]
    r = client.put(url, json={})
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "host_key"]


def test_a_changed_host_key_fails_the_run_without_logging_in(
    db: Session, local_sshd: None, logins: list[str]
) -> None:
    """A testbed host pinned to one key answers with another: the run fails at once (not
    retried) naming the host and both fingerprints, and the worker never logs in."""
    testbed = m.Testbed(name=random_name("mitm"), kind=m.TestbedKind.REMOTE, description="")
    local = local_host()
    testbed.hosts = [
        m.Host(
            name=f"moved-{role.value}",
            role=role,
            address=local.address,
            ssh_user=local.user,
            ssh_port=local.port,
            key_path=local.key_path,
            host_key=OTHER,
            host_key_source="scanned",
        )
        for role in (HostRole.SERVER, HostRole.CLIENT)
    ]
    db.add(testbed)
    db.commit()
    exp, (run_id,) = create_queued_experiment(
        db, factors={"clients_per_thread": [1]}, fixed=LOCAL_FIXED, testbed_id=testbed.id
    )
    assert _execute_run(run_id) is None  # no retry
    (run,) = runs_of(db, exp.id)
    assert run.status == RunStatus.FAILED
    error = run.error or ""
    assert "SSH host key changed" in error and "moved-" in error, error
    for key in (OTHER, _local_key()):
        assert fingerprint(key).split()[-1] in error, error
    assert "re-pin" in error
    assert logins == []


def test_mismatch_is_not_transient(local_sshd: None) -> None:
    with pytest.raises(HostKeyMismatchError) as caught:
        _run(dataclasses.replace(local_host(), host_key=OTHER))
    assert not isinstance(caught.value, TransientDriverError)


def test_a_refused_address_is_never_connected_to(
    local_sshd: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host stored with a link-local address (before the address policy, with a given key)
    fails at once, not retried, without even a name look-up."""
    attempts: list[object] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        attempts.append(args)
        raise OSError("no traffic in this test")

    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    spec = dataclasses.replace(local_host(), address="169.254.169.254", host_key=OTHER)
    with pytest.raises(AddressRefusedError, match="not connected to: 169.254.169.254 is a link"):
        _run(spec)
    assert attempts == []
